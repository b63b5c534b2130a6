"""/v1/runbooks (API 1.92; traits, description and free names 1.112),
in-process: the contract, its gates and Ironic's messages."""

import pytest

from ironic_lite import objects
from tests.unit.api import utils

URL = '/v1/runbooks'
BIOS = {'interface': 'bios', 'step': 'apply_configuration',
        'args': {'settings': [{'name': 'a', 'value': 'b'}]}, 'order': 1}
RAID = {'interface': 'raid', 'step': 'delete_configuration', 'args': {},
        'order': 2}
FIELDS_92 = {'uuid', 'name', 'steps', 'disable_ramdisk', 'public', 'owner',
             'extra', 'created_at', 'updated_at', 'links'}
FIELDS_112 = FIELDS_92 | {'description', 'traits'}


def _create(client, name='CUSTOM_RB', steps=(BIOS, RAID), version=None,
            **extra):
    resp = client.post_json(URL, dict(extra, name=name, steps=list(steps)),
                            version=version)
    assert resp.status_int == 201, resp.text
    return resp.json


def test_crud(client):
    created = _create(client, extra={'a': 1}, disable_ramdisk=True,
                      description='wipe')
    assert set(created) == FIELDS_112
    assert created['steps'] == [BIOS, RAID]
    assert (created['name'], created['description'], created['extra'],
            created['disable_ramdisk'], created['public'],
            created['owner'], created['traits']) == (
        'CUSTOM_RB', 'wipe', {'a': 1}, True, False, None, [])
    by_uuid = client.get(URL + '/' + created['uuid']).json
    assert client.get(URL + '/CUSTOM_RB').json == by_uuid == created
    assert client.get(URL).json == {'runbooks': [
        {'uuid': created['uuid'], 'name': 'CUSTOM_RB',
         'links': created['links']}]}
    resp = client.patch_json(URL + '/CUSTOM_RB', [
        {'op': 'replace', 'path': '/steps/1/order', 'value': '10'},
        {'op': 'replace', 'path': '/name', 'value': 'wipe-disks.v2'},
        {'op': 'replace', 'path': '/description', 'value': 'new'}])
    assert resp.status_int == 200, resp.text
    assert resp.json['steps'][1] == dict(RAID, order=10)
    assert (resp.json['name'], resp.json['description']) == (
        'wipe-disks.v2', 'new')
    assert resp.json['updated_at'] is not None
    assert client.get(URL + '/CUSTOM_RB').status_int == 404
    assert client.delete(URL + '/wipe-disks.v2').status_int == 204
    resp = client.get(URL + '/' + created['uuid'])
    assert resp.status_int == 404
    assert utils.faultstring(resp) == (
        'Runbook %s could not be found.' % created['uuid'])


def test_location_args_optional_string_order(client):
    resp = client.post_json(URL, {'name': 'CUSTOM_A', 'steps': [
        {'interface': 'deploy', 'step': 'erase_devices', 'order': '7'}]})
    assert resp.status_int == 201, resp.text
    assert resp.headers['Location'].endswith(URL + '/' + resp.json['uuid'])
    assert resp.json['steps'] == [{'interface': 'deploy',
                                   'step': 'erase_devices', 'args': {},
                                   'order': 7}]


def test_fields_below_1_112(client):
    created = _create(client, version='1.92')
    assert set(created) == FIELDS_92
    shown = client.get(URL + '/CUSTOM_RB', version='1.92').json
    assert set(shown) == FIELDS_92
    resp = client.get(URL + '/CUSTOM_RB?fields=traits', version='1.92')
    assert resp.status_int == 406
    resp = client.post_json(URL, {'name': 'CUSTOM_B', 'steps': [BIOS],
                                  'description': 'x'}, version='1.111')
    assert resp.status_int == 400
    assert "'description' was unexpected" in utils.faultstring(resp)
    resp = client.patch_json(URL + '/CUSTOM_RB', [
        {'op': 'add', 'path': '/description', 'value': 'x'}],
        version='1.111')
    assert resp.status_int == 400
    assert utils.faultstring(resp) == (
        'Cannot patch /description. Only the following can be updated: '
        'disable_ramdisk, extra, name, owner, public, steps')


@pytest.mark.parametrize('version,name,status', [
    ('1.92', 'CUSTOM_RB', 201),
    ('1.92', 'HW_CPU_X86_AVX2', 201),
    ('1.92', 'wipe-disks', 400),
    ('1.111', 'wipe.disks~1', 400),
    ('1.112', 'wipe.disks~1', 201),
    ('1.112', 'CUSTOM_RB', 201),
    ('1.112', 'has space', 400),
    ('1.112', 'slash/no', 400),
    ('1.112', 'x' * 256, 400),
])
def test_name_rules(client, version, name, status):
    resp = client.post_json(URL, {'name': name, 'steps': [BIOS]},
                            version=version)
    assert resp.status_int == status, resp.text
    if status == 400:
        assert utils.faultstring(resp).startswith(
            'Schema error for runbook:')


def test_a_1_112_name_stays_patchable_below_it(client):
    _create(client, name='wipe.disks')
    resp = client.patch_json(URL + '/wipe.disks', [
        {'op': 'add', 'path': '/extra/a', 'value': 1}], version='1.92')
    assert resp.status_int == 200, resp.text


def test_secret_arguments_are_masked(client):
    step = dict(BIOS, args={'settings': [], 'password': 's3cret'})
    created = _create(client, steps=[step])
    assert created['steps'][0]['args'] == {'settings': [],
                                           'password': '******'}
    resp = client.patch_json(URL + '/CUSTOM_RB', [
        {'op': 'add', 'path': '/extra/x', 'value': 1}])
    assert resp.status_int == 200
    stored = objects.Runbook.get_by_name(None, 'CUSTOM_RB')
    assert stored.steps[0]['args']['password'] == 's3cret'


def test_list_paging_fields_detail_sort(client):
    for name in ('CUSTOM_C', 'CUSTOM_A', 'CUSTOM_B'):
        _create(client, name=name)
    page = client.get(URL + '?limit=2').json
    assert [t['name'] for t in page['runbooks']] == ['CUSTOM_C', 'CUSTOM_A']
    assert 'limit=2' in page['next'] and 'marker=' in page['next']
    rest = client.get(page['next'].split('/v1', 1)[1]).json
    assert [t['name'] for t in rest['runbooks']] == ['CUSTOM_B']
    by_name = client.get(URL + '?sort_key=name&sort_dir=desc').json
    assert [t['name'] for t in by_name['runbooks']] == [
        'CUSTOM_C', 'CUSTOM_B', 'CUSTOM_A']
    detail = client.get(URL + '?detail=True').json['runbooks']
    assert set(detail[0]) == FIELDS_112
    assert set(client.get(URL + '?detail=True', version='1.92')
               .json['runbooks'][0]) == FIELDS_92
    fields = client.get(URL + '?fields=name,steps').json['runbooks']
    assert set(fields[0]) == {'name', 'steps', 'links'}
    one = client.get(URL + '/CUSTOM_A?fields=uuid').json
    assert set(one) == {'uuid', 'links'}


@pytest.mark.parametrize('query,message', [
    ('?sort_key=steps', 'The sort_key value steps is an invalid field for '
                        'sorting'),
    ('?sort_key=traits', 'The sort_key value traits is an invalid field '
                         'for sorting'),
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
    ({'name': 'CUSTOM_X'}, "'steps' is a required property"),
    ({'name': 'CUSTOM_X', 'steps': []}, 'Schema error for runbook'),
    ({'steps': [RAID]}, "'name' is a required property"),
    ({'name': 'CUSTOM_X', 'steps': [dict(RAID, interface='boot')]},
     "'boot' is not one of"),
    ({'name': 'CUSTOM_X', 'steps': [dict(RAID, order=-1)]},
     'Schema error for runbook'),
    ({'name': 'CUSTOM_X', 'steps': [dict(RAID, priority=1)]},
     "'priority' was unexpected"),
    ({'name': 'CUSTOM_X', 'steps': [{'interface': 'raid', 'step': 'x'}]},
     "'order' is a required property"),
    ({'name': 'CUSTOM_X', 'steps': [RAID], 'public': 'yes'},
     'Schema error for runbook'),
    ({'name': 'CUSTOM_X', 'steps': [RAID], 'traits': ['CUSTOM_A']},
     "'traits' was unexpected"),
    ({'name': 'CUSTOM_X', 'steps': [RAID, dict(RAID, order=3)]},
     'Deploy template invalid: Duplicate deploy steps. A template cannot '
     'have multiple deploy steps with the same interface and step. '
     'Duplicates: interface: raid, step: delete_configuration.'),
    ({'name': 'CUSTOM_X', 'steps': [RAID], 'uuid': 'not-a-uuid'},
     'Expected UUID for uuid: not-a-uuid'),
])
def test_create_refused(client, body, fragment):
    resp = client.post_json(URL, body)
    assert resp.status_int == 400, resp.text
    assert fragment in utils.faultstring(resp)
    assert objects.Runbook.list(None) == []


def test_duplicates_are_409(client):
    created = _create(client)
    resp = client.post_json(URL, {'name': 'CUSTOM_RB', 'steps': [BIOS]})
    assert resp.status_int == 409
    assert utils.faultstring(resp) == (
        'A runbook with name CUSTOM_RB already exists.')
    resp = client.post_json(URL, {'name': 'CUSTOM_OTHER', 'steps': [BIOS],
                                  'uuid': created['uuid']})
    assert resp.status_int == 409
    assert utils.faultstring(resp) == (
        'A runbook with UUID %s already exists.' % created['uuid'])


@pytest.mark.parametrize('patch,status,fragment', [
    ([{'op': 'replace', 'path': '/uuid', 'value': 'x'}], 400,
     'Cannot patch /uuid.'),
    ([{'op': 'add', 'path': '/traits', 'value': ['CUSTOM_A']}], 400,
     'Cannot patch /traits.'),
    ([{'op': 'replace', 'path': '/steps', 'value': []}], 400,
     'Schema error'),
    ([{'op': 'add', 'path': '/steps/-', 'value': dict(BIOS, order=9)}],
     400, 'Duplicate deploy steps'),
    ([{'op': 'replace', 'path': '/public', 'value': True},
      {'op': 'replace', 'path': '/owner', 'value': 'p1'}], 400,
     'There cannot be an owner for a public runbook'),
])
def test_patch_refused(client, patch, status, fragment):
    _create(client)
    resp = client.patch_json(URL + '/CUSTOM_RB', patch)
    assert resp.status_int == status, resp.text
    assert fragment in utils.faultstring(resp)


def test_public_and_owner(client):
    _create(client, owner='p1')
    resp = client.patch_json(URL + '/CUSTOM_RB', [
        {'op': 'replace', 'path': '/public', 'value': True}])
    assert resp.status_int == 200, resp.text
    # Made public, it has no owner any more.
    assert (resp.json['public'], resp.json['owner']) == (True, None)
    resp = client.patch_json(URL + '/CUSTOM_RB', [
        {'op': 'replace', 'path': '/owner', 'value': 'p2'}])
    assert resp.status_int == 400
    resp = client.patch_json(URL + '/CUSTOM_RB', [
        {'op': 'replace', 'path': '/public', 'value': False},
        {'op': 'replace', 'path': '/owner', 'value': 'p2'}])
    assert resp.status_int == 200, resp.text
    assert (resp.json['public'], resp.json['owner']) == (False, 'p2')


@pytest.mark.parametrize('method', ['get', 'post_json', 'patch_json',
                                    'delete'])
def test_gates_below_1_92(client, method):
    path = URL if method in ('get', 'post_json') else URL + '/CUSTOM_RB'
    args = ({},) if method.endswith('_json') else ()
    resp = getattr(client, method)(path, *args, version='1.91')
    assert resp.status_int == (404 if method == 'get' else 405)
    assert utils.faultstring(resp) == (
        'The API version does not allow runbooks')


def test_traits_sub_resource(client):
    created = _create(client)
    traits = URL + '/CUSTOM_RB/traits'
    assert client.get(traits).json == {'traits': []}
    resp = client.put_json(traits, {'traits': ['CUSTOM_B', 'CUSTOM_A',
                                               'CUSTOM_A']})
    assert resp.status_int == 204, resp.text
    resp = client.put(traits + '/HW_CPU_X86_AVX2')
    assert resp.status_int == 204, resp.text
    assert resp.headers['Location'].endswith(
        '/v1/runbooks/CUSTOM_RB/traits/HW_CPU_X86_AVX2')
    assert client.get(traits).json == {
        'traits': ['CUSTOM_A', 'CUSTOM_B', 'HW_CPU_X86_AVX2']}
    assert client.get(URL + '/' + created['uuid']).json['traits'] == [
        'CUSTOM_A', 'CUSTOM_B', 'HW_CPU_X86_AVX2']
    # Adding one it has, or removing one it lacks, changes nothing.
    assert client.put(traits + '/CUSTOM_A').status_int == 204
    assert client.delete(traits + '/CUSTOM_Z').status_int == 204
    assert client.delete(traits + '/CUSTOM_B').status_int == 204
    assert client.get(traits).json == {
        'traits': ['CUSTOM_A', 'HW_CPU_X86_AVX2']}
    assert client.delete(traits).status_int == 204
    assert client.get(traits).json == {'traits': []}


@pytest.mark.parametrize('call,fragment', [
    (lambda c, t: c.put_json(t, {}), 'A single runbook trait may be added'),
    (lambda c, t: c.put_json(t + '/CUSTOM_A', {'traits': ['CUSTOM_B']}),
     'A single runbook trait may be added'),
    (lambda c, t: c.put_json(t + '/CUSTOM_A', {'x': 1}),
     'No body should be provided when adding a trait'),
    (lambda c, t: c.put(t + '/lower'), 'Schema error for trait'),
    (lambda c, t: c.put_json(t, {'traits': ['lower']}),
     'Schema error for body'),
])
def test_traits_refused(client, call, fragment):
    _create(client)
    resp = call(client, URL + '/CUSTOM_RB/traits')
    assert resp.status_int == 400, resp.text
    assert fragment in utils.faultstring(resp)
    assert objects.Runbook.get_by_name(None, 'CUSTOM_RB').traits == []


def test_traits_below_1_112(client):
    _create(client)
    for method in ('get', 'put', 'delete'):
        resp = getattr(client, method)(URL + '/CUSTOM_RB/traits',
                                       version='1.111')
        assert resp.status_int == 404, method
        assert utils.faultstring(resp) == (
            'The API version does not allow runbook traits')


def test_unknown_runbook_and_bad_ident(client):
    resp = client.get(URL + '/CUSTOM_NONE/traits')
    assert resp.status_int == 404
    assert utils.faultstring(resp) == (
        'Runbook CUSTOM_NONE could not be found.')
    resp = client.get(URL + '/bad%20name')
    assert resp.status_int == 400
