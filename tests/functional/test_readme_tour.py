"""The README's five-minute tour, run as written against a real
``ironic-lite``, as ``tests/upgrade/test_upgrade_guide.py`` runs the
upgrade guide.

The tour's literal blocks, in order, are one bash script run with ``set
-e``: a command fails the test by its exit code.  A ``$ ``-prompted line
is a command whose output the README shows: its standard output must be
that (UUIDs aside, which differ on every run) and it must print nothing
on standard error.  The line the README runs "in the service's terminal"
restarts the service with the environment it sets.

Substitutions, the test's own places only: the service's port for 6385
and the emulator's for 8000 (both free ports here); the script runs in a
directory whose ``.venv`` is the venv running the tests, with the
embedded default's state under its ``HOME``.  The service is named
``vm``, the machine the README's output was taken on.
"""

import os
import re
import subprocess
import sys

import pytest

from tests import conftest as top_conftest
from tests.functional import procs
from tests import redfish_emulator
from tests import timeouts

REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
README = os.path.join(REPO, 'README.rst')
TOUR = 'A five-minute tour with the ``baremetal`` CLI'
SERVICE_TERMINAL = "# in the service's terminal"
UUID = re.compile(r'[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-'
                  r'[0-9a-f]{12}')

# Runs the service in the background of the script; "service_restart
# VAR=value ..." stops it (SIGTERM) and starts it again with VAR set.
HARNESS = r'''
set -e
service_start() {
    env "$@" "$BIN/ironic-lite" --config-file "$CONF" >>"$SERVICE_LOG" 2>&1 &
    SERVICE=$!
    for _ in $(seq 1200); do
        curl -sf -o /dev/null "$OS_ENDPOINT_/v1" && return 0
        kill -0 "$SERVICE" || return 1
        sleep 0.25
    done
    return 1
}
service_restart() {
    kill -TERM "$SERVICE"; wait "$SERVICE" || true
    service_start "$@"
}
trap 'kill -TERM $(jobs -p) 2>/dev/null; wait' EXIT
service_start
'''


def tour_blocks(text):
    """The ``::`` blocks of the tour section, each a list of lines."""
    start = text.index('\n%s\n' % TOUR)
    end = text.index('\n=====', text.index('\n====', start + 1) + 1)
    lines = text[start:end].splitlines()
    blocks, i = [], 0
    while i < len(lines):
        if lines[i].rstrip().endswith('::'):
            i += 1
            block = []
            while i < len(lines) and (not lines[i].strip()
                                      or lines[i].startswith('    ')):
                block.append(lines[i][4:])
                i += 1
            blocks.append(block)
        else:
            i += 1
    return blocks


def steps(blocks):
    """[(command, expected output or None)]: a ``$ `` line shows its
    output, up to the next blank or prompted line; a backslash goes on."""
    found = []
    for block in blocks:
        expected, joining = None, False
        for line in block:
            if joining:
                found[-1][0] += '\n' + line
            elif line.startswith('$ '):
                expected = []
                found.append([line[2:], expected])
            elif not line.strip():
                expected = None
            elif expected is not None:
                expected.append(line)
            else:
                found.append([line, None])
            joining = line.endswith('\\')
    return [(cmd, None if out is None else '\n'.join(out))
            for cmd, out in found]


def script(tour_steps, ports):
    """The bash script of the tour; the output of step N goes to N.out
    and N.err."""
    lines = [HARNESS]
    for number, (cmd, expected) in enumerate(tour_steps):
        for old, new in ports.items():
            cmd = cmd.replace(old, new)
        if cmd.endswith(SERVICE_TERMINAL):
            words = cmd[:-len(SERVICE_TERMINAL)].replace('\\\n',
                                                         ' ').split()
            assert words[-1] == './tools/run-service.sh', cmd
            lines.append('service_restart %s' % ' '.join(words[:-1]))
        elif expected is not None:
            lines.append('{ %s\n} >%d.out 2>%d.err' % (cmd, number, number))
        else:
            lines.append(cmd)
    return '\n'.join(lines) + '\n'


def _normal(text):
    return UUID.sub('<uuid>', text.rstrip())


def test_the_tour_is_read_as_a_script():
    with open(README) as f:
        found = steps(tour_blocks(f.read()))
    commands = [cmd for cmd, _ in found]
    assert commands[0] == '.venv/bin/pip install -q python-ironicclient'
    assert 'baremetal node deploy node-0 --wait' in commands
    shown = [cmd for cmd, out in found if out is not None]
    assert 'baremetal node validate node-0' in shown
    assert any(cmd.endswith(SERVICE_TERMINAL) for cmd in commands)


@pytest.mark.long(210)
def test_the_readme_tour_runs_as_written(tmp_path):
    if redfish_emulator.executable() is None:
        top_conftest.unavailable('the tour runs sushy-tools\' emulator: '
                                 'pip install sushy-tools')
    with open(README) as f:
        tour = steps(tour_blocks(f.read()))
    port = procs.free_port()
    ports = {'6385': str(port), '8000': str(procs.free_port())}
    os.symlink(sys.prefix, tmp_path / '.venv')
    os.symlink(os.path.join(REPO, 'tools'), tmp_path / 'tools')
    conf = procs.write_config(str(tmp_path / 'ironic.conf'), {
        'DEFAULT': {'host': 'vm', 'state_path': str(tmp_path / 'state')},
        'api': {'host_ip': '127.0.0.1', 'port': port},
    })
    env = {k: v for k, v in os.environ.items() if not k.startswith('OS_')}
    env.update(HOME=str(tmp_path), CONF=conf, BIN=procs.BIN,
               SERVICE_LOG=str(tmp_path / 'service.log'),
               OS_ENDPOINT_='http://127.0.0.1:%d' % port,
               PYTHONPATH=REPO)
    (tmp_path / 'tour.sh').write_text(script(tour, ports))
    # A hang's bound per ten commands: the tour is a few dozen CLI runs
    # and two service starts, which a busy machine may make take longer
    # than one HANG together (each of them is far from a hang).
    result = subprocess.run(['bash', 'tour.sh'], cwd=tmp_path, env=env,
                            capture_output=True, text=True,
                            timeout=timeouts.HANG * (1 + len(tour) // 10))
    log = (tmp_path / 'service.log').read_text()
    assert result.returncode == 0, (result.stdout, result.stderr, log[-3000:])
    for number, (cmd, expected) in enumerate(tour):
        if expected is None:
            continue
        out = (tmp_path / ('%d.out' % number)).read_text()
        err = (tmp_path / ('%d.err' % number)).read_text()
        assert (_normal(out), err) == (_normal(expected), ''), cmd
