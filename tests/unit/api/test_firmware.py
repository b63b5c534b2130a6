"""/v1/nodes/<n>/firmware (1.86; vendor, model, serial_number 1.114)."""

import pytest

from ironic_lite.common import context
from ironic_lite import objects
from tests.unit.api import utils

URL = '/v1/nodes/node-0/firmware'
COMPONENTS = [
    {'component': 'bios', 'current_version': '1.0.0', 'vendor': 'Contoso',
     'model': 'B1', 'serial_number': 'S-1'},
    {'component': 'bmc', 'current_version': '2.1', 'vendor': None,
     'model': 'Joo Janta 200', 'serial_number': None},
]
BASIC = {'component', 'initial_version', 'current_version',
         'last_version_flashed', 'created_at', 'updated_at'}
IDENTITY = {'vendor', 'model', 'serial_number'}


def _sync(node, components):
    ctx = context.get_admin_context()
    node_id = objects.Node.get_by_uuid(ctx, node['uuid']).id
    return objects.FirmwareComponentList.sync(ctx, node_id, components)


@pytest.fixture
def components(node):
    _sync(node, COMPONENTS)
    return node


def test_list_at_1_86_has_no_identity(make_client, components):
    body = make_client('1.86').get(URL).json
    assert set(body) == {'firmware'}
    assert [c['component'] for c in body['firmware']] == ['bios', 'bmc']
    bios = body['firmware'][0]
    assert set(bios) == BASIC
    assert (bios['initial_version'], bios['current_version'],
            bios['last_version_flashed']) == ('1.0.0', '1.0.0', None)
    assert bios['created_at'] and bios['updated_at'] is None


def test_list_at_1_114_has_identity(make_client, components):
    body = make_client('1.114').get(URL).json
    bios, bmc = body['firmware']
    assert set(bios) == BASIC | IDENTITY
    assert (bios['vendor'], bios['model'], bios['serial_number']) == (
        'Contoso', 'B1', 'S-1')
    assert bmc['vendor'] is None and bmc['model'] == 'Joo Janta 200'


def test_a_flashed_version_is_recorded(client, components):
    created, updated, unchanged = _sync(components, [
        dict(COMPONENTS[0], current_version='1.1.0'), COMPONENTS[1]])
    assert (created, updated, unchanged) == ([], ['bios'], ['bmc'])
    bios = client.get(URL).json['firmware'][0]
    assert (bios['initial_version'], bios['current_version'],
            bios['last_version_flashed']) == ('1.0.0', '1.1.0', '1.1.0')
    assert bios['updated_at']


def test_fields_and_detail(make_client, components):
    client = make_client('1.114')
    chosen = client.get(URL + '?fields=component,vendor').json['firmware']
    assert set(chosen[0]) == {'component', 'vendor', 'created_at',
                              'updated_at'}
    # Ironic's answer to ?detail=true: the times only.
    detail = client.get(URL + '?detail=true').json['firmware']
    assert set(detail[0]) == {'created_at', 'updated_at'}
    resp = client.get(URL + '?detail=true&fields=component')
    assert resp.status_int == 400
    assert 'Can not specify ?detail=True and fields' in utils.faultstring(
        resp)
    resp = client.get(URL + '?fields=component,bogus')
    assert resp.status_int == 400
    assert '"bogus"' in utils.faultstring(resp)
    assert client.get(URL + '?detail=maybe').status_int == 400
    assert client.get(URL + '?other=1').status_int == 400


def test_identity_fields_refused_below_1_114(make_client, components):
    resp = make_client('1.113').get(URL + '?fields=component,model,vendor')
    assert resp.status_int == 400
    assert utils.faultstring(resp) == (
        'Fields model, vendor are not allowed in this API version. They '
        'require at least API version 1.114.')


def test_not_found_below_1_86(make_client, components):
    assert make_client('1.85').get(URL).status_int == 404


def test_no_components_is_an_empty_list(client, node):
    assert client.get(URL).json == {'firmware': []}


def test_unknown_node_is_404(client):
    assert client.get('/v1/nodes/nope/firmware').status_int == 404


def test_components_deleted_with_the_node(client, components):
    ctx = context.get_admin_context()
    node = objects.Node.get_by_uuid(ctx, components['uuid'])
    node.destroy()
    assert objects.FirmwareComponentList.get_by_node_id(
        ctx, node.id).objects == []


def test_nothing_stored_while_pinned_to_5_0(config_pin, node):
    config_pin('5.0')
    assert _sync(node, COMPONENTS) == ([], [], [])
