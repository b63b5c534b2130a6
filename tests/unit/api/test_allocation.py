"""/v1/allocations and /v1/nodes/<n>/allocation (API 1.52-1.60)."""

from oslo_utils import uuidutils
import pytest

from ironic_lite import conf
from ironic_lite import objects
from tests.unit.api import utils

CONF = conf.CONF


def _ready(client, name, resource_class='gold', traits=(), **extra):
    """An available node that an allocation may take."""
    resp = client.post_json('/v1/nodes', {'driver': 'fake-hardware',
                                          'name': name})
    assert resp.status_int == 201, resp.text
    node = objects.Node.get_by_uuid(None, resp.json['uuid'])
    node.provision_state = 'available'
    node.power_state = 'power off'
    node.resource_class = resource_class
    for key, value in extra.items():
        setattr(node, key, value)
    node.save()
    for trait in traits:
        objects.Trait(node_id=node.id, trait=trait).create()
    return node


def _create(client, body, **kwargs):
    return client.post_json('/v1/allocations', body, **kwargs)


def test_create_reserves_a_matching_node(client):
    _ready(client, 'silver-1', resource_class='silver')
    gold = _ready(client, 'gold-1', traits=('CUSTOM_GPU',))
    _ready(client, 'gold-2')
    resp = _create(client, {'resource_class': 'gold',
                            'traits': ['CUSTOM_GPU'], 'name': 'a1'})
    assert resp.status_int == 201, resp.text
    body = resp.json
    assert resp.headers['Location'].endswith('/v1/allocations/' + body['uuid'])
    shown = client.get('/v1/allocations/a1').json
    assert shown['state'] == 'active'
    assert shown['node_uuid'] == gold.uuid
    assert shown['traits'] == ['CUSTOM_GPU']
    node = client.get('/v1/nodes/gold-1').json
    assert node['allocation_uuid'] == body['uuid']
    assert node['instance_uuid'] == body['uuid']
    assert client.get('/v1/nodes/gold-1/allocation').json['uuid'] == \
        body['uuid']
    listed = client.get('/v1/nodes?fields=uuid,allocation_uuid').json
    by_uuid = {n['uuid']: n['allocation_uuid'] for n in listed['nodes']}
    assert by_uuid[gold.uuid] == body['uuid']
    assert list(by_uuid.values()).count(None) == 2


def test_no_match_is_an_error_allocation(client):
    _ready(client, 'gold-1')
    resp = _create(client, {'resource_class': 'gold',
                            'traits': ['CUSTOM_MISSING']})
    assert resp.status_int == 201, resp.text
    shown = client.get('/v1/allocations/' + resp.json['uuid']).json
    assert shown['state'] == 'error'
    assert shown['node_uuid'] is None
    assert shown['last_error'] == (
        'Failed to process allocation %s: no suitable nodes have the '
        'requested traits CUSTOM_MISSING.' % resp.json['uuid'])


# -- microversion gates ------------------------------------------------------

def test_older_versions_do_not_know_allocations(client):
    resp = client.get('/v1/allocations', version='1.51')
    assert resp.status_int == 404
    assert 'The API version does not allow allocations' in resp.text
    resp = _create(client, {'resource_class': 'gold'}, version='1.51')
    assert resp.status_int == 405
    resp = client.get('/v1/nodes/x/allocation', version='1.51')
    assert resp.status_int == 404
    assert 'allocations' not in client.get('/v1', version='1.51').json
    links = client.get('/v1', version='1.52').json['allocations']
    assert links[0]['href'].endswith('/v1/allocations/')


def test_patch_needs_1_57(client):
    uuid = _create(client, {'resource_class': 'x'}).json['uuid']
    patch = [{'op': 'add', 'path': '/name', 'value': 'n1'}]
    resp = client.patch_json('/v1/allocations/' + uuid, patch,
                             version='1.56')
    assert resp.status_int == 405
    resp = client.patch_json('/v1/allocations/' + uuid, patch,
                             version='1.57')
    assert resp.status_int == 200, resp.text
    assert resp.json['name'] == 'n1'


def test_owner_from_1_60(client):
    resp = _create(client, {'resource_class': 'x', 'owner': 'p1'},
                   version='1.59')
    assert resp.status_int == 406
    uuid = _create(client, {'resource_class': 'x', 'owner': 'p1'}).json[
        'uuid']
    assert 'owner' not in client.get('/v1/allocations/' + uuid,
                                     version='1.59').json
    assert client.get('/v1/allocations/' + uuid).json['owner'] == 'p1'
    resp = client.get('/v1/allocations?fields=owner', version='1.59')
    assert resp.status_int == 406
    resp = client.get('/v1/allocations?owner=p1', version='1.59')
    assert resp.status_int == 406
    listed = client.get('/v1/allocations?owner=p1').json['allocations']
    assert [a['uuid'] for a in listed] == [uuid]


def test_node_of_a_backfill_from_1_58(client):
    resp = _create(client, {'resource_class': 'x', 'node': 'n'},
                   version='1.57')
    assert resp.status_int == 400
    assert "'node' was unexpected" in utils.faultstring(resp)


# -- what a new allocation is checked for -------------------------------------

@pytest.mark.parametrize('body, message', [
    ({}, 'The resource_class field is mandatory when not backfilling'),
    ({'resource_class': 'x', 'name': 'bad name'},
     "Cannot create allocation with invalid name 'bad name'"),
    ({'resource_class': 'x', 'candidate_nodes': ['nope']},
     'Nodes cannot be found: nope'),
    ({'resource_class': 'x', 'uuid': 'not-a-uuid'},
     'Expected UUID for uuid: not-a-uuid'),
    ({'resource_class': 'x', 'traits': ['not a trait']}, 'not a trait'),
    ({'resource_class': 'x' * 81}, 'is too long'),
    ({'resource_class': 'x', 'bogus': 1}, "'bogus' was unexpected"),
])
def test_bad_creations_are_400_and_write_nothing(client, rpcapi, body,
                                                 message):
    resp = _create(client, body)
    assert resp.status_int == 400, resp.text
    assert message in utils.faultstring(resp)
    assert client.get('/v1/allocations').json['allocations'] == []
    assert not [c for c in rpcapi.calls if c[0] == 'create_allocation']


def test_duplicate_name_is_409(client):
    assert _create(client, {'resource_class': 'x',
                            'name': 'a1'}).status_int == 201
    resp = _create(client, {'resource_class': 'x', 'name': 'a1'})
    assert resp.status_int == 409
    assert utils.faultstring(resp) == (
        'An allocation with name a1 already exists.')
    assert len(client.get('/v1/allocations').json['allocations']) == 1


def test_candidate_names_become_uuids_in_order(client):
    one = _ready(client, 'one')
    two = _ready(client, 'two')
    resp = _create(client, {'resource_class': 'gold',
                            'candidate_nodes': ['two', one.uuid]})
    assert resp.status_int == 201, resp.text
    assert resp.json['candidate_nodes'] == [two.uuid, one.uuid]
    assert resp.json['node_uuid'] in (one.uuid, two.uuid)


def test_candidates_too_large_as_uuids_are_refused(client):
    """Short names are within the body's limit but their UUIDs are not
    within the column's: a 400, nothing stored (the database's refusal
    was a 500 on MariaDB)."""
    _ready(client, 'n', resource_class='x')
    resp = _create(client, {'resource_class': 'x',
                            'candidate_nodes': ['n'] * 2000},
                   expect_errors=True)
    assert resp.status_int == 400, resp.text
    assert 'candidate_nodes is too large' in utils.faultstring(resp)
    assert client.get('/v1/allocations').json['allocations'] == []


def test_candidates_limit_the_choice(client):
    _ready(client, 'one')
    two = _ready(client, 'two')
    for _ in range(3):
        resp = _create(client, {'resource_class': 'gold',
                                'candidate_nodes': ['two']})
        if resp.json['state'] == 'active':
            assert resp.json['node_uuid'] == two.uuid
    states = sorted(a['state'] for a in
                    client.get('/v1/allocations').json['allocations'])
    assert states == ['active', 'error', 'error']


def test_backfill_records_a_deployed_node(client):
    node = _ready(client, 'deployed')
    instance = uuidutils.generate_uuid()
    node.provision_state = 'active'
    node.instance_uuid = instance
    node.save()
    resp = _create(client, {'node': 'deployed'})
    assert resp.status_int == 201, resp.text
    assert resp.json['uuid'] == instance
    assert resp.json['state'] == 'active'
    assert resp.json['resource_class'] == 'gold'
    assert resp.json['node_uuid'] == node.uuid
    assert client.get('/v1/nodes/deployed').json['allocation_uuid'] == \
        instance


def test_backfill_of_an_available_node_is_400(client):
    _ready(client, 'free')
    resp = _create(client, {'node': 'free'})
    assert resp.status_int == 400
    assert 'Node must be in the "active" state' in utils.faultstring(resp)
    [allocation] = client.get('/v1/allocations').json['allocations']
    assert allocation['state'] == 'error'


def test_backfill_of_a_missing_node_is_400(client):
    resp = _create(client, {'node': 'missing'})
    assert resp.status_int == 400
    assert client.get('/v1/allocations').json['allocations'] == []


# -- update and delete --------------------------------------------------------

def test_patch_only_name_and_extra(client):
    uuid = _create(client, {'resource_class': 'x'}).json['uuid']
    resp = client.patch_json('/v1/allocations/' + uuid, [
        {'op': 'replace', 'path': '/resource_class', 'value': 'y'}])
    assert resp.status_int == 400
    assert utils.faultstring(resp) == (
        'Cannot patch /resource_class. Only the following can be updated: '
        'name, extra')
    resp = client.patch_json('/v1/allocations/' + uuid, [
        {'op': 'add', 'path': '/name', 'value': 'bad name'}])
    assert resp.status_int == 400
    resp = client.patch_json('/v1/allocations/' + uuid, [
        {'op': 'add', 'path': '/extra/k', 'value': 'v'}])
    assert resp.status_int == 200
    assert resp.json['extra'] == {'k': 'v'}


def test_delete_frees_the_node(client):
    node = _ready(client, 'gold-1')
    uuid = _create(client, {'resource_class': 'gold'}).json['uuid']
    assert client.delete('/v1/allocations/' + uuid).status_int == 204
    shown = client.get('/v1/nodes/gold-1').json
    assert shown['allocation_uuid'] is None
    assert shown['instance_uuid'] is None
    assert client.get('/v1/allocations/' + uuid).status_int == 404
    assert objects.Node.get_by_uuid(None, node.uuid).allocation_id is None


def test_delete_of_an_active_node_allocation_is_409(client):
    node = _ready(client, 'gold-1')
    uuid = _create(client, {'resource_class': 'gold'}).json['uuid']
    node = objects.Node.get_by_uuid(None, node.uuid)
    node.provision_state = 'active'
    node.save()
    resp = client.delete('/v1/nodes/gold-1/allocation')
    assert resp.status_int == 409
    assert 'because the node is active' in utils.faultstring(resp)
    assert client.get('/v1/allocations/' + uuid).status_int == 200


def test_node_allocation_missing(client):
    _ready(client, 'free')
    resp = client.get('/v1/nodes/free/allocation')
    assert resp.status_int == 404
    assert utils.faultstring(resp) == (
        'Allocation for node free was not found')
    assert client.delete('/v1/nodes/free/allocation').status_int == 404
    assert client.get('/v1/nodes/missing/allocation').status_int == 400


def test_tear_down_and_node_deletion_remove_the_allocation(client):
    node = _ready(client, 'gold-1')
    uuid = _create(client, {'resource_class': 'gold'}).json['uuid']
    node = objects.Node.get_by_uuid(None, node.uuid)
    node.instance_uuid = None   # what a tear down does
    node.save()
    assert node.allocation_id is None
    assert client.get('/v1/allocations/' + uuid).status_int == 404
    _ready(client, 'gold-2', maintenance=True)
    uuid = _create(client, {'resource_class': 'gold',
                            'candidate_nodes': ['gold-1']}).json['uuid']
    assert client.get('/v1/allocations/' + uuid).json['state'] == 'active'
    objects.Node.get_by_uuid(None, node.uuid).destroy()
    assert client.get('/v1/allocations/' + uuid).status_int == 404


def test_list_filters_and_paging(client):
    _ready(client, 'gold-1')
    first = _create(client, {'resource_class': 'gold'}).json
    second = _create(client, {'resource_class': 'gold'}).json
    assert first['state'] == 'active' and second['state'] == 'error'
    body = client.get('/v1/allocations?state=error').json
    assert [a['uuid'] for a in body['allocations']] == [second['uuid']]
    body = client.get('/v1/allocations?node=gold-1').json
    assert [a['uuid'] for a in body['allocations']] == [first['uuid']]
    body = client.get('/v1/allocations?limit=1').json
    assert 'marker=%s' % first['uuid'] in body['next']
    body = client.get('/v1/allocations?resource_class=silver').json
    assert body['allocations'] == []
    assert client.get('/v1/allocations?node=nope').status_int == 400
    resp = client.get('/v1/allocations?sort_key=traits')
    assert resp.status_int == 400
    resp = client.get('/v1/allocations?fields=uuid,bogus')
    assert resp.status_int == 400


# -- pinned to release 3.0 (no RPC 1.5): reads served, writes 409 ------------

def test_pinned_to_3_0_reads_but_refuses_writes(client, config_pin,
                                                rpcapi):
    _ready(client, 'gold-1')
    held = _create(client, {'resource_class': 'gold'}).json['uuid']
    uuid = _create(client, {'resource_class': 'x', 'name': 'a1'}).json[
        'uuid']
    config_pin('3.0')
    assert client.get('/v1/allocations/a1').status_int == 200
    assert client.get('/v1/nodes/gold-1/allocation').json['uuid'] == held
    assert client.get('/v1/nodes/gold-1').json['allocation_uuid'] == held
    assert client.delete('/v1/nodes/gold-1/allocation').status_int == 409
    assert len(client.get('/v1/allocations').json['allocations']) == 2
    before = list(rpcapi.calls)
    resp = _create(client, {'resource_class': 'x', 'name': 'a2'})
    assert resp.status_int == 409
    assert 'pinned to release 3.0' in utils.faultstring(resp)
    resp = client.patch_json('/v1/allocations/a1', [
        {'op': 'add', 'path': '/name', 'value': 'a3'}])
    assert resp.status_int == 409
    assert client.delete('/v1/allocations/a1').status_int == 409
    assert rpcapi.calls == before
    CONF.clear_override('pin_release_version')
    listed = client.get('/v1/allocations').json['allocations']
    assert [(a['uuid'], a['name']) for a in listed] == [(held, None),
                                                        (uuid, 'a1')]


def test_owner_of_a_node_allocated_with_an_owner_is_kept(client):
    _ready(client, 'gold-1', owner='p1')
    _ready(client, 'gold-2')
    _create(client, {'resource_class': 'gold', 'owner': 'p1'})
    resp = client.patch_json('/v1/nodes/gold-1', [
        {'op': 'replace', 'path': '/owner', 'value': 'p2'}])
    assert resp.status_int == 409
    assert utils.faultstring(resp) == (
        'Cannot update owner of node "%s" while it is allocated to an '
        'allocation with an  owner.' % client.get(
            '/v1/nodes/gold-1').json['uuid'])
    _create(client, {'resource_class': 'gold'})
    resp = client.patch_json('/v1/nodes/gold-2', [
        {'op': 'add', 'path': '/owner', 'value': 'p2'}])
    assert resp.status_int == 200, resp.text
