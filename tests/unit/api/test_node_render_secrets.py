"""redfish_password is masked wherever the API shows driver_info: a node's
body, a list with details, and the echo of a JSON patch that failed."""

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
