"""Install a released ironic-lite from the commit it was cut at.

The first step of a rolling upgrade is to have the release you run, and
the upgrade tests need it too: both use this module.  The commit each
release was cut at is recorded in ``releases/releases.json``; the release
is exported from this repository's history with ``git archive`` (no
checkout, no worktree) and installed -- not editable -- into a virtualenv
of its own, which then has the release's ``ironic-api``,
``ironic-conductor``, ``ironic-dbsync`` and ``ironic-status``.

Usage (from a clone with main's full history)::

    python3 tools/install_release.py 3.0 --venv /opt/ironic-lite-3.0

``--constraints FILE`` pins the libraries (the tests pass the ``pip
freeze`` of the running venv, so that old and new code run on the same
libraries); without it pip resolves the release's own requirements.
The build log is ``<venv>.build.log``; an existing venv is reused when
it holds that release complete.
"""

import argparse
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RELEASES_FILE = os.path.join(REPO_ROOT, 'releases', 'releases.json')
# The console scripts a complete install has.
COMMANDS = ('ironic-api', 'ironic-conductor', 'ironic-dbsync',
            'ironic-status')
COMPLETE_MARKER = '.complete'
# Lines of the build log a failure shows (the whole log stays there).
LOG_TAIL = 40


def _progress_module():
    """ironic_lite/common/progress.py, loaded by its path: this tool runs
    with a Python that need not have ironic-lite's libraries (the
    package's ``__init__`` imports them; progress.py uses none)."""
    spec = importlib.util.spec_from_file_location(
        'ironic_lite_progress',
        os.path.join(REPO_ROOT, 'ironic_lite', 'common', 'progress.py'))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


progress = _progress_module()

# pip's lines that start on one more package (a requirement or the source).
_PIP_PACKAGE = ('Collecting ', 'Processing ')


class InstallError(Exception):
    """The release could not be installed; the message says why."""


def recorded():
    """Every recorded release: {name: {'commit', 'alias', 'date'}}."""
    with open(RELEASES_FILE) as f:
        return json.load(f)['releases']


def release_commit(name):
    """The commit release ``name`` (or its alias) was cut at."""
    releases = recorded()
    for release, info in releases.items():
        if name in (release, info.get('alias')):
            return info['commit']
    raise InstallError('release %r is not recorded in releases/'
                       'releases.json (known: %s)'
                       % (name, ', '.join(sorted(releases))))


def _git(*args):
    return subprocess.run(['git', '-C', REPO_ROOT] + list(args),
                          capture_output=True, text=True)


def check_commit(name, commit):
    """Fail clearly when the release's commit is not in this clone."""
    found = _git('cat-file', '-e', '%s^{commit}' % commit)
    if found.returncode == 0:
        return
    shallow = _git('rev-parse', '--is-shallow-repository').stdout.strip()
    hint = ('This clone is shallow: run "git fetch --unshallow" (or clone '
            'without --depth) so that the history holds release %s.'
            % name if shallow == 'true' else
            'Fetch the full history of main ("git fetch --unshallow" for a '
            'shallow clone, "git fetch origin main" otherwise).')
    raise InstallError('Release %s is commit %s (releases/releases.json), '
                       'which is not in the repository at %s. %s\n%s'
                       % (name, commit, REPO_ROOT, hint,
                          found.stderr.strip()))


def is_complete(venv, commit):
    """True when ``venv`` holds the release of ``commit``, every command
    installed."""
    marker = os.path.join(venv, COMPLETE_MARKER)
    if not os.path.exists(marker):
        return False
    with open(marker) as f:
        if f.read().strip() != commit:
            return False
    return all(os.access(os.path.join(venv, 'bin', c), os.X_OK)
               for c in COMMANDS)


def _run(args, log, timeout, **kwargs):
    log.write('$ %s\n' % ' '.join(args))
    log.flush()
    result = subprocess.run(args, stdout=log, stderr=subprocess.STDOUT,
                            timeout=timeout, **kwargs)
    if result.returncode != 0:
        raise InstallError('%s exited %d' % (' '.join(args),
                                             result.returncode))


def _run_pip(args, log, timeout, told):
    """``_run`` for pip: its output goes to the log, each package it
    starts on is counted in ``told`` (a progress.Progress)."""
    log.write('$ %s\n' % ' '.join(args))
    log.flush()
    pip = subprocess.Popen(args, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
    killed = threading.Event()

    def kill():
        killed.set()
        pip.kill()
    timer = threading.Timer(timeout, kill)
    timer.start()
    try:
        for line in pip.stdout:
            log.write(line)
            if line.startswith(_PIP_PACKAGE):
                told.add(1)
    finally:
        timer.cancel()
        pip.stdout.close()
    if pip.wait() != 0:
        raise InstallError('%s exited %d%s' % (
            ' '.join(args), pip.returncode,
            ' (killed after %ss)' % timeout if killed.is_set() else ''))
    told.finish()


def _export(commit, src, log, timeout):
    archive = subprocess.Popen(
        ['git', '-C', REPO_ROOT, 'archive', '--format=tar', commit],
        stdout=subprocess.PIPE, stderr=log)
    _run(['tar', '-x', '-C', src], log, timeout, stdin=archive.stdout)
    archive.stdout.close()
    if archive.wait() != 0:
        raise InstallError('git archive %s failed' % commit)


def build(commit, venv, constraints=None, timeout=1800):
    """Install the code of ``commit`` into a new ``venv`` (replacing what
    is there).  The output goes to ``<venv>.build.log``; the packages pip
    has started on, and the rate, are told on standard error as it goes
    (a bar on a terminal; the total is not known in advance).  A failure
    raises InstallError with the log's tail."""
    log_path = venv.rstrip('/') + '.build.log'
    shutil.rmtree(venv, ignore_errors=True)
    with tempfile.TemporaryDirectory(prefix='ironic-lite-src-') as src, \
            open(log_path, 'w') as log:
        try:
            _export(commit, src, log, timeout)
            _run([sys.executable, '-m', 'venv', venv], log, timeout)
            pip = [os.path.join(venv, 'bin', 'python'), '-m', 'pip',
                   'install', '--disable-pip-version-check', '--no-input',
                   '--progress-bar', 'off']
            if constraints:
                pip += ['-c', constraints]
            _run_pip(pip + [src], log, timeout, progress.Progress(
                'installing %s' % commit[:12], unit='packages'))
        except (InstallError, OSError, subprocess.SubprocessError) as err:
            log.flush()
            with open(log_path) as f:
                tail = f.read().splitlines()[-LOG_TAIL:]
            raise InstallError('Installing release commit %s into %s '
                               'failed: %s (log: %s)\n%s'
                               % (commit, venv, err, log_path,
                                  '\n'.join(tail)))
    with open(os.path.join(venv, COMPLETE_MARKER), 'w') as f:
        f.write(commit + '\n')


def install(name, venv, constraints=None, timeout=1800):
    """Release ``name`` in ``venv`` (built unless already complete); the
    directory of its commands."""
    commit = release_commit(name)
    if not is_complete(venv, commit):
        check_commit(name, commit)
        build(commit, venv, constraints, timeout)
    return os.path.join(venv, 'bin')


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__.split('\n\n', 1)[0],
        epilog='Releases: %s' % ', '.join(
            '%s (%s)' % (n, i.get('alias')) for n, i in recorded().items()))
    parser.add_argument('release', help='a release name or alias')
    parser.add_argument('--venv', required=True,
                        help='the virtualenv to create (or reuse)')
    parser.add_argument('--constraints', metavar='FILE',
                        help='pip constraints for the libraries')
    args = parser.parse_args(argv)
    try:
        bin_dir = install(args.release, os.path.abspath(args.venv),
                          args.constraints)
    except InstallError as err:
        print('ERROR: %s' % err, file=sys.stderr)
        return 1
    print('Release %s installed: %s' % (
        args.release, ', '.join(os.path.join(bin_dir, c) for c in COMMANDS)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
