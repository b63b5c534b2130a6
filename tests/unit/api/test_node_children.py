"""Child nodes (1.83, api/controllers/v1/node_children.py): the node's
``parent_node`` on create, show and patch, the node list's child filters
(``?include_children=``, ``?parent_node=``) and
``GET /v1/nodes/<ident>/children``, as Ironic 39 answers them."""

import pytest

from tests.unit.api import utils

OLD = '1.82'


_create = utils.create_named_node
_names = utils.node_names


def _invalid(ident):
    return ("Unable to apply the requested parent_node '%s'. Requested "
            "value was invalid." % ident)


@pytest.fixture
def family(client):
    """p1 with children c1 and c2 (c1 named by its parent's name, c2 by
    its UUID); p2 with no child."""
    p1 = _create(client, 'p1')
    _create(client, 'p2')
    _create(client, 'c1', parent_node='p1')
    _create(client, 'c2', parent_node=p1['uuid'])
    return p1['uuid']


# -- the field -------------------------------------------------------------

def test_parent_given_by_name_is_stored_as_its_uuid(client, family):
    child = client.get('/v1/nodes/c1').json
    assert child['parent_node'] == family
    assert utils.stored_node(child['uuid']).parent_node == family
    assert client.get('/v1/nodes/p1').json['parent_node'] is None
    shown = client.get('/v1/nodes/c2?fields=parent_node').json
    assert shown['parent_node'] == family


def test_parent_node_absent_and_refused_below_1_83(client, family):
    assert 'parent_node' not in client.get('/v1/nodes/c1', version=OLD).json
    resp = client.get('/v1/nodes/c1?fields=parent_node', version=OLD)
    assert resp.status_int == 406
    resp = client.post_json('/v1/nodes', {'driver': 'fake-hardware',
                                          'parent_node': 'p1'}, version=OLD)
    assert resp.status_int == 406
    assert utils.faultstring(resp).endswith('should be 1.83')
    resp = client.patch_json('/v1/nodes/p2', [
        {'op': 'add', 'path': '/parent_node', 'value': 'p1'}], version=OLD)
    assert resp.status_int == 406
    assert client.get('/v1/nodes/p2').json['parent_node'] is None


@pytest.mark.parametrize('ident', [
    'no-such-node', '6d5c1a8e-3f2b-4c7d-9e0a-1b2c3d4e5f60'])
def test_unknown_parent_400(client, ident):
    resp = client.post_json('/v1/nodes', {'driver': 'fake-hardware',
                                          'name': 'c1', 'parent_node': ident})
    utils.refused_400(resp, _invalid(ident))
    assert client.get('/v1/nodes/c1').status_int == 404


def test_parent_of_another_owner_400_as_if_absent(client):
    _create(client, 'p1', owner='proj1')
    resp = client.post_json('/v1/nodes', {'driver': 'fake-hardware',
                                          'parent_node': 'p1'})
    utils.refused_400(resp, _invalid('p1'))
    child = _create(client, 'c1', owner='proj1', parent_node='p1')
    assert child['parent_node'] == client.get('/v1/nodes/p1').json['uuid']


def test_parent_node_longer_than_a_uuid_400(client):
    resp = client.post_json('/v1/nodes', {'driver': 'fake-hardware',
                                          'parent_node': 'x' * 37})
    assert resp.status_int == 400
    assert 'is too long' in utils.faultstring(resp)


def test_patch_sets_and_removes_the_parent(client, family):
    resp = client.patch_json('/v1/nodes/p2', [
        {'op': 'add', 'path': '/parent_node', 'value': 'p1'}])
    assert resp.status_int == 200, resp.text
    assert resp.json['parent_node'] == family
    resp = client.patch_json('/v1/nodes/p2', [
        {'op': 'remove', 'path': '/parent_node'}])
    assert resp.status_int == 200, resp.text
    assert resp.json['parent_node'] is None
    utils.refused_400(client.patch_json('/v1/nodes/p2', [
        {'op': 'replace', 'path': '/parent_node', 'value': 'nope'}]),
        _invalid('nope'))


def test_a_node_can_not_be_its_own_parent(client, family):
    resp = client.patch_json('/v1/nodes/p2', [
        {'op': 'replace', 'path': '/parent_node', 'value': 'p2'}])
    utils.refused_400(resp, _invalid('p2'))
    assert client.get('/v1/nodes/p2').json['parent_node'] is None


# -- node lists -------------------------------------------------------------

@pytest.mark.parametrize('version', ['1.1', OLD, None])
def test_children_left_out_of_node_lists_at_every_version(client, family,
                                                          version):
    """As Ironic, whose database layer leaves them out of every list that
    does not ask for them (so also below 1.83)."""
    resp = client.get('/v1/nodes?fields=uuid', version='1.8')
    assert len(resp.json['nodes']) == 2
    if version != '1.1':
        assert _names(client.get('/v1/nodes', version=version)) == [
            'p1', 'p2']
        assert _names(client.get('/v1/nodes/detail',
                                 version=version)) == ['p1', 'p2']


def test_include_children_and_parent_node_filters(client, family):
    everyone = ['c1', 'c2', 'p1', 'p2']
    assert _names(client.get('/v1/nodes?include_children=true')) == everyone
    assert _names(client.get('/v1/nodes/detail?include_children=True')) == (
        everyone)
    assert _names(client.get('/v1/nodes?include_children=false')) == [
        'p1', 'p2']
    assert _names(client.get('/v1/nodes?parent_node=' + family)) == [
        'c1', 'c2']
    # The stored value is compared: a name matches nothing (as Ironic).
    assert _names(client.get('/v1/nodes?parent_node=p1')) == []
    # As Ironic: with include_children=true, parent_node is not applied.
    assert _names(client.get(
        '/v1/nodes?include_children=true&parent_node=' + family)) == everyone


def test_child_filters_406_below_1_83(client, family):
    for query in ('include_children=true', 'parent_node=' + family):
        resp = client.get('/v1/nodes?' + query, version=OLD)
        assert resp.status_int == 406, query
        assert utils.faultstring(resp).endswith('should be 1.83')
    resp = client.get('/v1/nodes?include_children=maybe')
    assert resp.status_int == 400


def test_children_of_a_chassis_left_out_too(client):
    chassis = client.post_json('/v1/chassis', {}).json['uuid']
    _create(client, 'p1', chassis_uuid=chassis)
    _create(client, 'c1', chassis_uuid=chassis, parent_node='p1')
    assert _names(client.get('/v1/chassis/%s/nodes' % chassis)) == ['p1']


# -- GET /v1/nodes/<ident>/children -------------------------------------------

def test_children_of_a_node(client, family):
    resp = client.get('/v1/nodes/p1/children')
    assert resp.status_int == 200, resp.text
    assert set(resp.json) == {'children', 'links'}
    uuids = {client.get('/v1/nodes/' + name).json['uuid']
             for name in ('c1', 'c2')}
    assert sorted(resp.json['children']) == sorted(uuids)
    assert resp.json['links'] == {
        'href': 'http://localhost/v1/nodes?parent_node=' + family,
        'rel': 'children'}
    resp = client.get('/v1/nodes/%s/children' % family)
    assert sorted(resp.json['children']) == sorted(uuids)
    assert client.get('/v1/nodes/p2/children').json['children'] == []


def test_children_path_404_below_1_83_and_for_unknown_nodes(client, family):
    assert client.get('/v1/nodes/p1/children', version=OLD).status_int == 404
    resp = client.get('/v1/nodes/nope/children')
    assert resp.status_int == 404
    assert utils.faultstring(resp) == 'Node nope could not be found.'
    # A sub-resource's name is never looked up as a node.
    assert client.get('/v1/nodes/children').status_int == 404


# -- who sees which children (http_basic users) ------------------------------

# user -> ":roles:project" suffix of the htpasswd line (see api/auth.py)
USERS = {
    'admin': '',                     # system admin
    'owner': ':member:proj1',        # member of the owning project
    'lessee': ':reader:proj2',       # reader of the leasing project
    'other': ':admin:proj3',         # admin of an unrelated project
}


def test_a_project_lists_the_children_it_owns_or_leases(basic):
    admin = utils.basic_auth('admin')

    def create(name, **fields):
        body = dict({'driver': 'fake-hardware', 'name': name,
                     'owner': 'proj1'}, **fields)
        resp = basic.post_json('/v1/nodes', body, headers=admin)
        assert resp.status_int == 201, resp.text
        return resp.json['uuid']

    create('p1', lessee='proj2')
    leased = create('c1', lessee='proj2', parent_node='p1')
    owned = create('c2', parent_node='p1')

    def children(user):
        resp = basic.get('/v1/nodes/p1/children',
                         headers=utils.basic_auth(user))
        return resp.status_int, sorted(resp.json.get('children', []))

    assert children('admin') == (200, sorted([leased, owned]))
    assert children('owner') == (200, sorted([leased, owned]))
    assert children('lessee') == (200, [leased])
    assert children('other')[0] == 404
    # Only the system member and up may change a node's parent.
    resp = basic.patch_json('/v1/nodes/c2', [
        {'op': 'remove', 'path': '/parent_node'}],
        headers=utils.basic_auth('owner'))
    assert resp.status_int == 403
