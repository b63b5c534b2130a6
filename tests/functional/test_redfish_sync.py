"""The periodic power state sync with redfish nodes (Ironic's default
``force_power_state_during_sync``): a node switched off behind the
conductor's back is switched on again; a node whose BMC stops answering
goes to maintenance with the fault "power failure" after
``[conductor]power_state_sync_max_retries`` failed reads, and no worker
waits on it.
"""

import base64
import json
import urllib.request

import pytest

from tests.functional import procs
from tests.functional import test_redfish as rf
from tests import redfish_emulator as emulator_mod
from tests import timeouts


@pytest.fixture(scope='module')
def emulator(tmp_path_factory):
    emulator = emulator_mod.start(str(tmp_path_factory.mktemp('emulator')))
    yield emulator
    emulator_mod.stop(emulator)


@pytest.fixture(scope='module')
def api(tmp_path_factory):
    recorder = rf.start_service(str(tmp_path_factory.mktemp('lite')),
                                sync_power_state_interval=1)
    yield recorder
    rf.stop_service(recorder)


def _bmc(emulator, method, path, body=None):
    """A request straight to the emulator (the out-of-band change)."""
    auth = base64.b64encode(('%s:%s' % (emulator_mod.USERNAME,
                                        emulator_mod.PASSWORD)).encode())
    req = urllib.request.Request(
        emulator.address + path, method=method,
        data=json.dumps(body).encode() if body is not None else None,
        headers={'Authorization': 'Basic ' + auth.decode(),
                 'Content-Type': 'application/json'})
    with urllib.request.urlopen(req, timeout=timeouts.HANG) as resp:
        raw = resp.read()
    return json.loads(raw) if raw else None


def test_out_of_band_power_off_is_undone(api, emulator):
    node = rf.enroll(api, emulator_mod.driver_info(emulator))
    uuid = node['uuid']
    assert rf.manage(api, uuid)['provision_state'] == 'manageable'
    assert rf.power(api, uuid, 'power on')['power_state'] == 'power on'
    system = '/redfish/v1/Systems/%s' % emulator_mod.SYSTEM_UUID
    _bmc(emulator, 'POST', system + '/Actions/ComputerSystem.Reset',
         {'ResetType': 'ForceOff'})
    procs.wait_for(lambda: _bmc(emulator, 'GET', system)['PowerState']
                   == 'Off', timeout=timeouts.HANG)
    # The sync reads "power off" and sets the recorded "power on" back.
    procs.wait_for(lambda: _bmc(emulator, 'GET', system)['PowerState']
                   == 'On', timeout=timeouts.HANG)
    status, node = api('GET', '/v1/nodes/%s' % uuid)
    assert (node['power_state'], node['maintenance']) == ('power on', False)


def test_dead_bmc_goes_to_maintenance(api, emulator):
    node = rf.enroll(api, emulator_mod.driver_info(emulator))
    uuid = node['uuid']
    assert rf.manage(api, uuid)['provision_state'] == 'manageable'
    dead = 'http://127.0.0.1:%d' % procs.free_port()
    status, _body = api('PATCH', '/v1/nodes/%s' % uuid, [
        {'op': 'replace', 'path': '/driver_info/redfish_address',
         'value': dead}])
    assert status == 200
    node = rf.wait_node(api, uuid, lambda n: n['maintenance'])
    assert node['fault'] == 'power failure'
    assert node['power_state'] is None
    assert 'max retries exceeded' in node['maintenance_reason']
    assert 'unable to connect to the BMC at %s' % dead in (
        node['maintenance_reason'])
    # The conductor still serves: a power action on another node runs.
    other = rf.enroll(api, emulator_mod.driver_info(emulator))
    assert rf.manage(api, other['uuid'])['provision_state'] == 'manageable'
