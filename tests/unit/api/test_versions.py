"""Root documents, microversion negotiation and the error body shape."""

import pytest

from ironic_lite.api import microversions as mv
from ironic_lite.api import versions
from ironic_lite.common import exception
from ironic_lite.common import release_mappings
from ironic_lite import objects
from tests.unit.api import utils

MIN_H = 'X-OpenStack-Ironic-API-Minimum-Version'
MAX_H = 'X-OpenStack-Ironic-API-Maximum-Version'
VER_H = 'X-OpenStack-Ironic-API-Version'
# The newest microversion is defined once, in api/microversions.py (the
# release mapping's tests check master's); the released ones are frozen in
# tests/unit/common/release_mapping_snapshot.json.
MAX = mv.MAX_VERSION_STRING
TOO_NEW = '1.%d' % (mv.MINOR_MAX_VERSION + 1)


def test_root_document(client):
    resp = client.get('/', version='')
    assert resp.status_int == 200
    version = resp.json['default_version']
    assert resp.json['name'] == 'OpenStack Ironic API'
    assert resp.json['versions'] == [version]
    assert version == {'id': 'v1', 'status': 'CURRENT',
                       'min_version': '1.1', 'version': MAX,
                       'links': [{'href': 'http://localhost/v1/',
                                  'rel': 'self'}]}
    assert resp.headers[MAX_H] == MAX


def test_v1_document_gates_resources(client):
    old = client.get('/v1', version='1.22').json
    assert 'portgroups' not in old and 'conductors' not in old
    assert 'shards' not in client.get('/v1', version='1.81').json
    new = client.get('/v1', version='1.82').json
    assert new['shards'] == [
        {'href': 'http://localhost/v1/shards/', 'rel': 'self'},
        {'href': 'http://localhost/shards/', 'rel': 'bookmark'}]
    assert new['portgroups'][0]['href'] == 'http://localhost/v1/portgroups/'
    assert new['conductors'][1] == {'href': 'http://localhost/conductors/',
                                    'rel': 'bookmark'}
    assert new['version']['version'] == MAX
    assert new['media_types']['base'] == 'application/json'


def test_default_version_is_minimum(client):
    resp = client.get('/v1/nodes', version='')
    assert resp.headers[VER_H] == '1.1'
    assert resp.headers[MIN_H] == '1.1'
    assert resp.headers[MAX_H] == MAX


def test_latest_and_standard_header(client):
    assert client.get('/v1/nodes', version='latest').headers[VER_H] == MAX
    resp = client.get('/v1/nodes', version='',
                      headers={'OpenStack-API-Version':
                               'compute 2.1, baremetal 1.31'})
    assert resp.headers[VER_H] == '1.31'
    assert resp.headers['OpenStack-API-Version'] == 'baremetal 1.31'
    assert 'X-OpenStack-Ironic-API-Version' in resp.headers['Vary']


@pytest.mark.parametrize('value,text', [
    (TOO_NEW, 'minor version is not supported'),
    ('1.0', 'minor version is not supported'),
    ('2.1', 'Mutually exclusive versions'),
    ('1.x', 'Invalid value for X-OpenStack-Ironic-API-Version'),
    ('abc', 'Invalid value'),
])
def test_bad_version_is_406_with_range(client, value, text):
    resp = client.get('/v1/nodes', version=value)
    assert resp.status_int == 406
    assert text in utils.faultstring(resp)
    assert resp.headers[MIN_H] == '1.1'
    assert resp.headers[MAX_H] == MAX


def test_pin_lowers_maximum(client, monkeypatch):
    entry = dict(release_mappings.RELEASE_MAPPING['master'], api='1.50')
    monkeypatch.setattr(release_mappings, 'current_entry', lambda pin: entry)
    assert str(versions.max_version()) == '1.50'
    resp = client.get('/v1/nodes', version='1.51')
    assert resp.status_int == 406
    assert resp.headers[MAX_H] == '1.50'
    assert client.get('/v1/nodes', version='latest').headers[VER_H] == '1.50'


def test_unversioned_paths_route_under_v1(client, node):
    resp = client.get('/nodes/%s' % node['uuid'])
    assert resp.status_int == 200
    assert resp.json['uuid'] == node['uuid']


def test_request_id_header(client):
    assert client.get('/v1/nodes').headers[
        'X-OpenStack-Request-Id'].startswith('req-')


def test_unknown_path_404(client):
    resp = client.get('/v1/nothing/here')
    assert resp.status_int == 404
    assert utils.faultstring(resp) == 'The resource could not be found.'


def test_wrong_method_405(client):
    resp = client.put('/v1/nodes')
    assert resp.status_int == 405
    assert 'PUT' in utils.faultstring(resp)
    assert set(resp.headers['Allow'].split(', ')) == {'GET', 'POST'}


def test_bad_json_400(client):
    resp = client.post('/v1/nodes', '{"driver": ',
                       content_type='application/json')
    assert resp.status_int == 400
    assert 'Invalid JSON' in utils.faultstring(resp)


def test_unexpected_error_is_generic_500(client, monkeypatch):
    def boom(*args, **kwargs):
        raise RuntimeError('secret detail')
    monkeypatch.setattr(objects.Node, 'list', boom)
    resp = client.get('/v1/nodes')
    assert resp.status_int == 500
    doc = utils.fault(resp)
    assert doc['faultstring'] == 'Internal Server Error'
    assert 'secret' not in resp.text


def test_service_unavailable_503(client, rpcapi, monkeypatch):
    def down(*args, **kwargs):
        raise exception.ServiceUnavailable(reason='broker down')
    monkeypatch.setattr(rpcapi, 'create_node', down)
    resp = client.post_json('/v1/nodes', {'driver': 'fake-hardware'})
    assert resp.status_int == 503
    assert utils.faultstring(resp) == 'broker down'


@pytest.mark.parametrize('path,version', [
    ('/v1/nodes', '1.106'), ('/v1/nodes', '1.107'), ('/', None),
    ('/v1/nodes/missing', None), ('/v1/nodes', '1.999')])
def test_request_id_in_both_headers_on_every_response(client, path,
                                                      version):
    """1.107 as Ironic: X-OpenStack-Request-Id, and OpenStack-Request-Id
    as before, the same new id, whatever the version or the status."""
    resp = client.get(path, version=version)
    new = resp.headers['X-OpenStack-Request-Id']
    assert new.startswith('req-')
    assert resp.headers['OpenStack-Request-Id'] == new


def test_an_inbound_request_id_is_the_global_one(client, monkeypatch):
    from ironic_lite.api import hooks
    seen = []
    real = hooks.ContextHook.before

    def before(self, state):
        real(self, state)
        seen.append(state.request.context.global_request_id)
    monkeypatch.setattr(hooks.ContextHook, 'before', before)
    inbound = 'req-11111111-2222-3333-4444-555555555555'
    resp = client.get('/v1/nodes', headers={
        'X-OpenStack-Request-Id': inbound})
    assert resp.status_int == 200
    assert seen == [inbound]
    # The answer carries the request's own id, not the caller's.
    assert resp.headers['X-OpenStack-Request-Id'] != inbound
