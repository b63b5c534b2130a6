"""node.instance_name (API 1.104: shown, settable, ?instance_name= on the
node list) and node.service_step (1.87: shown), as Ironic 39."""

import pytest

from tests.unit.api import utils

OLD = '1.103'
NEW = '1.104'


def _node(client, name, instance_name=None):
    body = {'driver': 'fake-hardware', 'name': name}
    if instance_name is not None:
        body['instance_name'] = instance_name
    resp = client.post_json('/v1/nodes', body, version=NEW)
    assert resp.status_int == 201, resp.text
    return resp.json


def test_create_with_instance_name_and_show(client):
    created = _node(client, 'n1', 'vm-1')
    assert created['instance_name'] == 'vm-1'
    assert client.get('/v1/nodes/n1', version=NEW).json[
        'instance_name'] == 'vm-1'


def test_hidden_and_refused_below_1_104(client):
    _node(client, 'n1', 'vm-1')
    assert 'instance_name' not in client.get('/v1/nodes/n1',
                                             version=OLD).json
    assert client.get('/v1/nodes/n1?fields=instance_name',
                      version=OLD).status_int == 406
    resp = client.post_json('/v1/nodes', {'driver': 'fake-hardware',
                                          'instance_name': 'x'},
                            version=OLD)
    assert resp.status_int == 406
    resp = client.patch_json('/v1/nodes/n1', [
        {'op': 'replace', 'path': '/instance_name', 'value': 'x'}],
        version=OLD)
    assert resp.status_int == 406
    assert client.get('/v1/nodes?instance_name=vm-1',
                      version=OLD).status_int == 406


def test_patch_sets_and_removes_it(client):
    _node(client, 'n1')
    resp = client.patch_json('/v1/nodes/n1', [
        {'op': 'add', 'path': '/instance_name', 'value': 'vm-2'}],
        version=NEW)
    assert resp.status_int == 200, resp.text
    assert resp.json['instance_name'] == 'vm-2'
    resp = client.patch_json('/v1/nodes/n1', [
        {'op': 'remove', 'path': '/instance_name'}], version=NEW)
    assert resp.status_int == 200, resp.text
    assert resp.json['instance_name'] is None


@pytest.mark.parametrize('value', ['', 'x' * 256, 42])
def test_bad_values_are_400(client, value):
    node = _node(client, 'n1')
    resp = client.patch_json('/v1/nodes/n1', [
        {'op': 'add', 'path': '/instance_name', 'value': value}],
        version=NEW)
    assert resp.status_int == 400
    assert utils.stored_node(node['uuid']).instance_name is None
    resp = client.post_json('/v1/nodes', {'driver': 'fake-hardware',
                                          'instance_name': value},
                            version=NEW)
    assert resp.status_int == 400


def test_the_longest_name_is_kept(client):
    created = _node(client, 'n1', 'x' * 255)
    assert created['instance_name'] == 'x' * 255


def test_display_name_in_instance_info_names_the_instance(client):
    _node(client, 'n1')
    resp = client.patch_json('/v1/nodes/n1', [
        {'op': 'add', 'path': '/instance_info/display_name',
         'value': 'from-nova'}], version=NEW)
    assert resp.status_int == 200, resp.text
    assert resp.json['instance_name'] == 'from-nova'
    # A name already given stays.
    resp = client.patch_json('/v1/nodes/n1', [
        {'op': 'add', 'path': '/instance_info/display_name',
         'value': 'other'}], version=NEW)
    assert resp.json['instance_name'] == 'from-nova'


def test_list_filters_on_it_exactly(client):
    _node(client, 'n1', 'vm-a')
    _node(client, 'n2', 'vm-b')
    _node(client, 'n3')
    names = [n['name'] for n in client.get(
        '/v1/nodes?instance_name=vm-a', version=NEW).json['nodes']]
    assert names == ['n1']
    assert client.get('/v1/nodes?instance_name=vm', version=NEW).json[
        'nodes'] == []
    detail = client.get('/v1/nodes/detail?instance_name=vm-b',
                        version=NEW).json['nodes']
    assert [n['name'] for n in detail] == ['n2']
    assert detail[0]['instance_name'] == 'vm-b'


def test_service_step_shown_from_1_87(client):
    node = _node(client, 'n1')
    step = {'interface': 'vendor', 'step': 'log_passthrough'}
    utils.set_node(node['uuid'], service_step=step)
    assert client.get('/v1/nodes/n1', version='1.87').json[
        'service_step'] == step
    assert 'service_step' not in client.get('/v1/nodes/n1',
                                            version='1.86').json
    assert client.get('/v1/nodes/n1?fields=service_step',
                      version='1.86').status_int == 406
    resp = client.get('/v1/nodes?sort_key=service_step', version='1.87')
    assert resp.status_int == 400


def test_service_step_is_read_only(client):
    _node(client, 'n1')
    resp = client.patch_json('/v1/nodes/n1', [
        {'op': 'add', 'path': '/service_step', 'value': {}}],
        version='1.87')
    assert resp.status_int == 400
