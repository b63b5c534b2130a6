"""The ``redfish`` hardware type against sushy-tools' emulator, through
the embedded service (``ironic-lite``: API and conductor in one process)
and its REST API, as an operator and python-ironicclient use it: enroll,
validate, manage, inspect (properties, ports, inventory), power, boot
device; a dead BMC and wrong credentials; the BMC password in no answer;
and a redfish node of a service started with the ``ironic.conf`` Ironic's
devstack writes (tools/tempest/devstack.py), the emulator powered on and
off.
"""

import functools
import http.server
import json
import os
import re
import threading

from openstack import connection
import pytest

from tests.functional import conftest
from tests.functional import procs
from tests import redfish_emulator as emulator_mod
from tests import timeouts
from tools.tempest import devstack

PASSWORD = emulator_mod.PASSWORD


@pytest.fixture(scope='module')
def emulator(tmp_path_factory):
    emulator = emulator_mod.start(str(tmp_path_factory.mktemp('emulator')))
    yield emulator
    emulator_mod.stop(emulator)


@pytest.fixture(scope='module')
def image_url(tmp_path_factory):
    """A "deploy ISO" on a local HTTP server (the emulator fetches it)."""
    root = tmp_path_factory.mktemp('images')
    (root / 'deploy.iso').write_bytes(b'\0' * 4096)
    handler = functools.partial(http.server.SimpleHTTPRequestHandler,
                                directory=str(root))
    server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield 'http://127.0.0.1:%d/deploy.iso' % server.server_address[1]
    server.shutdown()
    thread.join(timeouts.HANG)


class Recorder(object):
    """The service, and every answer it gave (checked for the password)."""

    def __init__(self, service):
        self.service = service
        self.bodies = []

    def __call__(self, method, path, body=None, **kwargs):
        status, headers, parsed = procs.api(self.service, method, path,
                                            body, **kwargs)
        self.bodies.append((method, path, status, parsed))
        return status, parsed


def start_service(directory, default=None, **conductor):
    """ironic-lite with the redfish type enabled; its answers recorded
    (``default``: more [DEFAULT] options)."""
    port = procs.free_port()
    config = procs.write_config(os.path.join(directory, 'ironic.conf'), {
        'DEFAULT': dict({'state_path': os.path.join(directory, 'state'),
                         'host': conftest.CONDUCTOR_HOST}, **(default or {})),
        'api': {'host_ip': '127.0.0.1', 'port': port},
        'conductor': dict({'heartbeat_interval': 1,
                           'enabled_hardware_types': 'fake-hardware,redfish',
                           'sync_power_state_interval': 0,
                           'power_state_change_timeout': 60}, **conductor),
        # An unreachable BMC fails after two quick attempts.
        'redfish': {'connection_attempts': 2, 'connection_retry_interval': 1,
                    'connect_timeout': 2, 'read_timeout': 30},
    })
    service = procs.Service('ironic-lite', config, directory)
    service.base = 'http://127.0.0.1:%d' % port
    service.credentials = procs.NOAUTH
    procs.wait_http(service.base + '/v1', service)
    return Recorder(service)


def stop_service(recorder):
    """Stop it; the BMC password was in no answer and no log line."""
    conftest.stop_lite(recorder.service)
    for method, path, status, body in recorder.bodies:
        assert PASSWORD not in json.dumps(body), (method, path, status)
    assert PASSWORD not in recorder.service.log()


@pytest.fixture(scope='module')
def api(tmp_path_factory):
    recorder = start_service(str(tmp_path_factory.mktemp('lite')))
    yield recorder
    stop_service(recorder)


def wait_node(api, uuid, predicate):
    found = {}

    def reached():
        status, node = api('GET', '/v1/nodes/%s' % uuid)
        found['node'] = node
        return status == 200 and predicate(node)
    procs.wait_for(reached, timeout=timeouts.HANG)
    return found['node']


def enroll(api, driver_info, **fields):
    status, node = api('POST', '/v1/nodes', dict(
        driver='redfish', driver_info=driver_info, **fields))
    assert status == 201, node
    assert node['driver_info']['redfish_password'] == '******'
    return node


def put_action(api, path, body):
    """PUT a state change, tried again while the node is locked (the
    previous action ends with its state written, then its lock released,
    and the power sync takes the lock for a moment too)."""
    return procs.while_locked(lambda: api('PUT', path, body))


def manage(api, uuid):
    status, body = put_action(api, '/v1/nodes/%s/states/provision' % uuid,
                              {'target': 'manage'})
    assert status == 202, body
    return wait_node(api, uuid, lambda n: n['target_provision_state']
                     is None and n['provision_state'] != 'verifying')


def power(api, uuid, target):
    status, body = put_action(api, '/v1/nodes/%s/states/power' % uuid,
                              {'target': target})
    assert status == 202, body
    return wait_node(api, uuid, lambda n: n['target_power_state'] is None)


def test_enroll_validate_manage_inspect(api, emulator, image_url):
    node = enroll(api, dict(emulator_mod.driver_info(emulator),
                            deploy_iso=image_url))
    assert node['power_interface'] == 'redfish'
    assert node['bios_interface'] == 'redfish'
    assert node['boot_interface'] == 'redfish-virtual-media'
    status, valid = api('GET', '/v1/nodes/%s/validate' % node['uuid'])
    assert status == 200
    for iface in ('power', 'management', 'boot', 'inspect', 'bios'):
        assert valid[iface] == {'result': True}, (iface, valid[iface])
    node = manage(api, node['uuid'])
    assert node['provision_state'] == 'manageable', node['last_error']
    assert node['power_state'] in ('power off', 'power on')

    status, _body = put_action(api, '/v1/nodes/%s/states/provision'
                               % node['uuid'], {'target': 'inspect'})
    assert status == 202
    node = wait_node(api, node['uuid'],
                     lambda n: n['provision_state'] != 'inspecting')
    assert node['provision_state'] == 'manageable', node['last_error']
    props = node['properties']
    assert (props['cpus'], props['cpu_arch'], props['memory_mb'],
            props['local_gb']) == (2, 'x86_64', 4096, 0)
    status, ports = api('GET', '/v1/ports?node=%s' % node['uuid'])
    assert [p['address'] for p in ports['ports']] == [emulator_mod.NIC_MAC]

    status, data = api('GET', '/v1/nodes/%s/inventory' % node['uuid'])
    assert status == 200
    assert set(data) == {'inventory', 'plugin_data'}
    inventory = data['inventory']
    assert inventory['cpu']['count'] == 2
    assert inventory['memory'] == {'physical_mb': 4096}
    assert [i['mac_address'] for i in inventory['interfaces']] == [
        emulator_mod.NIC_MAC]
    status, _body = api('GET', '/v1/nodes/%s/inventory' % node['uuid'],
                        version='1.80')
    assert status == 404
    # As openstacksdk reads it.
    sdk = connection.Connection(auth_type='none',
                                auth={'endpoint': api.service.base})
    assert sdk.baremetal.get_node_inventory(node['uuid']) == data

    # A second inspection replaces the inventory and adds no port.
    status, _body = put_action(api, '/v1/nodes/%s/states/provision'
                               % node['uuid'], {'target': 'inspect'})
    assert status == 202
    wait_node(api, node['uuid'],
              lambda n: n['provision_state'] != 'inspecting')
    status, ports = api('GET', '/v1/ports?node=%s' % node['uuid'])
    assert len(ports['ports']) == 1

    status, _body = api('DELETE', '/v1/nodes/%s' % node['uuid'])
    assert status == 204


def test_inventory_of_a_node_never_inspected(api, emulator):
    node = enroll(api, emulator_mod.driver_info(emulator))
    status, body = api('GET', '/v1/nodes/%s/inventory' % node['uuid'])
    assert status == 404
    # Ironic's message names the node by its database id (its database
    # backend of inspection data does so).
    assert re.fullmatch(r'Node inventory record for node \d+ could not be '
                        r'found\.', _fault(body))


def test_power_and_boot_device(api, emulator):
    node = enroll(api, emulator_mod.driver_info(emulator))
    uuid = node['uuid']
    assert manage(api, uuid)['provision_state'] == 'manageable'
    for target, expected in (('power on', 'power on'),
                             ('rebooting', 'power on'),
                             ('power off', 'power off'),
                             ('power on', 'power on'),
                             ('soft rebooting', 'power on'),
                             ('soft power off', 'power off')):
        node = power(api, uuid, target)
        assert node['power_state'] == expected, (target, node['last_error'])
        assert node['last_error'] is None

    path = '/v1/nodes/%s/management/boot_device' % uuid
    status, _body = put_action(api, path, {'boot_device': 'pxe',
                                           'persistent': True})
    assert status == 204
    status, device = api('GET', path)
    assert device == {'boot_device': 'pxe', 'persistent': True}
    status, supported = api('GET', path + '/supported')
    assert 'cdrom' in supported['supported_boot_devices']
    status, _body = put_action(api, path, {'boot_device': 'disk'})
    assert status == 204
    assert api('GET', path)[1]['boot_device'] == 'disk'


def _fault(body):
    return json.loads(body['error_message'])['faultstring']


def test_unreachable_bmc(api):
    port = procs.free_port()     # nothing listens there
    node = enroll(api, {'redfish_address': 'http://127.0.0.1:%d' % port,
                        'redfish_username': 'admin',
                        'redfish_password': PASSWORD})
    node = manage(api, node['uuid'])
    assert node['provision_state'] == 'enroll'
    assert ('Redfish connection failed for node %s: unable to connect to '
            'the BMC at http://127.0.0.1:%d' % (node['uuid'], port)
            in node['last_error'])
    assert 'Traceback' not in node['last_error']

    status, body = api('GET', '/v1/nodes/%s/management/boot_device'
                       % node['uuid'])
    assert status == 503
    assert 'unable to connect to the BMC' in _fault(body)

    # A power action fails in its worker: the node keeps its state, the
    # conductor is free for the next request.
    node = power(api, node['uuid'], 'power on')
    assert node['power_state'] is None
    assert 'unable to connect to the BMC' in node['last_error']
    status, _body = api('GET', '/v1/nodes/%s' % node['uuid'])
    assert status == 200


def test_wrong_credentials(api, emulator):
    info = emulator_mod.driver_info(emulator,
                                    redfish_password='not-the-password')
    node = enroll(api, info)
    node = manage(api, node['uuid'])
    assert node['provision_state'] == 'enroll'
    assert ('access to the BMC at %s was denied (HTTP 401): check '
            'redfish_username and redfish_password' % emulator.address
            in node['last_error'])
    assert 'not-the-password' not in node['last_error']
    status, body = api('GET', '/v1/nodes/%s/management/boot_device'
                       % node['uuid'])
    assert status == 400
    assert 'was denied' in _fault(body)


def test_invalid_driver_info(api):
    status, node = api('POST', '/v1/nodes', {
        'driver': 'redfish', 'driver_info': {'redfish_password': PASSWORD}})
    assert status == 201
    status, valid = api('GET', '/v1/nodes/%s/validate' % node['uuid'])
    assert valid['power'] == {
        'result': False,
        'reason': "Missing the following Redfish properties in node %s "
                  "driver_info: ['redfish_address']" % node['uuid']}
    status, _body = api('PATCH', '/v1/nodes/%s' % node['uuid'], [
        {'op': 'add', 'path': '/driver_info/redfish_address',
         'value': 'http://bmc.example.com'},
        {'op': 'add', 'path': '/driver_info/redfish_auth_type',
         'value': 'kerberos'}])
    status, valid = api('GET', '/v1/nodes/%s/validate' % node['uuid'])
    assert valid['management']['result'] is False
    assert 'redfish_auth_type' in valid['management']['reason']
    # A patch that fails echoes it, masked.
    status, body = api('PATCH', '/v1/nodes/%s' % node['uuid'], [
        {'op': 'test', 'path': '/driver_info/redfish_password',
         'value': 'guess-' + PASSWORD}])
    assert status == 400
    status, props = api('GET', '/v1/drivers/redfish/properties')
    assert status == 200
    assert {'redfish_address', 'redfish_password', 'redfish_system_id',
            'redfish_verify_ca', 'deploy_iso'} <= set(props)


def test_inspection_of_an_unreachable_bmc_fails_clearly(api, emulator):
    node = enroll(api, emulator_mod.driver_info(emulator))
    uuid = node['uuid']
    assert manage(api, uuid)['provision_state'] == 'manageable'
    dead = 'http://127.0.0.1:%d' % procs.free_port()
    status, _body = api('PATCH', '/v1/nodes/%s' % uuid, [
        {'op': 'replace', 'path': '/driver_info/redfish_address',
         'value': dead}])
    assert status == 200
    status, _body = put_action(api, '/v1/nodes/%s/states/provision' % uuid,
                               {'target': 'inspect'})
    assert status == 202
    node = wait_node(api, uuid, lambda n: n['provision_state'] != 'inspecting')
    assert node['provision_state'] == 'inspect failed'
    assert node['last_error'] == (
        'Failed to inspect hardware. Reason: Redfish connection failed for '
        'node %s: unable to connect to the BMC at %s' % (uuid, dead))
    status, _body = api('GET', '/v1/nodes/%s/inventory' % uuid)
    assert status == 404


@pytest.mark.long(25)
def test_ironic_conf_of_devstack_powers_the_emulator(tmp_path, emulator):
    """Ironic's all-in-one command, ``ironic``, from the file Tempest's
    runs use (noauth, fake-hardware and redfish enabled Ironic's way):
    the node enrolls and its power actions reach the BMC."""
    port = procs.free_port()
    config = devstack.ironic_conf(
        str(tmp_path / 'ironic.conf'), None, None,
        'sqlite:///%s' % (tmp_path / 'ironic.sqlite'), port,
        str(tmp_path / 'state'), auth_strategy='noauth',
        hardware_types=('fake-hardware', 'redfish'))
    service = procs.Service('ironic', config, str(tmp_path))
    service.base = 'http://127.0.0.1:%d' % port
    procs.wait_http(service.base + '/v1', service)
    api = Recorder(service)
    try:
        node = enroll(api, emulator_mod.driver_info(emulator))
        assert (node['power_interface'], node['management_interface'],
                node['boot_interface']) == (
            'redfish', 'redfish', 'redfish-virtual-media')
        assert node['network_interface'] == 'noop'
        uuid = node['uuid']
        assert manage(api, uuid)['provision_state'] == 'manageable'
        for target, bmc in (('power on', 'On'), ('power off', 'Off'),
                            ('power on', 'On')):
            node = power(api, uuid, target)
            assert node['power_state'] == target, node['last_error']
            assert emulator_mod.power_state(emulator) == bmc
        node = power(api, uuid, 'power off')
        assert emulator_mod.power_state(emulator) == 'Off'
    finally:
        stop_service(api)
