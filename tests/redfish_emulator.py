"""sushy-tools' Redfish emulator with its fake systems driver, for tests.

``start(directory)`` runs ``sushy-emulator`` on a free port of 127.0.0.1
with a generated config file (no libvirt: ``SUSHY_EMULATOR_FAKE_DRIVER``),
its state in ``directory``, and HTTP basic authentication (an htpasswd
file of bcrypt hashes); ``stop`` kills it.  Without sushy-tools the test
is skipped, or fails when CI=true (``tests.conftest.unavailable``).

The fake driver of sushy-tools 2.x has no processors, memory or BIOS: the
config file (Python, executed by the emulator) gives its systems two x86-64
CPUs, 4 GiB of memory, a few BIOS attributes and a BIOS version, and
makes a power change take one second instead of up to eleven.
"""

import base64
import os
import shutil
import subprocess
import sys
import types

from tests import conftest as top
from tests import timeouts
from tests.functional import procs

SYSTEM_UUID = '27946b59-9e44-4fa7-8e91-f3527a1ef094'
NIC_MAC = '00:5c:52:31:3a:9c'
BIOS_VERSION = 'U30 v2.54'
USERNAME = 'bmc-admin'
PASSWORD = 'bmc-s3cret-Pa55'

_CONFIG = '''\
import types

import sushy_tools.emulator.resources.systems.fakedriver as fakedriver

SUSHY_EMULATOR_FAKE_DRIVER = True
SUSHY_EMULATOR_STATE_DIR = {state!r}
SUSHY_EMULATOR_AUTH_FILE = {auth!r}
SUSHY_EMULATOR_FAKE_SYSTEMS = [{{
    'uuid': {uuid!r}, 'name': 'fake', 'power_state': 'Off',
    'external_notifier': False,
    'nics': [{{'mac': {mac!r}, 'ip': '172.22.0.100'}}],
}}]

_BIOS = {{'BootMode': 'Uefi', 'ProcTurboMode': 'Enabled'}}


def _get_bios(self, identity):
    return dict(self._get(identity).get('bios') or _BIOS)


def _set_bios(self, identity, attributes):
    self._update(identity, bios=dict(_get_bios(self, identity), **attributes))


def _reset_bios(self, identity):
    self._update(identity, bios=dict(_BIOS))


fakedriver.FakeDriver.get_total_memory = lambda self, identity: 4
fakedriver.FakeDriver.get_total_cpus = lambda self, identity: 2
fakedriver.FakeDriver.get_processors = lambda self, identity: [
    {{'id': 'CPU%d' % n, 'socket': 'CPU %d' % n, 'model': 'Emulated',
      'vendor': 'Sushy', 'cores': 1, 'threads': 1}} for n in range(2)]
fakedriver.FakeDriver.get_bios = _get_bios
# The system's BiosVersion (a firmware component, API 1.86).
fakedriver.FakeDriver.get_versions = lambda self, identity: {{
    'BiosVersion': {bios_version!r}}}
fakedriver.FakeDriver.set_bios = _set_bios
fakedriver.FakeDriver.reset_bios = _reset_bios
# Power changes apply after one second (the driver draws 1 to 11).
fakedriver.random = types.SimpleNamespace(randint=lambda low, high: 1)
'''


def executable():
    """The sushy-emulator beside this Python, else on PATH, else None."""
    beside = os.path.join(os.path.dirname(sys.executable), 'sushy-emulator')
    return beside if os.path.exists(beside) else shutil.which(
        'sushy-emulator')


def _htpasswd(path):
    import bcrypt
    digest = bcrypt.hashpw(PASSWORD.encode(), bcrypt.gensalt(4)).decode()
    with open(path, 'w') as f:
        f.write('%s:%s\n' % (USERNAME, digest))
    return path


def start(directory, port=None):
    """A running emulator: ``.address`` (its URL), ``.proc``, ``.log``;
    on ``port`` (default: a free one) of 127.0.0.1."""
    exe = executable()
    if exe is None:
        top.unavailable('needs sushy-tools (pip install sushy-tools)')
    os.makedirs(directory, exist_ok=True)
    config = os.path.join(directory, 'emulator.conf')
    with open(config, 'w') as f:
        f.write(_CONFIG.format(
            state=os.path.join(directory, 'state'),
            auth=_htpasswd(os.path.join(directory, 'htpasswd')),
            uuid=SYSTEM_UUID, mac=NIC_MAC, bios_version=BIOS_VERSION))
    port = port or procs.free_port()
    log_path = os.path.join(directory, 'emulator.log')
    log = open(log_path, 'ab')
    proc = subprocess.Popen(
        [exe, '--config', config, '-i', '127.0.0.1', '-p', str(port)],
        stdout=log, stderr=subprocess.STDOUT)
    emulator = types.SimpleNamespace(
        proc=proc, address='http://127.0.0.1:%d' % port, log_path=log_path,
        directory=directory, _log=log)
    procs.wait_for(lambda: proc.poll() is not None
                   or top.reachable('127.0.0.1', port, timeout=1),
                   timeout=timeouts.HANG)
    if proc.poll() is not None:
        stop(emulator)
        raise AssertionError('sushy-emulator exited:\n%s' % _read(log_path))
    return emulator


def _read(path):
    with open(path, 'rb') as f:
        return f.read().decode(errors='replace')


def stop(emulator):
    """Kill the emulator and remove its state."""
    if emulator.proc.poll() is None:
        emulator.proc.terminate()
        try:
            emulator.proc.wait(timeouts.HANG)
        except subprocess.TimeoutExpired:
            emulator.proc.kill()
            emulator.proc.wait()
    emulator._log.close()
    shutil.rmtree(os.path.join(emulator.directory, 'state'),
                  ignore_errors=True)


def driver_info(emulator, **overrides):
    """A redfish node's driver_info for the emulator's system."""
    info = {'redfish_address': emulator.address,
            'redfish_system_id': '/redfish/v1/Systems/%s' % SYSTEM_UUID,
            'redfish_username': USERNAME, 'redfish_password': PASSWORD,
            'redfish_auth_type': 'basic'}
    info.update(overrides)
    return info


def power_state(emulator):
    """The emulator's own PowerState of its system ('On', 'Off'), read
    from its Redfish API: what the BMC says, not what a service recorded."""
    token = base64.b64encode(('%s:%s' % (USERNAME, PASSWORD)).encode())
    status, _headers, body = procs.http(
        'GET', '%s/redfish/v1/Systems/%s' % (emulator.address, SYSTEM_UUID),
        version=None, headers={'Authorization': 'Basic ' + token.decode()})
    assert status == 200, body
    return body['PowerState']
