"""Issue 20, item 1: the length of a JSON patch is capped by
``[api]max_patch_operations``, for every resource."""

from ironic_lite import conf
from tests.unit.api import utils

CONF = conf.CONF


def _adds(count):
    return [{'op': 'add', 'path': '/extra/k%d' % i, 'value': i}
            for i in range(count)]


def test_patch_longer_than_the_cap_is_400(client, node):
    resp = client.patch_json('/v1/nodes/node-0', _adds(1001))
    assert resp.status_int == 400
    assert utils.faultstring(resp) == (
        'The JSON patch has 1001 operations: at most 1000 are allowed in '
        'one request ([api]max_patch_operations).')
    assert client.get('/v1/nodes/node-0').json['extra'] == {}


def test_patch_of_the_cap_applies(client, node):
    resp = client.patch_json('/v1/nodes/node-0', _adds(1000))
    assert resp.status_int == 200, resp.text
    assert len(resp.json['extra']) == 1000


def test_cap_is_an_option_for_every_resource(client, node):
    CONF.set_override('max_patch_operations', 3, group='api')
    port = client.post_json('/v1/ports', {'node_uuid': node['uuid'],
                                          'address': '52:54:00:00:00:01'})
    assert port.status_int == 201, port.text
    for url in ('/v1/nodes/node-0', '/v1/ports/' + port.json['uuid']):
        assert client.patch_json(url, _adds(3)).status_int == 200
        resp = client.patch_json(url, _adds(4))
        assert resp.status_int == 400, resp.text
        assert 'at most 3' in utils.faultstring(resp)
