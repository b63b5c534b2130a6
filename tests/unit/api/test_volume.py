"""/v1/volume: connectors and targets (1.32), also under a node."""

from ironic_lite import objects
from tests.unit.api import test_acl
from tests.unit.api.test_acl import keystone_client  # noqa: F401 (fixture)
from tests.unit.api import utils

C = '/v1/volume/connectors'
REDACTED = {'redacted_contents': (
    '** Value redacted: Requires permission '
    'baremetal:volume:view_target_properties access. Permission denied. **')}
T = '/v1/volume/targets'


def _connector(client, node, **kw):
    body = dict({'node_uuid': node['uuid'], 'type': 'iqn',
                 'connector_id': 'iqn.2017-05.org.openstack:01:x'}, **kw)
    resp = client.post_json(C, body)
    assert resp.status_int == 201, resp.text
    return resp.json


def _target(client, node, **kw):
    body = dict({'node_uuid': node['uuid'], 'volume_type': 'iscsi',
                 'boot_index': 0,
                 'volume_id': '04452bed-5367-4202-8bf5-de4335ac56d2'}, **kw)
    resp = client.post_json(T, body)
    assert resp.status_int == 201, resp.text
    return resp.json


def _set_states(node, power='power off', provision=None):
    n = objects.Node.get_by_uuid(None, node['uuid'])
    n.power_state = power
    if provision:
        n.provision_state = provision
    n.save()


def test_volume_root_links(client, node):
    body = client.get('/v1/volume').json
    assert set(body) == {'links', 'connectors', 'targets'}
    assert body['connectors'] == [
        {'href': 'http://localhost/v1/volume/connectors', 'rel': 'self'},
        {'href': 'http://localhost/volume/connectors', 'rel': 'bookmark'}]
    sub = client.get('/v1/nodes/%s/volume' % node['uuid']).json
    assert sub['targets'][0]['href'] == (
        'http://localhost/v1/nodes/%s/volume/targets' % node['uuid'])
    assert sub['links'][0]['href'] == (
        'http://localhost/v1/nodes/%s/volume/' % node['uuid'])


def test_below_1_32_is_404(client, node):
    for url in ('/v1/volume', C, T, '/v1/nodes/%s/volume' % node['uuid'],
                '/v1/nodes/%s/volume/connectors' % node['uuid']):
        assert client.get(url, version='1.31').status_int == 404, url
    assert client.post_json(C, {}, version='1.31').status_int == 404
    assert 'volume' not in client.get('/v1', version='1.31').json
    assert client.get('/v1', version='1.32').json['volume'][0][
        'href'] == 'http://localhost/v1/volume/'


def test_connector_crud(client, node):
    _set_states(node)
    conn = _connector(client, node, extra={'a': 1})
    assert set(conn) == {'uuid', 'type', 'connector_id', 'node_uuid',
                         'extra', 'created_at', 'updated_at', 'links'}
    assert conn['node_uuid'] == node['uuid']
    url = C + '/' + conn['uuid']
    listed = client.get(C).json['connectors']
    assert listed == [{'uuid': conn['uuid'], 'node_uuid': node['uuid'],
                       'type': 'iqn', 'connector_id': conn['connector_id'],
                       'links': conn['links']}]
    detail = client.get(C + '?node=%s&detail=True' % node['uuid']).json
    assert detail['connectors'][0]['extra'] == {'a': 1}
    assert client.get(url + '?fields=type').json == {
        'type': 'iqn', 'links': conn['links']}
    resp = client.patch_json(url, [{'op': 'replace', 'path': '/type',
                                    'value': 'ip'}])
    assert resp.status_int == 200, resp.text
    assert resp.json['type'] == 'ip'
    assert client.delete(url).status_int == 204
    assert client.get(url).status_int == 404
    assert utils.faultstring(client.get(url)) == (
        'Volume connector %s could not be found.' % conn['uuid'])


def test_connector_duplicate_and_missing_node(client, node):
    _connector(client, node)
    resp = client.post_json(C, {'node_uuid': node['uuid'], 'type': 'iqn',
                                'connector_id':
                                    'iqn.2017-05.org.openstack:01:x'})
    assert resp.status_int == 409
    assert utils.faultstring(resp) == (
        'A volume connector with type iqn and connector ID '
        'iqn.2017-05.org.openstack:01:x already exists.')
    missing = '1be26c0b-03f2-4d2e-ae87-c02d7f33c123'
    resp = client.post_json(C, {'node_uuid': missing, 'type': 'iqn',
                                'connector_id': 'y'})
    assert resp.status_int == 400
    assert utils.faultstring(resp) == (
        "Invalid input for field/attribute node_uuid. Value: '%s'. "
        % missing)
    resp = client.post_json(C, {'node_uuid': node['uuid'], 'type': 'iqn'})
    assert resp.status_int == 400
    assert 'connector_id' in utils.faultstring(resp)
    assert len(objects.VolumeConnector.list(None)) == 1


def test_target_crud_and_boot_index(client, node):
    _set_states(node)
    tgt = _target(client, node, properties={'auth_password': 'secret',
                                            'target_lun': 0})
    assert tgt['properties'] == {'auth_password': '******', 'target_lun': 0}
    resp = client.post_json(T, {'node_uuid': node['uuid'],
                                'volume_type': 'iscsi', 'boot_index': 0,
                                'volume_id': 'v2'})
    assert resp.status_int == 409
    assert utils.faultstring(resp) == (
        "A volume target with boot index '0' for the same node already "
        "exists.")
    listed = client.get(T + '?node=' + node['uuid']).json['targets']
    assert set(listed[0]) == {'uuid', 'node_uuid', 'volume_type',
                              'boot_index', 'volume_id', 'links'}
    url = T + '/' + tgt['uuid']
    resp = client.patch_json(url, [{'op': 'replace', 'path': '/boot_index',
                                    'value': 1}])
    assert resp.json['boot_index'] == 1
    stored = objects.VolumeTarget.get(None, tgt['uuid'])
    assert stored.properties['auth_password'] == 'secret'
    assert client.delete(url).status_int == 204
    assert objects.VolumeTarget.list(None) == []


def test_node_sub_collections(client, node):
    conn = _connector(client, node)
    tgt = _target(client, node)
    base = '/v1/nodes/%s/volume' % node['uuid']
    assert [c['uuid'] for c in client.get(base + '/connectors').json[
        'connectors']] == [conn['uuid']]
    assert [t['uuid'] for t in client.get(base + '/targets').json[
        'targets']] == [tgt['uuid']]
    resp = client.get(base + '/connectors/' + conn['uuid'])
    assert resp.status_int == 400
    assert utils.faultstring(resp) == 'Malformed request URI.'
    assert client.get('/v1/nodes/%s/volume/targets'
                      % '1be26c0b-03f2-4d2e-ae87-c02d7f33c123'
                      ).status_int == 404


def test_node_deletion_deletes_volume(client, node):
    _connector(client, node)
    _target(client, node)
    assert client.delete('/v1/nodes/' + node['uuid']).status_int == 204
    assert objects.VolumeConnector.list(None) == []
    assert objects.VolumeTarget.list(None) == []


def test_update_needs_power_off(client, node):
    conn = _connector(client, node)
    _set_states(node, 'power on', 'active')
    url = C + '/' + conn['uuid']
    resp = client.patch_json(url, [{'op': 'replace', 'path': '/type',
                                    'value': 'ip'}])
    assert resp.status_int == 400
    assert utils.faultstring(resp) == (
        'The requested action "volume connector update" can not be '
        'performed on node "%s" while it is in state "power on".'
        % node['uuid'])
    resp = client.delete(url)
    assert resp.status_int == 400
    assert 'volume connector deletion' in utils.faultstring(resp)
    assert objects.VolumeConnector.get(None, conn['uuid']).type == 'iqn'


def test_pinned_to_3_0_reads_served_writes_refused(client, node,
                                                   config_pin):
    conn = _connector(client, node)
    config_pin('3.0')
    assert client.get(C).json['connectors'][0]['uuid'] == conn['uuid']
    assert client.get(C + '/' + conn['uuid']).status_int == 200
    resp = client.post_json(T, {'node_uuid': node['uuid'],
                                'volume_type': 'iscsi', 'boot_index': 0,
                                'volume_id': 'v1'})
    assert resp.status_int == 409
    assert 'pinned to release 3.0' in utils.faultstring(resp)
    resp = client.patch_json(C + '/' + conn['uuid'],
                             [{'op': 'replace', 'path': '/type',
                               'value': 'ip'}])
    assert resp.status_int == 409
    assert client.delete(C + '/' + conn['uuid']).status_int == 409
    assert objects.VolumeTarget.list(None) == []
    assert objects.VolumeConnector.get(None, conn['uuid']).type == 'iqn'


def test_target_properties_need_their_rule(keystone_client):  # noqa: F811
    world = test_acl.World(keystone_client)
    ident = world.volume_record('targets')
    url = T + '/' + ident
    resp = keystone_client.patch_json(
        url, [{'op': 'add', 'path': '/properties',
               'value': {'target_iqn': 'iqn.x', 'auth_password': 'pw'}}],
        headers=test_acl._as('system_admin'))
    assert resp.status_int == 200, resp.text
    shown = {'target_iqn': 'iqn.x', 'auth_password': '******'}
    for persona, properties in (
            ('system_reader', shown), ('owner_admin', shown),
            ('owner_member', REDACTED),
            ('lessee_reader', REDACTED)):
        got = keystone_client.get(url, headers=test_acl._as(persona)).json
        assert got['properties'] == properties, persona
        listed = keystone_client.get(T + '?detail=True',
                                     headers=test_acl._as(persona)).json
        assert listed['targets'][0]['properties'] == properties, persona


def test_list_paging_sorting_and_refusals(client, node):
    first = _connector(client, node, connector_id='a')
    _connector(client, node, connector_id='b')
    page = client.get(C + '?limit=1&detail=False').json
    assert [c['uuid'] for c in page['connectors']] == [first['uuid']]
    assert page['next'] == (
        'http://localhost/v1/volume/connectors?sort_key=id&sort_dir=asc&'
        'fields=uuid,node_uuid,type,connector_id&limit=1&marker=%s'
        % first['uuid'])
    ids = [c['connector_id'] for c in client.get(
        C + '?sort_key=connector_id&sort_dir=desc').json['connectors']]
    assert ids == ['b', 'a']
    for query, message in (
            ('sort_key=extra', 'The sort_key value extra is an invalid '
                               'field for sorting'),
            ('detail=True&fields=uuid', "Can't fetch a subset of fields "
                                        "with 'detail' set"),
            ('fields=links', 'Field(s) "links" are not valid'),
            ('nope=1', 'Additional properties are not allowed')):
        resp = client.get(C + '?' + query)
        assert resp.status_int == 400, query
        assert message in utils.faultstring(resp), query
    assert client.get(C + '?node=no-such-node').status_int == 404
    resp = client.get(C + '/detail')
    assert resp.status_int == 400
    assert utils.faultstring(resp) == (
        'Expected UUID for connector_uuid: detail')


def test_move_a_connector_to_another_node(client, node):
    _set_states(node)
    other = client.post_json('/v1/nodes', {'driver': 'fake-hardware'}).json
    _set_states(other)
    conn = _connector(client, node)
    url = C + '/' + conn['uuid']
    resp = client.patch_json(url, [{'op': 'replace', 'path': '/node_uuid',
                                    'value': 'not-a-uuid'}])
    assert resp.status_int == 400
    assert utils.faultstring(resp) == (
        'Expected a UUID for node_uuid, but received not-a-uuid.')
    resp = client.patch_json(url, [{'op': 'replace', 'path': '/node_uuid',
                                    'value': other['uuid']}])
    assert resp.status_int == 200, resp.text
    assert resp.json['node_uuid'] == other['uuid']
    assert client.get('/v1/nodes/%s/volume/connectors' % node['uuid']
                      ).json['connectors'] == []
    resp = client.patch_json(url, [{'op': 'remove', 'path': '/type'}])
    assert resp.status_int == 400
    assert "'type' is a required property" in utils.faultstring(resp)
    resp = client.patch_json(url, [{'op': 'replace', 'path': '/uuid',
                                    'value': other['uuid']}])
    assert resp.status_int == 400


def test_target_limits_are_400_before_any_write(client, node):
    for body in ({'boot_index': 2 ** 31}, {'boot_index': '0'},
                 {'volume_id': 'x' * 37}, {'volume_type': None}):
        resp = client.post_json(T, dict({
            'node_uuid': node['uuid'], 'volume_type': 'iscsi',
            'boot_index': 0, 'volume_id': 'v'}, **body))
        assert resp.status_int == 400, body
        assert utils.faultstring(resp).startswith(
            'Schema error for target:'), utils.faultstring(resp)
    assert objects.VolumeTarget.list(None) == []
