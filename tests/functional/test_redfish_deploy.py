"""A deploy of a redfish node through virtual media, completed by its
agent: the ``ramdisk`` deploy interface with the ``redfish-virtual-media``
boot interface, against sushy-tools' emulator, through the embedded
service.  The test plays the agent (lookup by the MAC address inspection
found, heartbeat with the token), as tests/functional/test_agent_deploy.py
does for fake-hardware.  And the boot mode and BIOS settings of a redfish
node through the REST API (read at verification, changed through the
BMC).
"""

from tests import agent
from tests.functional import procs
from tests.functional.test_redfish import api  # noqa: F401 (fixture)
from tests.functional.test_redfish import emulator  # noqa: F401 (fixture)
from tests.functional.test_redfish import image_url  # noqa: F401 (fixture)
from tests.functional import test_redfish as rf
from tests import redfish_emulator as emulator_mod
from tests import timeouts


def _provision(api, uuid, target, reached):  # noqa: F811 (fixture name)
    status, body = rf.put_action(
        api, '/v1/nodes/%s/states/provision' % uuid, {'target': target})
    assert status == 202, body
    return rf.wait_node(api, uuid, reached)


def test_virtual_media_deploy_completed_by_the_agent(
        api, emulator, image_url):  # noqa: F811
    node = rf.enroll(api, dict(emulator_mod.driver_info(emulator),
                               deploy_iso=image_url))
    uuid = node['uuid']
    assert node['deploy_interface'] == 'ramdisk'
    status, valid = api('GET', '/v1/nodes/%s/validate' % uuid)
    assert valid['deploy'] == {'result': True}, valid['deploy']
    assert rf.manage(api, uuid)['provision_state'] == 'manageable'
    node = _provision(api, uuid, 'inspect',
                      lambda n: n['provision_state'] != 'inspecting')
    assert node['provision_state'] == 'manageable', node['last_error']
    node = _provision(api, uuid, 'provide',
                      lambda n: n['target_provision_state'] is None)
    assert node['provision_state'] == 'available', node['last_error']

    node = _provision(api, uuid, 'active',
                      lambda n: n['provision_state'] != 'deploying')
    assert node['provision_state'] == 'wait call-back', node['last_error']
    assert node['power_state'] == 'power on'
    # The deploy ISO is in the virtual CD, the next boot is from it.
    status, device = api('GET', '/v1/nodes/%s/management/boot_device' % uuid)
    assert status == 200
    assert device['boot_device'] == 'cdrom'

    # The agent, booted from the ISO: no credentials.
    base = api.service.base
    resp = agent.lookup(base, {'addresses': emulator_mod.NIC_MAC})
    assert resp.status_code == 200, resp.text
    token = resp.json()['config']['agent_token']
    assert token and token != '******'
    resp = agent.heartbeat(base, uuid, {
        'callback_url': 'http://192.0.2.9:9999', 'agent_token': token,
        'agent_version': '10.0.0'})
    assert resp.status_code == 202, resp.text
    node = rf.wait_node(api, uuid,
                        lambda n: n['provision_state'] != 'wait call-back'
                        and n['target_provision_state'] is None)
    assert node['provision_state'] == 'active', node['last_error']
    # The instance boots from its disk, always.
    status, device = api('GET', '/v1/nodes/%s/management/boot_device' % uuid)
    assert device['boot_device'] == 'disk', device
    assert node['driver_internal_info'].get('agent_secret_token') in (
        None, '******')

    node = _provision(api, uuid, 'deleted',
                      lambda n: n['target_provision_state'] is None)
    assert node['provision_state'] == 'available', node['last_error']
    assert node['power_state'] == 'power off'
    status, _body = api('DELETE', '/v1/nodes/%s' % uuid)
    assert status == 204
    procs.wait_for(lambda: api('GET', '/v1/nodes/%s' % uuid)[0] == 404,
                   timeout=timeouts.HANG)


def test_boot_mode_and_bios_through_the_api(api, emulator):  # noqa: F811
    node = rf.enroll(api, emulator_mod.driver_info(emulator))
    uuid = node['uuid']
    node = rf.manage(api, uuid)
    assert node['provision_state'] == 'manageable', node['last_error']
    # Verification read the BMC's boot mode and BIOS settings.
    assert node['boot_mode'] == 'uefi'
    status, bios = api('GET', '/v1/nodes/%s/bios' % uuid)
    assert status == 200
    assert {s['name']: s['value'] for s in bios['bios']} == {
        'BootMode': 'Uefi', 'ProcTurboMode': 'Enabled'}

    # To legacy BIOS and back, through the BMC.
    for mode in ('bios', 'uefi'):
        status, body = rf.put_action(
            api, '/v1/nodes/%s/states/boot_mode' % uuid, {'target': mode})
        assert status == 202, body
        node = rf.wait_node(api, uuid, lambda n, m=mode: n['boot_mode'] == m
                            or n['last_error'])
        assert node['boot_mode'] == mode, node['last_error']
    status, _body = api('DELETE', '/v1/nodes/%s' % uuid)
    assert status == 204
