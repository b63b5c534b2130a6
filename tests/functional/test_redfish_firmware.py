"""Firmware components (API 1.86, 1.114) and health (1.109) of a redfish
node against sushy-tools' emulator, through the REST API: the
components the conductor stored when it verified the node (the system's
BiosVersion, the manager's FirmwareVersion and Model), and the system's
Status.Health read by the power state sync.
"""

from openstack import connection
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
    recorder = rf.start_service(
        str(tmp_path_factory.mktemp('lite')),
        default={'enabled_firmware_interfaces': 'redfish,no-firmware'},
        sync_power_state_interval=1)
    yield recorder
    rf.stop_service(recorder)


def test_firmware_components_and_health(api, emulator):
    node = rf.enroll(api, emulator_mod.driver_info(emulator))
    uuid = node['uuid']
    # The redfish type's first enabled firmware interface.
    assert node['firmware_interface'] == 'redfish'
    assert node['health'] is None
    assert rf.manage(api, uuid)['provision_state'] == 'manageable'
    status, body = api('GET', '/v1/nodes/%s/firmware' % uuid)
    assert status == 200, body
    found = {c['component']: c for c in body['firmware']}
    assert sorted(found) == ['bios', 'bmc']
    bios, bmc = found['bios'], found['bmc']
    assert (bios['initial_version'], bios['current_version'],
            bios['last_version_flashed']) == (
        emulator_mod.BIOS_VERSION, emulator_mod.BIOS_VERSION, None)
    # sushy-tools' manager: FirmwareVersion 1.00, Model "Joo Janta 200".
    assert (bmc['current_version'], bmc['model']) == ('1.00',
                                                      'Joo Janta 200')
    # Before 1.114, no identity fields; before 1.86, no such path.
    status, headers, old = procs.api(api.service, 'GET',
                                     '/v1/nodes/%s/firmware' % uuid,
                                     version='1.86')
    assert status == 200
    assert set(old['firmware'][0]) == {
        'component', 'initial_version', 'current_version',
        'last_version_flashed', 'created_at', 'updated_at'}
    status, headers, _body = procs.api(api.service, 'GET',
                                       '/v1/nodes/%s/firmware' % uuid,
                                       version='1.85')
    assert status == 404
    # The power sync reads the system's health (the emulator's "OK").
    node = rf.wait_node(api, uuid, lambda n: n['health'] is not None)
    assert node['health'] == 'OK'
    procs.wait_for(lambda: any(
        e['event'] == "Node health status changed: health='OK' "
                      "(previously 'None')"
        for e in api('GET', '/v1/nodes/%s/history?detail=true'
                     % uuid)[1]['history']), timeout=timeouts.HANG,
        what='the health event')


def test_openstacksdk_calls(api, emulator):
    """openstacksdk's own functional test of 1.86 (test_list_firmware),
    as the SDK calls it, and the SDK's listing of a redfish node's
    components."""
    sdk = connection.Connection(auth_type='none',
                                auth={'endpoint': api.service.base})
    node = sdk.baremetal.create_node(driver='fake-hardware',
                                     firmware_interface='no-firmware')
    assert node.firmware_interface == 'no-firmware'
    assert sdk.baremetal.list_node_firmware(node) == {'firmware': []}
    redfish = rf.enroll(api, emulator_mod.driver_info(emulator))
    assert rf.manage(api, redfish['uuid'])['provision_state'] == (
        'manageable')
    listed = sdk.baremetal.list_node_firmware(redfish['uuid'])['firmware']
    assert {c['component'] for c in listed} == {'bios', 'bmc'}


def test_baremetal_cli(api, emulator, cli_env):
    """The unmodified ``baremetal`` CLI: firmware list, and a node that
    must stay on refusing a power off."""
    node = rf.enroll(api, emulator_mod.driver_info(emulator))
    uuid = node['uuid']
    assert rf.manage(api, uuid)['provision_state'] == 'manageable'
    listed = procs.baremetal(api.service, cli_env, 'node', 'firmware',
                             'list', uuid)
    assert listed and {c.get('component') for c in listed} == {
        'bios', 'bmc'}, listed
    procs.baremetal(api.service, cli_env, 'node', 'set', uuid,
                    '--disable-power-off', expect_json=False)
    shown = procs.baremetal(api.service, cli_env, 'node', 'show', uuid,
                            '--fields', 'disable_power_off')
    assert shown['disable_power_off'] is True
    err = procs.baremetal(api.service, cli_env, 'node', 'power', 'off',
                          uuid, expect_ok=False)
    assert 'Failed to set node power state to power off.' in err
