"""Install an old ironic-lite release, from this repository's history.

``install(name)`` installs the release with ``tools/install_release.py``
(the operator's tool: the commit recorded in ``releases/releases.json``,
exported with ``git archive``, installed into a virtualenv of its own) and
returns a ``deployment.Release`` whose commands run the old code.  The
venv is cached per commit under ``$XDG_CACHE_HOME/ironic-lite-upgrade/
<commit>`` (``~/.cache`` when unset), so only the first run pays for the
install (about a minute).

Dependencies are installed at the versions of the interpreter running the
tests (``pip freeze`` of the new release's venv as constraints): the old
and new code are compared on the same libraries, and the install needs no
resolver work.
"""

import os
import subprocess
import sys

import pytest

from tests.functional import procs
from tests import timeouts
from tests.upgrade import deployment
from tools import install_release


def release_commit(name):
    """The commit a release was cut at, from releases/releases.json."""
    try:
        return install_release.release_commit(name)
    except install_release.InstallError as err:
        pytest.fail(str(err))


def cache_root():
    return procs.cache_dir('ironic-lite-upgrade')


def _is_ironic_lite(line):
    name = line.split('@', 1)[0].split('==', 1)[0].strip()
    return name.lower().replace('_', '-') == 'ironic-lite'


def _constraints():
    """``pip freeze`` of the running venv, without ironic-lite itself.

    ``--exclude-editable`` is not enough: tox 4 installs the project as an
    editable *wheel*, which pip freeze lists as ``ironic-lite @ file://...``
    -- as a constraint it would forbid installing the old release.
    """
    frozen = subprocess.run([sys.executable, '-m', 'pip', 'freeze',
                             '--exclude-editable'], capture_output=True,
                            text=True, check=True)
    return ''.join(line + '\n' for line in frozen.stdout.splitlines()
                   if line.strip() and not _is_ironic_lite(line))


def install(name):
    """A ``deployment.Release`` for release ``name`` (built once, cached)."""
    commit = release_commit(name)
    root = os.path.join(cache_root(), commit)
    venv = os.path.join(root, 'venv')
    if not install_release.is_complete(venv, commit):
        os.makedirs(root, exist_ok=True)
        with procs.file_lock(os.path.join(root, '.lock')):
            if not install_release.is_complete(venv, commit):
                constraints = os.path.join(root, 'constraints.txt')
                with open(constraints, 'w') as out:
                    out.write(_constraints())
                try:
                    install_release.install(name, venv, constraints,
                                            timeout=timeouts.INSTALL_HANG)
                except install_release.InstallError as err:
                    pytest.fail(str(err), pytrace=False)
    release = deployment.Release(name, os.path.join(venv, 'bin'))
    release.commit = commit
    return release


def new_release():
    """The working tree's code: the venv running these tests."""
    from ironic_lite import version
    release = deployment.Release(version.RELEASE, procs.BIN)
    release.commit = 'working tree'
    return release
