"""The scripts of tools/ that the README's commands run."""

import os
import shutil
import signal
import subprocess
import sys

import pytest

from tests.functional import procs
from tests import timeouts

REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))

# A stand-in for "python3 -m venv DIR" and "DIR/bin/python -m pip ...":
# the script under test only needs the venv's python to exist.
# Each pip command line is appended to pip-calls next to the clone.
FAKE_PYTHON = '''#!/bin/sh
if [ "$1 $2" = "-m venv" ]; then
    mkdir -p "$3/bin"
    cp "$0" "$3/bin/python"
else
    echo "pip noise" >&2
    echo "$*" >>"$(dirname "$0")/../../../pip-calls"
fi
exit 0
'''


def _checkout(tmp_path):
    root = tmp_path / 'clone'
    (root / 'tools').mkdir(parents=True)
    shutil.copy(os.path.join(REPO, 'tools', 'ensure-venv.sh'),
                root / 'tools')
    (root / 'setup.cfg').write_text('[metadata]\n')
    python = tmp_path / 'python3'
    python.write_text(FAKE_PYTHON)
    python.chmod(0o755)
    return root, python


def _ensure_venv(root, python, extras=''):
    return subprocess.run(['bash', '-c', '. tools/ensure-venv.sh'],
                          cwd=root, capture_output=True, text=True,
                          env=dict(os.environ, PYTHON=str(python),
                                   VENV_EXTRAS=extras))


def _installed(tmp_path):
    """What the fake pip was asked to install editable, in order."""
    calls = (tmp_path / 'pip-calls').read_text().splitlines()
    return [call.split(' -e ', 1)[1] for call in calls if ' -e ' in call]


def test_ensure_venv_replaces_a_tox_redirect_file(tmp_path):
    root, python = _checkout(tmp_path)
    (root / '.venv').write_text('.tox/upgrade\n')
    result = _ensure_venv(root, python)
    assert result.returncode == 0, result.stderr
    assert (root / '.venv').is_dir()
    assert (root / '.venv' / 'bin' / 'python').exists()
    assert 'redirect file (to .tox/upgrade)' in result.stderr


def test_ensure_venv_is_quiet_and_logs_pip(tmp_path):
    root, python = _checkout(tmp_path)
    result = _ensure_venv(root, python)
    assert result.returncode == 0, result.stderr
    assert 'pip noise' not in result.stderr + result.stdout
    assert 'pip noise' in (root / '.venv' / 'install.log').read_text()
    assert '.venv ready in' in result.stderr
    # Up to date: nothing to do, nothing printed.
    again = _ensure_venv(root, python)
    assert again.returncode == 0 and again.stderr == ''


def test_tox_writes_no_venv_redirect():
    import configparser
    tox = configparser.ConfigParser()
    tox.read(os.path.join(REPO, 'tox.ini'))
    assert tox.getboolean('tox', 'venv_redirect') is False


def test_the_service_gets_its_runtime_and_the_tests_the_rest(tmp_path):
    root, python = _checkout(tmp_path)
    assert _ensure_venv(root, python).returncode == 0
    assert _installed(tmp_path) == ['.']
    # The test command adds the test extras to the service's venv...
    result = _ensure_venv(root, python, extras='test')
    assert result.returncode == 0, result.stderr
    assert _installed(tmp_path) == ['.', '.[test]']
    # ... and a venv set up for the tests serves the service as it is.
    again = _ensure_venv(root, python)
    assert again.returncode == 0 and again.stderr == ''
    assert _installed(tmp_path) == ['.', '.[test]']


# -- tools/bmc_emulator.py ----------------------------------------------------

def _children(pid):
    with open('/proc/%d/task/%d/children' % (pid, pid)) as f:
        return [int(child) for child in f.read().split()]


def _blocked_signals(pid):
    with open('/proc/%d/status' % pid) as f:
        mask = next(int(line.split()[1], 16) for line in f
                    if line.startswith('SigBlk:'))
    return {sig for sig in (signal.SIGINT, signal.SIGTERM)
            if mask & (1 << (sig - 1))}


def _alive(pid):
    try:
        with open('/proc/%d/status' % pid) as f:
            return 'zombie' not in f.read()
    except FileNotFoundError:
        return False


@pytest.mark.parametrize('signum', [signal.SIGTERM, signal.SIGINT])
def test_the_bmc_emulator_stops_at_once_with_its_server(signum):
    """Ctrl-C (SIGINT) or SIGTERM: the tool stops its sushy-emulator and
    exits.  Its server must not inherit a blocked SIGTERM: it would
    ignore the stop and be killed only after a hang's wait."""
    from tests import conftest as top_conftest
    from tests import redfish_emulator
    if redfish_emulator.executable() is None:
        top_conftest.unavailable('needs sushy-tools (pip install '
                                 'sushy-tools)')
    proc = subprocess.Popen(
        [sys.executable, '-m', 'tools.bmc_emulator', '--port',
         str(procs.free_port())], cwd=REPO, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True)
    server = None
    try:
        first = proc.stdout.readline()
        assert first.startswith('Redfish BMC at '), (
            first, proc.stderr.read() if proc.poll() is not None else '')
        server, = _children(proc.pid)
        # Not blocked for good (the server may block them for a moment
        # while it starts: seen once in a few runs; a mask inherited for
        # good would stay, and fail here after a hang's wait).
        procs.wait_for(lambda: _blocked_signals(server) == set(),
                       what="the emulator's server with no blocked "
                            'SIGINT/SIGTERM')
        proc.send_signal(signum)
        # The whole stop, the server's included, well within the hang's
        # wait the server's stop would be killed after.
        assert proc.wait(timeouts.HANG / 2) == 0
        assert not _alive(server)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if server is not None and _alive(server):
            os.kill(server, signal.SIGKILL)   # not left behind on failure
    # No deprecation warning (eventlet's, through futurist) on its way.
    assert 'Warning' not in proc.stderr.read()
