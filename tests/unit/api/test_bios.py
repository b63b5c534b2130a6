"""/v1/nodes/<n>/bios (1.40; registry fields, ?detail and ?fields 1.74)."""

import pytest

from ironic_lite.common import context
from ironic_lite import objects
from tests.unit.api import utils

URL = '/v1/nodes/node-0/bios'
SETTINGS = [
    {'name': 'ProcTurboMode', 'value': 'Enabled',
     'attribute_type': 'Enumeration', 'allowable_values': ['Enabled',
                                                           'Disabled'],
     'read_only': False, 'reset_required': True, 'unique': False},
    {'name': 'AssetTag', 'value': None, 'attribute_type': 'String',
     'min_length': 0, 'max_length': 16, 'lower_bound': None},
]
REGISTRY = ('attribute_type', 'allowable_values', 'lower_bound',
            'max_length', 'min_length', 'read_only', 'reset_required',
            'unique', 'upper_bound')


@pytest.fixture
def settings(node):
    ctx = context.get_admin_context()
    node_id = objects.Node.get_by_uuid(ctx, node['uuid']).id
    objects.BIOSSettingList.sync(ctx, node_id, SETTINGS)
    return node


def test_list_before_1_74_is_name_and_value(make_client, settings):
    body = make_client('1.40').get(URL).json
    assert [s['name'] for s in body['bios']] == ['AssetTag', 'ProcTurboMode']
    turbo = body['bios'][1]
    assert set(turbo) == {'name', 'value', 'created_at', 'updated_at',
                          'links'}
    assert turbo['value'] == 'Enabled'
    assert turbo['links'][0]['href'].endswith(
        '/v1/nodes/node-0/bios/ProcTurboMode')
    assert turbo['links'][1]['rel'] == 'bookmark'
    assert not turbo['links'][1]['href'].count('/v1/')


def test_list_detail_and_fields_at_1_74(client, settings):
    plain = client.get(URL).json['bios'][1]
    assert set(plain) == {'name', 'value', 'created_at', 'updated_at',
                          'links'}
    detail = client.get(URL + '?detail=True').json['bios']
    assert detail[1]['allowable_values'] == ['Enabled', 'Disabled']
    assert detail[1]['reset_required'] is True
    assert detail[0]['max_length'] == 16 and detail[0]['value'] is None
    assert all(set(REGISTRY) <= set(item) for item in detail)
    chosen = client.get(URL + '?fields=name,read_only').json['bios'][1]
    assert set(chosen) == {'name', 'read_only', 'created_at',
                           'updated_at', 'links'}
    assert chosen['read_only'] is False


@pytest.mark.parametrize('query', ['?detail=True', '?fields=name'])
def test_detail_and_fields_are_unknown_before_1_74(make_client, settings,
                                                   query):
    resp = make_client('1.73').get(URL + query)
    assert resp.status_int == 400
    assert 'Additional properties are not allowed' in utils.faultstring(
        resp)


def test_bad_list_queries(client, settings):
    resp = client.get(URL + '?detail=True&fields=name')
    assert resp.status_int == 400
    assert 'Can not specify ?detail=True and fields' in utils.faultstring(
        resp)
    resp = client.get(URL + '?fields=name,bogus')
    assert resp.status_int == 400
    assert '"bogus"' in utils.faultstring(resp)
    assert client.get(URL + '?detail=maybe').status_int == 400


def test_show_shape_per_version(make_client, settings):
    old = make_client('1.40').get(URL + '/ProcTurboMode').json
    assert set(old) == {'ProcTurboMode'}
    assert set(old['ProcTurboMode']) == {'name', 'value', 'created_at',
                                         'updated_at', 'links'}
    new = make_client('1.74').get(URL + '/ProcTurboMode').json
    assert set(REGISTRY) <= set(new['ProcTurboMode'])
    assert new['ProcTurboMode']['links'][0]['href'].endswith(
        '/v1/nodes/%s/bios/ProcTurboMode' % settings['uuid'])


def test_show_missing_setting_is_ironics_404(client, settings):
    resp = client.get(URL + '/NoSuchSetting')
    assert resp.status_int == 404
    assert utils.faultstring(resp) == (
        "Node %s doesn't have a BIOS setting 'NoSuchSetting'"
        % settings['uuid'])
    assert client.get(URL + '/ProcTurboMode?x=1').status_int == 400


@pytest.mark.parametrize('path', ['', '/ProcTurboMode'])
def test_not_found_below_1_40(make_client, settings, path):
    assert make_client('1.39').get(URL + path).status_int == 404


def test_unknown_node_is_404(client):
    assert client.get('/v1/nodes/nope/bios').status_int == 404


def test_settings_deleted_with_the_node(client, settings):
    assert client.get('/v1/nodes/node-0/bios').json['bios']
    ctx = context.get_admin_context()
    node = objects.Node.get_by_uuid(ctx, settings['uuid'])
    node.destroy()
    assert objects.BIOSSettingList.get_by_node_id(ctx, node.id).objects == []
