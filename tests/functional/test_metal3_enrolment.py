"""Metal3's baremetal-operator (BMO) against ironic-lite: the requests it
makes for a ``redfish-virtualmedia://`` BareMetalHost through its
lifecycle, over plain HTTP, with the bodies and query strings its
gophercloud client sends (pkg/provisioner/ironic/ of the operator), at
the microversion it negotiates, against sushy-tools' emulator.

The operator requires 1.89 (its ``baseline``) and, the maximum being
1.110 or more, talks 1.110 (``ChooseMicroversion()``).  The story:
registration (version check, lookup by name and MAC, node create with
``firmware_interface`` and ``raid_interface=redfish``, ports, the
settings it patches), manage, inspection through the ``agent`` inspect
interface (the test plays the ramdisk's ``POST
/v1/continue_inspection``), the inventory, BIOS settings and firmware
components read back, preparing (manual cleaning with BIOS settings),
provide (cleaning), virtual media attach/get/detach (its "data image"),
a live-ISO deploy (the test plays the agent ironic-lite's ``ramdisk``
deploy waits for), servicing with the BIOS step it builds (not its
firmware update step: sushy-tools' emulator refuses a SimpleUpdate
without ``Targets``, and Ironic, as ironic-lite, sends none to a BMC of
one system), ``disable_power_off`` and power actions, undeploy, and the
forced delete of a host whose deploy waits (abort from ``wait
call-back``, 1.110).
"""

import pytest

from tests import agent
from tests.functional import procs
from tests.functional.test_redfish import emulator  # noqa: F401 (fixture)
from tests.functional.test_redfish import image_url  # noqa: F401 (fixture)
from tests.functional import test_redfish as rf
from tests import redfish_emulator as emulator_mod
from tests import timeouts

# ChooseMicroversion() when the maximum is 1.110 or more.
V = '1.110'
# ironicNodeName(): the BareMetalHost's namespace and name.
NAME = 'metal3~worker-0'
# The host's spec.bootMACAddress: the emulator's NIC.
MAC = emulator_mod.NIC_MAC
# The BareMetalHost's metadata.uid, the node's instance_uuid.
INSTANCE = 'a8e8a1b6-5d0c-4a55-9bd1-3f5f0d8f1c11'
NETWORK_DATA = {
    'links': [{'id': 'enp1s0', 'type': 'phy',
               'ethernet_mac_address': MAC}],
    'networks': [{'id': 'provisioning', 'type': 'ipv4', 'link': 'enp1s0',
                  'ip_address': '172.22.0.100', 'netmask': '255.255.255.0',
                  'network_id': ''}],
    'services': [],
}
INVENTORY = {
    'interfaces': [{'name': 'enp1s0', 'mac_address': MAC,
                    'ipv4_address': '172.22.0.100', 'has_carrier': True}],
    'boot': {'current_boot_mode': 'uefi', 'pxe_interface': MAC},
    'cpu': {'architecture': 'x86_64', 'count': 2, 'model_name': 'Emulated'},
    'memory': {'physical_mb': 4096, 'total': 4294967296},
    'disks': [{'name': '/dev/sda', 'size': 21474836480, 'rotational': False}],
    'system_vendor': {'manufacturer': 'Sushy', 'product_name': 'Emulated'},
}


@pytest.fixture(scope='module')
def api(tmp_path_factory):
    # What metal3's ironic-image enables beside the defaults.
    recorder = rf.start_service(
        str(tmp_path_factory.mktemp('lite')),
        default={'enabled_firmware_interfaces': 'redfish,no-firmware',
                 'enabled_inspect_interfaces': 'agent,redfish,no-inspect'})
    yield recorder
    rf.stop_service(recorder)


def call(api, method, path, body=None, expect=200):  # noqa: F811
    """One request of the operator at its microversion; a 409 (the node
    is busy) is tried again, as the operator requeues, unless it is the
    answer expected."""
    def send():
        return api(method, path, body, version=V)
    status, answer = send() if expect == 409 else procs.while_locked(send)
    assert status == expect, (method, path, status, answer)
    return answer


def node_of(api, uuid):  # noqa: F811
    return call(api, 'GET', '/v1/nodes/%s' % uuid)


def wait(api, uuid, predicate):  # noqa: F811
    found = {}

    def reached():
        found['node'] = node_of(api, uuid)
        return predicate(found['node'])
    procs.wait_for(reached, timeout=timeouts.HANG,
                   what='node %s' % uuid)
    return found['node']


def settled(node):
    return node['target_provision_state'] is None and node[
        'provision_state'] not in ('verifying', 'inspecting', 'cleaning',
                                   'deploying', 'servicing', 'deleting')


def provision(api, uuid, body, reached=settled):  # noqa: F811
    """``nodes.ChangeProvisionState`` then the operator's polling."""
    call(api, 'PUT', '/v1/nodes/%s/states/provision' % uuid, body,
         expect=202)
    return wait(api, uuid, reached)


def patch(api, uuid, ops):  # noqa: F811
    """``nodes.Update``: the operator's JSON patch (``add`` also
    replaces)."""
    return call(api, 'PATCH', '/v1/nodes/%s' % uuid, ops)


def power(api, uuid, target, expect=202, **opts):  # noqa: F811
    """``nodes.ChangePowerState``; the node once the change settled."""
    answer = call(api, 'PUT', '/v1/nodes/%s/states/power' % uuid,
                  dict(opts, target=target), expect=expect)
    if expect != 202:
        return answer
    return wait(api, uuid, lambda n: n['target_power_state'] is None)


def ports_of(api, **query):  # noqa: F811
    """``ports.List`` with the fields the operator asks for (and the
    ``links`` Ironic always keeps)."""
    params = '&'.join('%s=%s' % item for item in sorted(query.items()))
    found = call(api, 'GET', '/v1/ports?%s&fields=node_uuid,uuid,address'
                 % params)['ports']
    for port in found:
        assert port.pop('links')
    return found


def register(api, emulator, image_url):  # noqa: F811
    """Register(): lookups, create, ports, manage, configureNode()."""
    # GetAvailableFeatures(): the endpoint's root, no version header.
    status, headers, root = procs.http('GET', api.service.base + '/v1/',
                                       version=None)
    assert status == 200, root
    assert (root['version']['min_version'], root['version']['version']) == (
        '1.1', '1.115')
    assert headers['X-OpenStack-Ironic-API-Maximum-Version'] == '1.115'
    # Nothing by name, nor by the boot MAC.
    call(api, 'GET', '/v1/nodes/%s' % NAME, expect=404)
    assert ports_of(api, address=MAC) == []

    driver_info = emulator_mod.driver_info(emulator)
    node = call(api, 'POST', '/v1/nodes', {
        'driver': 'redfish',
        'boot_interface': 'redfish-virtual-media',
        'name': NAME,
        'driver_info': driver_info,
        'firmware_interface': 'redfish',
        'inspect_interface': 'agent',
        'raid_interface': 'redfish',
        'disable_power_off': False,
        'properties': {'capabilities': 'boot_mode:uefi', 'cpu_arch': ''},
    }, expect=201)
    uuid = node['uuid']
    assert (node['firmware_interface'], node['inspect_interface'],
            node['boot_interface'], node['raid_interface']) == (
        'redfish', 'agent', 'redfish-virtual-media', 'redfish')
    assert node['provision_state'] == 'enroll'
    assert node['disable_power_off'] is False
    assert node['driver_info']['redfish_password'] == '******'

    # The next reconcile finds it by name (the UUID is stored after).
    assert node_of(api, NAME)['uuid'] == uuid
    assert ports_of(api, node_uuid=uuid) == []
    assert ports_of(api, address=MAC) == []
    port = call(api, 'POST', '/v1/ports', {
        'node_uuid': uuid, 'address': MAC, 'pxe_enabled': True},
        expect=201)
    assert (port['node_uuid'], port['pxe_enabled']) == (uuid, True)
    assert ports_of(api, node_uuid=uuid) == [
        {'uuid': port['uuid'], 'node_uuid': uuid, 'address': MAC}]
    # Its busy-hosts count: every node, four fields.
    listed = call(api, 'GET', '/v1/nodes?fields=uuid,name,provision_state,'
                  'boot_interface')['nodes']
    assert [(n['name'], n['provision_state']) for n in listed] == [
        (NAME, 'enroll')]
    assert set(listed[0]) == {'uuid', 'name', 'provision_state',
                              'boot_interface', 'links'}

    # The host's preprovisioningNetworkData (no image builder): the
    # ramdisk's network configuration.
    node = patch(api, uuid, [
        {'op': 'add', 'path': '/network_data', 'value': NETWORK_DATA}])
    assert node['network_data'] == NETWORK_DATA

    node = provision(api, uuid, {'target': 'manage'})
    assert node['provision_state'] == 'manageable', node['last_error']
    assert node['last_error'] is None

    # configureNode(): the deploy ISO, automated cleaning, capabilities.
    node = patch(api, uuid, [
        {'op': 'add', 'path': '/driver_info/deploy_iso',
         'value': image_url},
        {'op': 'add', 'path': '/automated_clean', 'value': True}])
    assert node['driver_info']['deploy_iso'] == image_url
    assert node['automated_clean'] is True
    valid = call(api, 'GET', '/v1/nodes/%s/validate' % uuid)
    for iface in ('power', 'management', 'boot', 'inspect', 'bios',
                  'firmware'):
        assert valid[iface]['result'] is True, (iface, valid[iface])
    return uuid


def inspect(api, uuid):  # noqa: F811
    """InspectHardware(): inspect, the ramdisk's data, the inventory."""
    node = provision(api, uuid, {'target': 'inspect'},
                     reached=lambda n: n['provision_state'] != 'inspecting')
    assert node['provision_state'] == 'inspect wait', node['last_error']
    # The ramdisk booted from the virtual CD.
    assert node['power_state'] == 'power on'
    device = call(api, 'GET', '/v1/nodes/%s/management/boot_device' % uuid)
    assert device['boot_device'] == 'cdrom'

    # ironic-python-agent posts to the callback URL Metal3 gives it
    # (.../v1/continue_inspection) as to ironic-inspector: no credentials,
    # no microversion (Ironic allows the endpoint at the base version);
    # the node is found by its MAC.
    resp = agent.continue_inspection(api.service.base, {
        'inventory': INVENTORY, 'root_disk': INVENTORY['disks'][0],
        'boot_interface': MAC}, headers={'Accept': 'application/json'})
    assert resp.status_code == 202, resp.text
    # ironic-inspector's answer.
    assert resp.json() == {'uuid': uuid}
    node = wait(api, uuid, settled)
    assert node['provision_state'] == 'manageable', node['last_error']
    assert node['properties']['cpu_arch'] == 'x86_64'

    # nodes.GetInventory: what the operator turns into HardwareDetails.
    data = call(api, 'GET', '/v1/nodes/%s/inventory' % uuid)
    assert data['inventory'] == INVENTORY
    assert data['plugin_data']['root_disk']['name'] == '/dev/sda'
    # No second port for the MAC the host already had.
    assert [p['address'] for p in ports_of(api, node_uuid=uuid)] == [MAC]


def firmware_settings(api, uuid):  # noqa: F811
    """GetFirmwareSettings() (with the schema) and
    GetFirmwareComponents()."""
    bios = call(api, 'GET', '/v1/nodes/%s/bios?detail=true' % uuid)['bios']
    settings = {s['name']: s['value'] for s in bios}
    assert settings == {'BootMode': 'Uefi', 'ProcTurboMode': 'Enabled'}
    assert {'attribute_type', 'allowable_values', 'read_only'} <= set(
        bios[0])
    components = call(api, 'GET', '/v1/nodes/%s/firmware' % uuid)
    found = {c['component']: c['current_version']
             for c in components['firmware']}
    assert found == {'bios': emulator_mod.BIOS_VERSION, 'bmc': '1.00'}
    return settings


def bios_of(api, uuid):  # noqa: F811
    bios = call(api, 'GET', '/v1/nodes/%s/bios' % uuid)['bios']
    return {s['name']: s['value'] for s in bios}


def prepare(api, uuid, settings):  # noqa: F811
    """Prepare(): manual cleaning with the BIOS settings the host's
    firmware spec changes (buildManualCleaningSteps()), then
    ``manageable`` again."""
    steps = [{'interface': 'bios', 'step': 'apply_configuration',
              'args': {'settings': [{'name': 'ProcTurboMode',
                                     'value': 'Disabled'}]}}]
    node = provision(api, uuid, {'target': 'clean', 'clean_steps': steps})
    assert node['provision_state'] == 'manageable', node['last_error']
    assert node['last_error'] is None
    assert bios_of(api, uuid) == dict(settings, ProcTurboMode='Disabled')


def data_image(api, uuid, image_url):  # noqa: F811
    """AttachDataImage(), GetDataImageStatus(), DetachDataImage()."""
    call(api, 'POST', '/v1/nodes/%s/vmedia' % uuid,
         {'device_type': 'cdrom', 'image_url': image_url}, expect=204)

    def inserted():
        media = call(api, 'GET', '/v1/nodes/%s/vmedia' % uuid)
        return [m['image'] for m in media
                if m['inserted'] and 'CD' in m['media_types']]
    assert procs.wait_for(inserted, timeout=timeouts.HANG) == [image_url]
    call(api, 'DELETE', '/v1/nodes/%s/vmedia?device_types=cdrom' % uuid,
         expect=204)
    procs.wait_for(lambda: not inserted(), timeout=timeouts.HANG,
                   what='the CD ejected')
    node = wait(api, uuid, lambda n: n['reservation'] is None)
    assert node['last_error'] is None


def deploy_live_iso(api, uuid, image_url):  # noqa: F811
    """Provision() of a live ISO: the instance settings it patches, then
    ``active`` (no config drive)."""
    node = patch(api, uuid, [
        {'op': 'add', 'path': '/instance_uuid',
         'value': INSTANCE},
        {'op': 'add', 'path': '/instance_info/capabilities',
         'value': {'boot_mode': 'uefi'}},
        {'op': 'add', 'path': '/instance_info/boot_iso', 'value': image_url},
        {'op': 'add', 'path': '/deploy_interface', 'value': 'ramdisk'},
        {'op': 'add', 'path': '/driver_info/force_persistent_boot_device',
         'value': 'Default'}])
    assert node['deploy_interface'] == 'ramdisk'
    assert node['instance_info']['boot_iso'] == image_url
    node = provision(api, uuid, {'target': 'active'},
                     reached=lambda n: n['provision_state'] != 'deploying')
    # ironic-lite's ramdisk deploy waits for the agent's heartbeat
    # (doc/source/api/differences.rst): the test plays it.
    assert node['provision_state'] == 'wait call-back', node['last_error']
    base = api.service.base
    resp = agent.lookup(base, {'addresses': MAC})
    assert resp.status_code == 200, resp.text
    token = resp.json()['config']['agent_token']
    resp = agent.heartbeat(base, uuid, {
        'callback_url': 'http://172.22.0.100:9999', 'agent_token': token,
        'agent_version': '10.0.0'})
    assert resp.status_code == 202, resp.text
    node = wait(api, uuid, settled)
    assert node['provision_state'] == 'active', node['last_error']
    assert node['power_state'] == 'power on'
    assert node['instance_uuid'] == INSTANCE


def service(api, uuid, settings):  # noqa: F811
    """Service(): the BIOS settings that changed, as buildServiceSteps()
    writes them; then ``active`` again."""
    steps = [
        {'interface': 'bios', 'step': 'apply_configuration',
         'args': {'settings': [{'name': 'ProcTurboMode',
                                'value': 'Enabled'}]}},
    ]
    node = provision(api, uuid, {'target': 'service',
                                 'service_steps': steps})
    assert node['provision_state'] == 'active', node['last_error']
    assert node['service_step'] in (None, {})
    assert bios_of(api, uuid) == settings


def power_actions(api, emulator, uuid):  # noqa: F811
    """PowerOff() (soft first, with its 180 s timeout) and PowerOn(); of a
    node that must stay on (``disable_power_off``, set by Register()), a
    reboot in place of a power off."""
    node = patch(api, uuid, [
        {'op': 'add', 'path': '/disable_power_off', 'value': True}])
    assert node['disable_power_off'] is True
    # Ironic's PowerStateFailure: a 409, nothing sent to the BMC.
    answer = power(api, uuid, 'power off', expect=409)
    assert 'Failed to set node power state to power off.' in answer[
        'error_message'], answer
    for target in ('soft rebooting', 'rebooting'):
        node = power(api, uuid, target)
        assert node['power_state'] == 'power on', node['last_error']
        assert node['last_error'] is None
    node = patch(api, uuid, [
        {'op': 'add', 'path': '/disable_power_off', 'value': False}])
    assert node['disable_power_off'] is False
    node = power(api, uuid, 'soft power off', timeout=180)
    assert node['power_state'] == 'power off', node['last_error']
    assert emulator_mod.power_state(emulator) == 'Off'
    assert power(api, uuid, 'power on')['power_state'] == 'power on'
    assert power(api, uuid, 'power off')['power_state'] == 'power off'
    # UpdateHardwareState(), HasPowerFailure(), GetHealth().
    node = node_of(api, uuid)
    assert (node['power_state'], node['fault']) == ('power off', None)
    assert node['health'] in (None, 'OK')


@pytest.mark.long(30)
def test_baremetal_operator_lifecycle(api, emulator, image_url):  # noqa: F811
    uuid = register(api, emulator, image_url)
    inspect(api, uuid)
    settings = firmware_settings(api, uuid)
    prepare(api, uuid, settings)

    # Provision(): the host is made available (cleaning) first.
    node = provision(api, uuid, {'target': 'provide'})
    assert node['provision_state'] == 'available', node['last_error']
    data_image(api, uuid, image_url)
    deploy_live_iso(api, uuid, image_url)
    service(api, uuid, settings)
    power_actions(api, emulator, uuid)

    # Deprovision().
    node = provision(api, uuid, {'target': 'deleted'})
    assert node['provision_state'] == 'available', node['last_error']
    if node['instance_uuid'] is not None:
        # realDelete(): no stale instance UUID.
        node = patch(api, uuid, [{'op': 'remove', 'path': '/instance_uuid'}])
        assert node['instance_uuid'] is None
    force_delete(api, uuid)


def force_delete(api, uuid):  # noqa: F811
    """Detach(force) of a host whose deploy waits for its agent: the
    abort 1.110 allows (why the operator talks 1.110), maintenance, then
    the delete."""
    node = provision(api, uuid, {'target': 'active'},
                     reached=lambda n: n['provision_state'] != 'deploying')
    assert node['provision_state'] == 'wait call-back', node['last_error']
    node = provision(api, uuid, {'target': 'abort'},
                     reached=lambda n: n['provision_state'] != (
                         'wait call-back'))
    assert node['provision_state'] == 'deploy failed', node
    call(api, 'PUT', '/v1/nodes/%s/maintenance' % uuid,
         {'reason': 'forcing deletion in baremetal-operator'}, expect=202)
    node = node_of(api, uuid)
    assert (node['maintenance'], node['maintenance_reason']) == (
        True, 'forcing deletion in baremetal-operator')
    call(api, 'DELETE', '/v1/nodes/%s' % uuid, expect=204)
    call(api, 'GET', '/v1/nodes/%s' % NAME, expect=404)
