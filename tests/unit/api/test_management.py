"""controllers/v1/management.py: the boot device (RPC 1.2) and
inject_nmi (1.29, RPC 1.6) of a node (the indicators:
test_management_indicators.py)."""

from tests.unit.api import utils


def test_boot_device(client, node):
    url = '/v1/nodes/node-0/management/boot_device'
    assert client.get(url + '/supported').json == {
        'supported_boot_devices': ['pxe', 'disk']}
    assert client.get(url).json == {'boot_device': 'pxe',
                                    'persistent': False}
    resp = client.put_json(url, {'boot_device': 'disk', 'persistent': True})
    assert resp.status_int == 204
    assert client.get(url).json == {'boot_device': 'disk',
                                    'persistent': True}
    for body in ({'boot_device': 'floppy'}, {}, {'boot_device': 'pxe',
                                                 'persistent': 'yes'},
                 {'boot_device': 'pxe', 'other': 1}):
        assert client.put_json(url, body).status_int == 400, body
    assert client.get(url).json['boot_device'] == 'disk'


def test_inject_nmi(client, node, rpcapi):
    url = '/v1/nodes/%s/management/inject_nmi' % node['uuid']
    assert client.put_json(url, {}, version='1.28').status_int == 404
    resp = client.put_json(url, {})
    assert resp.status_int == 400, resp.text
    assert utils.faultstring(resp) == (
        'Driver fake-hardware does not support inject_nmi (disabled or not '
        'implemented).')
    assert rpcapi.calls[-1] == ('inject_nmi', node['uuid'])
    resp = client.put_json(url, {'x': 1})
    assert resp.status_int == 400
    assert utils.faultstring(resp) == 'Unexpected arguments: x'
