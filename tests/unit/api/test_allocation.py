"""/v1/allocations and /v1/nodes/<n>/allocation (API 1.52-1.60)."""

from oslo_utils import uuidutils
import pytest

from ironic_lite import conf
from ironic_lite import objects

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
