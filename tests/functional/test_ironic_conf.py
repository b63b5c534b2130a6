"""``ironic`` (Ironic's name for the all-in-one command) started with an
``ironic.conf`` written the way Ironic's devstack writes it for Tempest:
``[DEFAULT]enabled_hardware_types`` and ``enabled_<iface>_interfaces``,
and options of Ironic's that ironic-lite does not implement.  The nodes
it enrolls get the interfaces Ironic's rules choose; each unimplemented
option is named once in the log and by ``ironic-status upgrade check``.
"""

import os

from tests.functional import procs

# As devstack/lib/ironic writes them (fake-hardware and redfish enabled).
DEVSTACK = {
    'enabled_hardware_types': 'fake-hardware,redfish',
    'enabled_bios_interfaces': 'fake,no-bios',
    'enabled_boot_interfaces': 'fake,ipxe,redfish-virtual-media',
    'enabled_console_interfaces': 'fake,no-console',
    'enabled_deploy_interfaces': 'fake,direct,ramdisk',
    'enabled_inspect_interfaces': 'fake,agent,no-inspect',
    'enabled_network_interfaces': 'flat,noop',
    'enabled_raid_interfaces': 'fake,agent,no-raid',
    'enabled_rescue_interfaces': 'fake,no-rescue',
    'enabled_storage_interfaces': 'fake,cinder,noop',
    'enabled_vendor_interfaces': 'fake,ipmitool,no-vendor',
    'rpc_transport': 'json-rpc',
    'enabled_firmware_interfaces': 'fake,no-firmware',
}
# Ironic's, not implemented here.
UNIMPLEMENTED = ['[pxe]tftp_root']
FAKE = {'bios': 'fake', 'boot': 'fake', 'console': 'fake',
        'deploy': 'fake', 'firmware': 'fake', 'inspect': 'fake',
        'management': 'fake',
        'network': 'flat', 'power': 'fake', 'raid': 'fake',
        'rescue': 'fake', 'storage': 'noop', 'vendor': 'fake'}
# Ironic would take ipxe and direct where ironic-lite has none.
REDFISH = {'bios': 'no-bios', 'boot': 'redfish-virtual-media',
           'console': 'no-console', 'deploy': 'ramdisk',
           'firmware': 'no-firmware', 'inspect': 'agent',
           'management': 'redfish',
           'network': 'flat', 'power': 'redfish', 'raid': 'no-raid',
           'rescue': 'no-rescue', 'storage': 'noop', 'vendor': 'no-vendor'}


def _interfaces(node):
    return {k[:-len('_interface')]: v for k, v in node.items()
            if k.endswith('_interface')}


def test_ironic_conf_of_devstack(tmp_path):
    port, rpc_port = procs.free_port(), procs.free_port()
    config = procs.write_config(str(tmp_path / 'ironic.conf'), {
        'DEFAULT': dict(DEVSTACK, state_path=str(tmp_path / 'state'),
                        no_such_option='1', host='127.0.0.1'),
        'api': {'host_ip': '127.0.0.1', 'port': port},
        'conductor': {'heartbeat_interval': 1,
                      'sync_power_state_interval': 0},
        # The API calls the conductor of its own process over JSON-RPC.
        'json_rpc': {'host_ip': '127.0.0.1', 'port': rpc_port},
        'pxe': {'tftp_root': '/tftpboot'},
    })
    service = procs.Service('ironic', config, str(tmp_path))
    try:
        service.base = 'http://127.0.0.1:%d' % port
        procs.wait_http(service.base + '/v1', service)
        status, body = procs.api(service, 'POST', '/v1/nodes',
                                 {'driver': 'fake-hardware'})[::2]
        assert status == 201, body
        assert _interfaces(body) == FAKE
        assert body['conductor'] == '127.0.0.1:%d' % rpc_port
        status, body = procs.api(service, 'POST', '/v1/nodes', {
            'driver': 'redfish', 'driver_info': {
                'redfish_address': 'http://127.0.0.1:1',
                'redfish_system_id': '/redfish/v1/Systems/x'}})[::2]
        assert status == 201, body
        assert _interfaces(body) == REDFISH
        status, body = procs.api(service, 'GET',
                                 '/v1/drivers/redfish')[::2]
        assert body['enabled_boot_interfaces'] == ['redfish-virtual-media']
    finally:
        assert service.stop() == 0
    log = service.log()
    for option in UNIMPLEMENTED:
        assert log.count('%s is an option of Ironic that ironic-lite does '
                         'not implement' % option) == 1, log
    assert log.count('[DEFAULT]enabled_deploy_interfaces: direct not '
                     'implemented by ironic-lite') == 1, log
    assert 'no_such_option' not in log
    result = procs.run('ironic-status', '--config-file', config, 'upgrade',
                       'check', check=False)
    assert result.returncode == 1, result.stdout + result.stderr
    for option in UNIMPLEMENTED + ['[DEFAULT]enabled_boot_interfaces: ipxe']:
        assert option in result.stdout, result.stdout
    assert os.path.basename(procs.command('ironic')) == 'ironic'
