"""/v1/inspection_rules (API 1.96), in-process: Ironic's shapes,
validation, gates and the sensitive flag."""

import pytest

from ironic_lite import objects
from tests.unit.api import utils

URL = '/v1/inspection_rules'
CONDITIONS = [{'op': 'eq', 'args': {'values': ['{inventory[cpu][count]}',
                                               '2']}},
              {'op': '!is-empty', 'args': {'value': '{inventory[x]}'},
               'loop': [1, 2], 'multiple': 'all'}]
ACTIONS = [{'op': 'set-attribute',
            'args': {'path': '/properties/cpus', 'value': 2}},
           {'op': 'add-trait', 'args': {'name': 'CUSTOM_{item}'},
            'loop': ['A', 'B']}]


def _create(client, **body):
    body.setdefault('actions', ACTIONS)
    resp = client.post_json(URL, body)
    assert resp.status_int == 201, resp.text
    return resp.json


def test_crud(client):
    created = _create(client, description='two CPUs', priority=10,
                      conditions=CONDITIONS)
    assert set(created) == {'uuid', 'description', 'priority', 'sensitive',
                            'phase', 'conditions', 'actions', 'created_at',
                            'updated_at', 'links'}
    assert created['phase'] == 'main' and created['sensitive'] is False
    assert created['conditions'] == CONDITIONS
    assert created['actions'] == ACTIONS
    uuid = created['uuid']
    resp = client.get(URL + '/' + uuid)
    assert resp.json == created
    assert resp.json['links'][0]['href'].endswith(URL + '/' + uuid)
    assert client.get(URL).json == {'inspection_rules': [
        {'uuid': uuid, 'priority': 10, 'phase': 'main',
         'description': 'two CPUs', 'links': created['links']}]}
    resp = client.patch_json(URL + '/' + uuid, [
        {'op': 'replace', 'path': '/priority', 'value': 20},
        {'op': 'remove', 'path': '/conditions/1'}])
    assert resp.status_int == 200, resp.text
    assert resp.json['priority'] == 20
    assert resp.json['conditions'] == CONDITIONS[:1]
    assert client.delete(URL + '/' + uuid).status_int == 204
    resp = client.get(URL + '/' + uuid)
    assert resp.status_int == 404
    assert utils.faultstring(resp) == 'Rule %s could not be found.' % uuid


def test_given_uuid_location_and_condition_shape(client):
    uuid = '5d6f3a3e-8c6b-4c1e-9d5b-3c8e2f1a0b7c'
    resp = client.post_json(URL, {'uuid': uuid, 'actions': [
        {'op': 'log', 'args': {'msg': 'hi'}, 'other': 1}], 'conditions': [
        {'op': 'eq', 'args': {'values': [1, 1]}, 'multiple': 'any'}]})
    assert resp.status_int == 201, resp.text
    assert resp.headers['Location'].endswith(URL + '/' + uuid)
    # As Ironic shows them: op and args, loop (and multiple) with a loop.
    assert resp.json['actions'] == [{'op': 'log', 'args': {'msg': 'hi'}}]
    assert resp.json['conditions'] == [{'op': 'eq',
                                        'args': {'values': [1, 1]}}]
    assert client.post_json(URL, {'uuid': uuid, 'actions': ACTIONS}) \
        .status_int == 409


def test_sensitive_rules_hide_their_operations(client):
    created = _create(client, sensitive=True, conditions=CONDITIONS)
    assert created['conditions'] is None and created['actions'] is None
    uuid = created['uuid']
    assert client.get(URL + '/' + uuid).json['actions'] is None
    listed = client.get(URL + '?detail=True').json['inspection_rules']
    assert listed[0]['conditions'] is None and listed[0]['actions'] is None
    assert client.get(URL + '?fields=uuid,actions').json[
        'inspection_rules'][0]['actions'] is None
    stored = objects.InspectionRule.get_by_uuid(None, uuid)
    assert stored.actions == ACTIONS
    resp = client.patch_json(URL + '/' + uuid, [
        {'op': 'replace', 'path': '/sensitive', 'value': False}])
    assert resp.status_int == 400
    assert 'Inspection rules cannot have the sensitive flag unset.' in \
        utils.faultstring(resp)
    assert objects.InspectionRule.get_by_uuid(None, uuid).sensitive


@pytest.mark.parametrize('body, message', [
    ({}, "'actions' is a required property"),
    ({'actions': []}, 'should be non-empty'),
    ({'actions': [{'op': 'nope', 'args': {}}]}, "'nope' is not one of"),
    ({'actions': [{'op': 'fail'}]}, "'args' is a required property"),
    ({'actions': [{'op': 'fail', 'args': 'x'}]}, "is not of type"),
    ({'actions': [{'op': 'fail', 'args': {}}]},
     'missing required argument(s): msg'),
    ({'actions': [{'op': 'fail', 'args': {'msg': 'x', 'y': 1}}]},
     'unexpected argument(s): y'),
    ({'actions': [{'op': 'set-attribute', 'args': ['/extra/a']}]},
     'Not enough arguments provided. Missing: value'),
    ({'actions': ACTIONS, 'conditions': [{'op': 'in-net',
                                          'args': {'address': 'x'}}]},
     'missing required argument(s): subnet'),
    ({'actions': ACTIONS, 'conditions': [{'op': '!!eq', 'args': {}}]},
     "'!!eq' is not one of"),
    ({'actions': ACTIONS, 'conditions': [
        {'op': 'eq', 'args': {'values': []}, 'multiple': 'some'}]},
     "'some' is not one of"),
    ({'actions': ACTIONS, 'phase': 'late'},
     'Invalid phase: late. Valid phases are: main'),
    ({'actions': ACTIONS, 'priority': 10000},
     'Priority must be between 0 and 9999 for user-defined rules.'),
    ({'actions': ACTIONS, 'priority': -1}, 'less than the minimum of 0'),
    # Ironic's newer schema messages: no noun, no string for a number.
    ({'actions': ACTIONS, 'priority': '7'},
     "Schema error: '7' is not of type 'integer'"),
    ({'actions': ACTIONS, 'conditions': None},
     "Schema error: None is not of type 'array'"),
    ({'actions': ACTIONS, 'description': 'x' * 256}, 'is too long'),
    ({'actions': ACTIONS, 'scope': 'x'},
     'Additional properties are not allowed'),
    ({'actions': ACTIONS, 'uuid': 'not-a-uuid'},
     'Expected UUID for uuid: not-a-uuid'),
])
def test_bad_rules(client, body, message):
    resp = client.post_json(URL, body)
    assert resp.status_int == 400, resp.text
    assert message in utils.faultstring(resp)
    assert objects.InspectionRule.list(None) == []


def test_list_phase_filter_paging_sort(client):
    uuids = [_create(client, priority=p)['uuid'] for p in (5, 1, 3)]
    page = client.get(URL + '?limit=2').json
    assert [r['uuid'] for r in page['inspection_rules']] == uuids[:2]
    assert 'marker=%s' % uuids[1] in page['next']
    by_priority = client.get(URL + '?sort_key=priority&sort_dir=desc').json
    assert [r['priority'] for r in by_priority['inspection_rules']] == [
        5, 3, 1]
    assert client.get(URL + '?phase=main').json == client.get(URL).json
    assert client.get(URL + '?phase=other').json == {
        'inspection_rules': []}
    for query in ('sort_key=actions', 'sort_key=conditions',
                  'fields=nope', 'detail=True&fields=uuid', 'bogus=1'):
        assert client.get(URL + '?' + query).status_int == 400, query
    assert client.get(URL + '?marker=%s' % ('0' * 8 + '-0000-0000-0000-'
                                            + '0' * 12)).status_int == 404


def test_bad_patches_change_nothing(client):
    uuid = _create(client)['uuid']
    for patch in ([{'op': 'replace', 'path': '/uuid', 'value': uuid}],
                  [{'op': 'move', 'from': '/priority', 'path': '/x'}],
                  [{'op': 'replace', 'path': '/phase', 'value': 'late'}],
                  [{'op': 'replace', 'path': '/actions', 'value': []}],
                  [{'op': 'add', 'path': '/actions/-',
                    'value': {'op': 'fail', 'args': {}}}]):
        resp = client.patch_json(URL + '/' + uuid, patch)
        assert resp.status_int == 400, (patch, resp.text)
    assert client.get(URL + '/' + uuid).json['actions'] == ACTIONS


def test_versions_and_bad_uuid(client):
    assert client.get(URL, version='1.95').status_int == 404
    assert client.post_json(URL, {'actions': ACTIONS},
                            version='1.95').status_int == 405
    # Ironic's parameter schema (GET, DELETE), its args.uuid (PATCH).
    for resp in (client.get(URL + '/nope'), client.delete(URL + '/nope')):
        assert resp.status_int == 400
        assert utils.faultstring(resp) == (
            "Schema error: 'nope' is not a 'uuid'")
    resp = client.patch_json(URL + '/nope', [])
    assert resp.status_int == 400
    assert utils.faultstring(resp) == (
        'Expected UUID for inspection_rule_uuid: nope')
    links = client.get('/v1').json
    assert 'inspection_rules' in links
    assert 'inspection_rules' not in client.get('/v1',
                                                version='1.95').json
