"""The secrets of a node's body masked as Ironic masks them
(controllers/v1/node_render.py); redfish_password wherever the API shows
driver_info: a node's body, a list with details, and the echo of a JSON
patch that failed."""

from tests.unit.api import utils

SECRET = 'rf-s3cret-pw'


def _node(client):
    resp = client.post_json('/v1/nodes', {
        'driver': 'fake-hardware',
        'driver_info': {'redfish_address': 'https://bmc',
                        'redfish_username': 'admin',
                        'redfish_password': SECRET}})
    assert resp.status_int == 201, resp.text
    assert resp.json['driver_info']['redfish_password'] == '******'
    assert SECRET not in resp.text
    return resp.json['uuid']


def test_bodies_mask_it(client):
    uuid = _node(client)
    for path in ('/v1/nodes/' + uuid, '/v1/nodes/detail',
                 '/v1/nodes/%s?fields=driver_info' % uuid):
        resp = client.get(path)
        assert resp.status_int == 200
        assert SECRET not in resp.text
        assert '******' in resp.text


def test_patch_errors_do_not_echo_it(client):
    uuid = _node(client)
    for ops in (
            [{'op': 'test', 'path': '/driver_info/redfish_password',
              'value': 'guess'}],
            [{'op': 'copy', 'from': '/driver_info/redfish_password',
              'path': '/driver_info/redfish_password/x'}],
            [{'op': 'replace', 'path': '/driver_info/redfish_password',
              'value': SECRET + '2'},
             {'op': 'remove', 'path': '/driver_info/nothing'}]):
        resp = client.patch_json('/v1/nodes/' + uuid, ops,
                                 expect_errors=True)
        assert resp.status_int == 400, resp.text
        assert SECRET not in resp.text, (ops, resp.text)


def test_secrets_masked_like_ironic(client, node):
    utils.set_node(node['uuid'],
                   instance_info={'image_url': 'http://x/y?temp',
                                  'configdrive': 'abc',
                                  'admin_password': 'p', 'root_gb': 10},
                   driver_internal_info={'agent_secret_token': 't', 'a': 1},
                   driver_info={'snmp_auth_key': 'k', 'ipmi_username': 'u'})
    body = client.get('/v1/nodes/node-0').json
    assert body['instance_info'] == {
        'image_url': '******', 'configdrive': '******',
        'admin_password': '******', 'root_gb': 10}
    assert body['driver_internal_info'] == {'agent_secret_token': '******',
                                            'a': 1}
    assert body['driver_info'] == {'snmp_auth_key': '******',
                                   'ipmi_username': 'u'}
