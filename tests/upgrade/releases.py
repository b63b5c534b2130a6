"""Install an old ironic-lite release, from this repository's history.

The commit each release was cut at is recorded in ``releases/releases.json``.
``install(name)`` exports that commit with ``git archive`` (no worktree is
registered in the repository), installs it -- not editable -- into a
virtualenv of its own, and returns a ``deployment.Release`` whose commands
run the old code.  The venv is cached per commit under
``$XDG_CACHE_HOME/ironic-lite-upgrade/<commit>`` (``~/.cache`` when unset),
so only the first run pays for the install (about a minute).

Dependencies are installed at the versions of the interpreter running the
tests (``pip freeze`` of the new release's venv as constraints): the old
and new code are compared on the same libraries, and the install needs no
resolver work.
"""

import json
import os
import shutil
import subprocess
import sys

import pytest

from tests.functional import procs
from tests import timeouts
from tests.upgrade import deployment

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
RELEASES_FILE = os.path.join(REPO_ROOT, 'releases', 'releases.json')
# The console scripts a complete old install has.
COMMANDS = ('ironic-api', 'ironic-conductor', 'ironic-dbsync',
            'ironic-status')
COMPLETE_MARKER = '.complete'
# Lines of the build log a failure shows (the whole log stays there).
LOG_TAIL = 40


def release_commit(name):
    """The commit a release was cut at, from releases/releases.json."""
    with open(RELEASES_FILE) as f:
        data = json.load(f)
    try:
        return data['releases'][name]['commit']
    except KeyError:
        pytest.fail('release %r is not recorded in %s (known: %s)'
                    % (name, RELEASES_FILE,
                       ', '.join(sorted(data.get('releases', {})))))


def cache_root():
    return procs.cache_dir('ironic-lite-upgrade')


def _git(*args):
    return subprocess.run(['git', '-C', REPO_ROOT] + list(args),
                          capture_output=True, text=True)


def _check_commit(name, commit):
    """Fail loudly (never skip) when the commit is not in this clone."""
    found = _git('cat-file', '-e', '%s^{commit}' % commit)
    if found.returncode == 0:
        return
    shallow = _git('rev-parse', '--is-shallow-repository').stdout.strip()
    hint = ('This clone is shallow: run "git fetch --unshallow" (or clone '
            'without --depth) so that the history holds release %s.'
            % name if shallow == 'true' else
            'Fetch the full history of main ("git fetch --unshallow" for a '
            'shallow clone, "git fetch origin main" otherwise).')
    pytest.fail('The upgrade tests build release %s from commit %s '
                '(releases/releases.json), which is not in the repository '
                'at %s. %s\n%s' % (name, commit, REPO_ROOT, hint,
                                   found.stderr.strip()), pytrace=False)


def _complete(venv, commit):
    marker = os.path.join(venv, COMPLETE_MARKER)
    if not os.path.exists(marker):
        return False
    with open(marker) as f:
        if f.read().strip() != commit:
            return False
    return all(os.access(os.path.join(venv, 'bin', c), os.X_OK)
               for c in COMMANDS)


def _run(args, log, **kwargs):
    log.write('$ %s\n' % ' '.join(args))
    log.flush()
    result = subprocess.run(args, stdout=log, stderr=subprocess.STDOUT,
                            timeout=timeouts.INSTALL_HANG, **kwargs)
    if result.returncode != 0:
        raise RuntimeError('%s exited %d' % (' '.join(args),
                                             result.returncode))


def _is_ironic_lite(line):
    name = line.split('@', 1)[0].split('==', 1)[0].strip()
    return name.lower().replace('_', '-') == 'ironic-lite'


def _constraints(log):
    """``pip freeze`` of the running venv, without ironic-lite itself.

    ``--exclude-editable`` is not enough: tox 4 installs the project as an
    editable *wheel*, which pip freeze lists as ``ironic-lite @ file://...``
    -- as a constraint it would forbid installing the old release.
    """
    frozen = subprocess.run([sys.executable, '-m', 'pip', 'freeze',
                             '--exclude-editable'], capture_output=True,
                            text=True, check=True)
    log.write(frozen.stderr)
    return ''.join(line + '\n' for line in frozen.stdout.splitlines()
                   if line.strip() and not _is_ironic_lite(line))


def _build(commit, root, venv):
    """The release's code at ``commit``, installed into ``venv``.  The
    output goes to build.log and is shown only when the build fails; pip
    runs with -qq: errors alone, without the warnings a machine's pip
    configuration can print for every package."""
    src = os.path.join(root, 'src')
    log_path = os.path.join(root, 'build.log')
    for path in (src, venv):
        shutil.rmtree(path, ignore_errors=True)
    os.makedirs(src)
    with open(log_path, 'w') as log:
        try:
            archive = subprocess.Popen(
                ['git', '-C', REPO_ROOT, 'archive', '--format=tar', commit],
                stdout=subprocess.PIPE, stderr=log)
            _run(['tar', '-x', '-C', src], log, stdin=archive.stdout)
            archive.stdout.close()
            if archive.wait() != 0:
                raise RuntimeError('git archive %s failed' % commit)
            _run([sys.executable, '-m', 'venv', venv], log)
            constraints = os.path.join(root, 'constraints.txt')
            with open(constraints, 'w') as out:
                out.write(_constraints(log))
            _run([os.path.join(venv, 'bin', 'python'), '-m', 'pip',
                  'install', '-qq', '--disable-pip-version-check',
                  '--no-input', '-c', constraints, src], log)
        except (RuntimeError, OSError, subprocess.SubprocessError) as err:
            with open(log_path) as f:
                tail = f.read().splitlines()[-LOG_TAIL:]
            pytest.fail('Installing the old release from %s into %s failed: '
                        '%s (log: %s)\n%s' % (commit, venv, err, log_path,
                                              '\n'.join(tail)),
                        pytrace=False)
    with open(os.path.join(venv, COMPLETE_MARKER), 'w') as f:
        f.write(commit + '\n')


def install(name):
    """A ``deployment.Release`` for release ``name`` (built once, cached)."""
    commit = release_commit(name)
    root = os.path.join(cache_root(), commit)
    venv = os.path.join(root, 'venv')
    if not _complete(venv, commit):
        _check_commit(name, commit)
        os.makedirs(root, exist_ok=True)
        with procs.file_lock(os.path.join(root, '.lock')):
            if not _complete(venv, commit):
                _build(commit, root, venv)
    release = deployment.Release(name, os.path.join(venv, 'bin'))
    release.commit = commit
    return release


def new_release():
    """The working tree's code: the venv running these tests."""
    from ironic_lite import version
    release = deployment.Release(version.RELEASE, procs.BIN)
    release.commit = 'working tree'
    return release
