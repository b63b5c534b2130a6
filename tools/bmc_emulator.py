"""A Redfish BMC to try the ``redfish`` hardware type with: sushy-tools'
emulator of one server, as the tests run it (``tests/redfish_emulator.py``:
the fake systems driver, no libvirt, HTTP basic authentication).

    .venv/bin/python -m tools.bmc_emulator [--port 8000]

Needs sushy-tools (the test command installs it; else ``.venv/bin/pip
install sushy-tools``).  Prints the ``baremetal node create`` line of its
server, then serves until Ctrl-C; its state goes with it.
"""

import argparse
import os
import shlex
import signal
import sys
import tempfile

if __package__ in (None, ''):  # run as a file: tools/bmc_emulator.py
    sys.path.insert(0, os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))

from tests import redfish_emulator  # noqa: E402


def create_command(emulator, name='bmc-0'):
    """The CLI line that enrolls the emulator's server as a node."""
    words = ['baremetal', 'node', 'create', '--driver', 'redfish',
             '--name', name]
    for key, value in sorted(redfish_emulator.driver_info(emulator).items()):
        words += ['--driver-info', '%s=%s' % (key, value)]
    return ' '.join(shlex.quote(w) for w in words)


class _Stop(Exception):
    """SIGINT or SIGTERM arrived."""


def _stop(signum, frame):
    raise _Stop()


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog='python -m tools.bmc_emulator', description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--port', type=int, default=8000)
    args = parser.parse_args(argv)
    if redfish_emulator.executable() is None:
        sys.exit('sushy-emulator not found: .venv/bin/pip install '
                 'sushy-tools')
    # Handlers, not a blocked signal mask: a mask is inherited by the
    # emulator's process, which would then ignore the SIGTERM that stops
    # it (handlers are not: exec resets them).  A mask this tool itself
    # inherited (from a process that blocks them, as a test runner's
    # worker may) is lifted for the same reason.
    signal.pthread_sigmask(signal.SIG_UNBLOCK,
                           {signal.SIGINT, signal.SIGTERM})
    signal.signal(signal.SIGINT, _stop)
    signal.signal(signal.SIGTERM, _stop)
    emulator = None
    with tempfile.TemporaryDirectory(prefix='bmc-emulator-') as directory:
        try:
            emulator = redfish_emulator.start(directory, port=args.port)
            print('Redfish BMC at %s (server %s); enroll it with:\n\n  %s\n'
                  % (emulator.address, redfish_emulator.SYSTEM_UUID,
                     create_command(emulator)), flush=True)
            while True:
                signal.pause()
        except _Stop:
            pass
        finally:
            # A second Ctrl-C does not interrupt the stop.
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            if emulator is not None:
                redfish_emulator.stop(emulator)


if __name__ == '__main__':
    main()
