"""Boot mode, secure boot and indicators (RPC 1.8) against the embedded
service (``ironic-lite``: SQLite, in-process RPC): openstacksdk's
``set_node_boot_mode`` / ``set_node_secure_boot``, the ``baremetal`` CLI's
``node boot mode set`` and ``node secure boot on|off``, and the indicators
over HTTP (neither client has them).
"""

from openstack import connection
import pytest

from tests.functional import procs


@pytest.fixture(scope='module')
def bm(lite_noauth):
    return connection.Connection(
        auth_type='none', auth={'endpoint': lite_noauth.base}).baremetal


def _wait(service, uuid, **fields):
    def reached():
        status, _, body = procs.api(service, 'GET', '/v1/nodes/' + uuid)
        assert status == 200, body
        if body['reservation'] is None and all(
                body[k] == v for k, v in fields.items()):
            return body
        return None
    return procs.wait_for(reached, what='node %s with %s' % (uuid, fields))


def test_boot_mode_and_secure_boot_with_openstacksdk(bm, lite_noauth):
    node = bm.create_node(driver='fake-hardware')
    assert (node.boot_mode, node.is_secure_boot) == (None, None)
    bm.set_node_boot_mode(node, 'uefi')
    _wait(lite_noauth, node.id, boot_mode='uefi')
    bm.set_node_secure_boot(node, True)
    _wait(lite_noauth, node.id, secure_boot=True)
    node = bm.get_node(node.id)
    assert (node.boot_mode, node.is_secure_boot, node.last_error) == (
        'uefi', True, None)
    # Verification reads them back from the "hardware" too.
    node = bm.set_node_provision_state(node, 'manage', wait=True)
    assert (node.provision_state, node.boot_mode, node.is_secure_boot) == (
        'manageable', 'uefi', True)


def test_boot_mode_and_secure_boot_with_the_cli(lite_noauth, cli_env):
    status, _, node = procs.api(lite_noauth, 'POST', '/v1/nodes',
                                {'driver': 'fake-hardware',
                                 'name': 'bm-cli'})
    assert status == 201, node
    procs.baremetal(lite_noauth, cli_env, 'node', 'boot', 'mode', 'set',
                    'bm-cli', 'bios', expect_json=False)
    _wait(lite_noauth, node['uuid'], boot_mode='bios')
    procs.baremetal(lite_noauth, cli_env, 'node', 'secure', 'boot', 'off',
                    'bm-cli', expect_json=False)
    shown = _wait(lite_noauth, node['uuid'], secure_boot=False)
    assert (shown['boot_mode'], shown['last_error']) == ('bios', None)


def test_indicators_over_http(lite_noauth):
    status, _, node = procs.api(lite_noauth, 'POST', '/v1/nodes',
                                {'driver': 'fake-hardware', 'name': 'leds'})
    assert status == 201, node
    path = '/v1/nodes/leds/management/indicators'
    status, _, body = procs.api(lite_noauth, 'GET', path)
    assert status == 200, body
    assert [(i['name'], i['readonly'], i['links'][0]['href'])
            for i in body['indicators']] == [
        ('led-0@chassis', True,
         lite_noauth.base + path + '/led-0@chassis'),
        ('led@system', False, lite_noauth.base + path + '/led@system')]
    status, _, body = procs.api(lite_noauth, 'PUT', path + '/led@system',
                                {'state': 'BLINKING'})
    assert (status, body) == (204, None)
    status, _, body = procs.api(lite_noauth, 'GET', path + '/led@system')
    assert (status, body) == (200, {'state': 'blinking'})
    status, _, body = procs.api(lite_noauth, 'PUT', path + '/led-0@chassis',
                                {'state': 'off'})
    assert status == 400, body
