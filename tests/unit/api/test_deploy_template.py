"""/v1/deploy_templates (API 1.55) and deploy_steps (1.69), in-process."""

import pytest

from ironic_lite import objects
from tests.unit.api import utils

URL = '/v1/deploy_templates'
BIOS = {'interface': 'bios', 'step': 'apply_configuration',
        'args': {'settings': [{'name': 'a', 'value': 'b'}]}, 'priority': 150}
RAID = {'interface': 'raid', 'step': 'create_configuration', 'args': {},
        'priority': 50}


def _create(client, name='CUSTOM_X', steps=(BIOS, RAID), **extra):
    resp = client.post_json(URL, dict(extra, name=name, steps=list(steps)))
    assert resp.status_int == 201, resp.text
    return resp.json


def test_crud(client):
    created = _create(client, extra={'a': 1})
    assert created['name'] == 'CUSTOM_X'
    assert created['steps'] == [BIOS, RAID]
    assert created['extra'] == {'a': 1}
    assert set(created) == {'uuid', 'name', 'steps', 'extra', 'created_at',
                            'updated_at', 'links'}
    by_uuid = client.get(URL + '/' + created['uuid']).json
    assert client.get(URL + '/CUSTOM_X').json == by_uuid == created
    assert client.get(URL).json == {'deploy_templates': [
        {'uuid': created['uuid'], 'name': 'CUSTOM_X',
         'links': created['links']}]}
    resp = client.patch_json(URL + '/CUSTOM_X', [
        {'op': 'replace', 'path': '/steps/1/priority', 'value': '10'},
        {'op': 'replace', 'path': '/name', 'value': 'CUSTOM_Y'}])
    assert resp.status_int == 200, resp.text
    assert resp.json['steps'][1] == dict(RAID, priority=10)
    assert resp.json['name'] == 'CUSTOM_Y'
    assert resp.json['updated_at'] is not None
    assert client.get(URL + '/CUSTOM_X').status_int == 404
    assert client.delete(URL + '/CUSTOM_Y').status_int == 204
    resp = client.get(URL + '/' + created['uuid'])
    assert resp.status_int == 404
    assert utils.faultstring(resp) == (
        'Deploy template %s could not be found.' % created['uuid'])


def test_location_and_string_priority(client):
    resp = client.post_json(URL, {'name': 'HW_CPU_X86_AVX2',
                                  'steps': [dict(RAID, priority='7')]})
    assert resp.status_int == 201
    assert resp.headers['Location'].endswith(URL + '/' + resp.json['uuid'])
    assert resp.json['steps'][0]['priority'] == 7


def test_secret_arguments_are_masked(client):
    step = dict(BIOS, args={'settings': [], 'password': 's3cret'})
    created = _create(client, steps=[step])
    assert created['steps'][0]['args'] == {'settings': [],
                                           'password': '******'}
    # A patch keeps the stored secret, and cannot read it.
    resp = client.patch_json(URL + '/CUSTOM_X', [
        {'op': 'test', 'path': '/steps/0/args/password',
         'value': 's3cret'}])
    assert resp.status_int == 400
    client.patch_json(URL + '/CUSTOM_X', [
        {'op': 'add', 'path': '/extra/x', 'value': 1}])
    stored = objects.DeployTemplate.get_by_name(None, 'CUSTOM_X')
    assert stored.steps[0]['args']['password'] == 's3cret'


def test_list_paging_fields_detail_sort(client):
    for name in ('CUSTOM_C', 'CUSTOM_A', 'CUSTOM_B'):
        _create(client, name=name)
    page = client.get(URL + '?limit=2').json
    assert [t['name'] for t in page['deploy_templates']] == [
        'CUSTOM_C', 'CUSTOM_A']
    assert 'limit=2' in page['next'] and 'marker=' in page['next']
    rest = client.get(page['next'].split('/v1', 1)[1]).json
    assert [t['name'] for t in rest['deploy_templates']] == ['CUSTOM_B']
    by_name = client.get(URL + '?sort_key=name&sort_dir=desc').json
    assert [t['name'] for t in by_name['deploy_templates']] == [
        'CUSTOM_C', 'CUSTOM_B', 'CUSTOM_A']
    detail = client.get(URL + '?detail=True').json['deploy_templates']
    assert detail[0]['steps'] == [BIOS, RAID]
    fields = client.get(URL + '?fields=name,steps').json['deploy_templates']
    assert set(fields[0]) == {'name', 'steps', 'links'}
    one = client.get(URL + '/CUSTOM_A?fields=uuid').json
    assert set(one) == {'uuid', 'links'}


@pytest.mark.parametrize('query,message', [
    ('?sort_key=steps', 'The sort_key value steps is an invalid field for '
                        'sorting'),
    ('?sort_key=extra', 'The sort_key value extra is an invalid field for '
                        'sorting'),
    ('?fields=bogus', 'Field(s) "bogus" are not valid'),
    ('?detail=True&fields=name', 'Can not specify ?detail=True and fields '
                                 'in the same request.'),
])
def test_list_errors(client, query, message):
    resp = client.get(URL + query)
    assert resp.status_int == 400
    assert utils.faultstring(resp) == message


def test_unknown_marker_is_404(client):
    resp = client.get(URL + '?marker=5e0b5f5e-1c3f-4b8e-9f4e-1a2b3c4d5e6f')
    assert resp.status_int == 404


@pytest.mark.parametrize('body,fragment', [
    ({'name': 'not-a-trait', 'steps': [RAID]}, 'Schema error for template'),
    ({'name': 'CUSTOM_X'}, "'steps' is a required property"),
    ({'name': 'CUSTOM_X', 'steps': []}, 'Schema error for template'),
    ({'steps': [RAID]}, "'name' is a required property"),
    ({'name': 'CUSTOM_X', 'steps': [dict(RAID, interface='boot')]},
     "'boot' is not one of"),
    ({'name': 'CUSTOM_X', 'steps': [dict(RAID, priority=-1)]},
     'Schema error for template'),
    ({'name': 'CUSTOM_X', 'steps': [dict(RAID, priority='1x')]},
     'Schema error for template'),
    ({'name': 'CUSTOM_X', 'steps': [{'interface': 'raid', 'step': 'x',
                                     'priority': 1}]},
     "'args' is a required property"),
    ({'name': 'CUSTOM_X', 'steps': [dict(RAID, extra=1)]},
     'Additional properties are not allowed'),
    ({'name': 'CUSTOM_X', 'steps': [RAID], 'uuid': 'nope'},
     'Expected UUID for uuid: nope'),
    ({'name': 'CUSTOM_X', 'steps': [RAID], 'description': 'x'},
     'Additional properties are not allowed'),
    ({'name': 'CUSTOM_X', 'steps': [RAID, dict(RAID, priority=1)]},
     'Deploy template invalid: Duplicate deploy steps. A template cannot '
     'have multiple deploy steps with the same interface and step. '
     'Duplicates: interface: raid, step: create_configuration.'),
    ({'name': 'CUSTOM_X', 'steps': [dict(RAID, priority='9999999999')]},
     'at most 2147483647'),
])
def test_create_is_validated_as_ironic(client, body, fragment):
    resp = client.post_json(URL, body)
    assert resp.status_int == 400, resp.text
    assert fragment in utils.faultstring(resp)
    assert client.get(URL).json['deploy_templates'] == []


def test_duplicate_name_and_uuid_are_409(client):
    created = _create(client)
    resp = client.post_json(URL, {'name': 'CUSTOM_X', 'steps': [RAID]})
    assert resp.status_int == 409
    assert utils.faultstring(resp) == (
        'A deploy template with name CUSTOM_X already exists.')
    resp = client.post_json(URL, {'name': 'CUSTOM_Z', 'steps': [RAID],
                                  'uuid': created['uuid']})
    assert resp.status_int == 409
    assert utils.faultstring(resp) == (
        'A deploy template with UUID %s already exists.' % created['uuid'])
    _create(client, name='CUSTOM_Y')
    resp = client.patch_json(URL + '/CUSTOM_Y', [
        {'op': 'replace', 'path': '/name', 'value': 'CUSTOM_X'}])
    assert resp.status_int == 409


@pytest.mark.parametrize('patch,status,fragment', [
    ([{'op': 'replace', 'path': '/uuid', 'value': 'x'}], 400,
     'Cannot patch /uuid'),
    ([{'op': 'remove', 'path': '/steps'}], 400,
     "'steps' is a required property"),
    ([{'op': 'add', 'path': '/steps/-', 'value': RAID}], 400,
     'Duplicate deploy steps'),
    ([{'op': 'replace', 'path': '/steps/0/interface', 'value': 'boot'}],
     400, "'boot' is not one of"),
    ([{'op': 'replace', 'path': '/name', 'value': 'lower'}], 400,
     'Schema error for patch'),
    ([{'op': 'remove', 'path': '/steps/5'}], 400, None),
])
def test_patch_is_validated(client, patch, status, fragment):
    created = _create(client)
    resp = client.patch_json(URL + '/CUSTOM_X', patch)
    assert resp.status_int == status, resp.text
    if fragment:
        assert fragment in utils.faultstring(resp)
    assert client.get(URL + '/CUSTOM_X').json == created


def test_patch_drops_keys_a_step_does_not_have(client):
    _create(client)
    resp = client.patch_json(URL + '/CUSTOM_X', [
        {'op': 'add', 'path': '/steps/0/foo', 'value': 1}])
    assert resp.status_int == 200
    assert resp.json['steps'][0] == BIOS


def test_bad_identifier(client):
    resp = client.get(URL + '/not%20a%20name')
    assert resp.status_int == 400
    assert utils.faultstring(resp) == (
        'Expected UUID or name for template_ident: not a name')


def test_gated_at_1_55(client):
    _create(client)
    for method, status in (('get', 404), ('post_json', 405),
                           ('delete', 405)):
        args = (URL,) if method != 'post_json' else (URL, {})
        resp = getattr(client, method)(*args, version='1.54')
        assert resp.status_int == status
        assert utils.faultstring(resp) == (
            'The API version does not allow deploy templates')
    resp = client.patch_json(URL + '/CUSTOM_X', [], version='1.54')
    assert resp.status_int == 405
    assert 'deploy_templates' not in client.get('/v1', version='1.54').json
    links = client.get('/v1', version='1.55').json['deploy_templates']
    assert links[0]['href'].endswith('/v1/deploy_templates/')


def test_pinned_to_3_0_reads_work_writes_are_409(client, config_pin):
    created = _create(client)
    config_pin('3.0')
    assert client.get(URL).json['deploy_templates'][0]['name'] == 'CUSTOM_X'
    assert client.get(URL + '/CUSTOM_X').json == created
    for resp in (
            client.post_json(URL, {'name': 'CUSTOM_Y', 'steps': [RAID]}),
            client.patch_json(URL + '/CUSTOM_X', [
                {'op': 'add', 'path': '/extra/a', 'value': 1}]),
            client.patch_json(URL + '/CUSTOM_X', []),
            client.delete(URL + '/CUSTOM_X')):
        assert resp.status_int == 409, resp.text
        assert utils.faultstring(resp).startswith(
            'Changing deploy templates is not available while this API is '
            'pinned to release 3.0 (RPC 1.7): nothing was changed.')
    assert client.get(URL + '/CUSTOM_X').json == created
    assert objects.DeployTemplate.list_by_names(None, ['CUSTOM_Y']) == []


# -- deploy_steps of a provision request (1.69) -----------------------------

def _provision(client, node, body, version=None):
    return client.put_json('/v1/nodes/%s/states/provision' % node['uuid'],
                           body, version=version)


@pytest.fixture
def available(client, node):
    stored = objects.Node.get_by_uuid(None, node['uuid'])
    stored.provision_state = 'available'
    stored.save()
    return node


def test_deploy_steps_go_to_the_conductor(client, available, rpcapi):
    resp = _provision(client, available, {'target': 'active',
                                          'deploy_steps': [RAID]})
    assert resp.status_int == 202, resp.text
    assert rpcapi.last_deploy_steps == [RAID]


@pytest.mark.parametrize('body,fragment', [
    ({'target': 'active', 'deploy_steps': [{'interface': 'raid'}]},
     "Invalid deploy_steps: 'step' is a required property"),
    ({'target': 'active', 'deploy_steps': [dict(RAID, priority=-3)]},
     'Invalid deploy_steps: '),
    ({'target': 'manage', 'deploy_steps': [RAID]},
     '"deploy_steps" is only valid when setting target provision state to '
     'active or rebuild'),
])
def test_deploy_steps_are_checked(client, available, rpcapi, body,
                                  fragment):
    resp = _provision(client, available, body)
    assert resp.status_int == 400, resp.text
    assert fragment in utils.faultstring(resp)
    assert not [c for c in rpcapi.calls if c[0] == 'do_node_deploy']


def test_deploy_steps_need_1_69(client, available):
    resp = _provision(client, available, {'target': 'active',
                                          'deploy_steps': [RAID]},
                      version='1.68')
    assert resp.status_int == 406


def test_pinned_to_3_0_deploy_steps_are_409(client, available, rpcapi,
                                            config_pin):
    config_pin('3.0')
    resp = _provision(client, available, {'target': 'active',
                                          'deploy_steps': [RAID]})
    assert resp.status_int == 409
    assert 'Deploying with deploy_steps is not available' in (
        utils.faultstring(resp))
    assert not [c for c in rpcapi.calls if c[0] == 'do_node_deploy']
    resp = _provision(client, available, {'target': 'active'})
    assert resp.status_int == 202
