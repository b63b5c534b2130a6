"""/v1/nodes/<n>/history (1.78): short and detailed events, paging."""

import pytest

from ironic_lite.common import context
from ironic_lite.db import node_history as db_history
from ironic_lite import objects
from tests.unit.api import utils

URL = '/v1/nodes/node-0/history'
SHORT = {'uuid', 'created_at', 'severity', 'event', 'links'}
DETAIL_112 = SHORT | {'event_type', 'conductor', 'user'}
DETAIL_113 = DETAIL_112 | {'project'}
DETAIL = DETAIL_113 | {'state', 'target_provision_state',
                       'duration_seconds'}


def _record(node_uuid, **changes):
    ctx = context.RequestContext(user_id='user-1', project_id='p')
    node = objects.Node.get_by_uuid(ctx, node_uuid)
    for name, value in changes.items():
        setattr(node, name, value)
    node.save()


@pytest.fixture
def events(node):
    _record(node['uuid'], last_error='Failed to deploy: ' + 'x' * 300)
    _record(node['uuid'], provision_state='manageable',
            target_provision_state=None)
    _record(node['uuid'], last_error='power went away',
            target_power_state=None)
    return node


def test_list_short_and_detail(client, events):
    body = client.get(URL).json
    items = body['history']
    assert [set(i) for i in items] == [SHORT] * 3
    assert [i['severity'] for i in items] == ['ERROR', 'INFO', 'ERROR']
    # Ironic keeps 251 characters and adds '...'.
    assert len(items[0]['event']) == 254 and items[0]['event'].endswith(
        '...')
    assert items[0]['links'] == [{
        'href': 'http://localhost/v1/nodes/%s/history/%s'
                % (events['uuid'], items[0]['uuid']), 'rel': 'self'}]
    assert 'next' not in body
    detail = client.get(URL + '?detail=True').json['history']
    assert [set(i) for i in detail] == [DETAIL] * 3
    assert len(detail[0]['event']) > 255
    assert [i['event_type'] for i in detail] == [
        'provisioning', 'provisioning', 'power']
    assert detail[1]['event'] == (
        'Provision state changed from enroll to manageable')
    assert detail[2]['user'] == 'user-1'


def test_show_is_detailed(client, events):
    first = client.get(URL).json['history'][0]
    shown = client.get(URL + '/' + first['uuid']).json
    assert set(shown) == DETAIL
    assert shown['uuid'] == first['uuid']


def test_show_unknown_or_other_nodes_event_is_404(client, events):
    missing = '5f8e8a0c-1111-4222-8333-944445555666'
    resp = client.get(URL + '/' + missing)
    assert resp.status_int == 404
    assert utils.faultstring(resp) == (
        'Node history record %s could not be found.' % missing)
    client.post_json('/v1/nodes', {'driver': 'fake-hardware',
                                   'name': 'node-1'})
    first = client.get(URL).json['history'][0]['uuid']
    assert client.get('/v1/nodes/node-1/history/' + first).status_int == 404
    assert client.get(URL + '/not%20a%20name').status_int == 400


def test_paging(client, events):
    page = client.get(URL + '?limit=2').json
    assert len(page['history']) == 2
    assert page['next'].startswith(
        'http://localhost/v1/nodes/node-0/history?sort_key=created_at&'
        'sort_dir=asc&fields=uuid,created_at,severity,event&limit=2&marker=')
    rest = client.get(page['next'].replace('http://localhost', '')).json
    assert [i['uuid'] for i in rest['history']] != []
    assert set(rest['history'][0]) == SHORT
    uuids = [i['uuid'] for i in client.get(URL).json['history']]
    assert rest['history'][0]['uuid'] == uuids[2]
    desc = client.get(URL + '?sort_dir=desc&sort_key=created_at').json
    assert len(desc['history']) == 3


@pytest.mark.parametrize('query', [
    '?limit=0', '?limit=x', '?marker=bogus', '?sort_dir=up',
    '?sort_key=node_id', '?detail=True&fields=uuid', '?fields=nope',
    '?other=1'])
def test_bad_queries_are_400(client, events, query):
    assert client.get(URL + query).status_int == 400


def test_unknown_marker_is_404(client, events):
    resp = client.get(URL + '?marker=5f8e8a0c-1111-4222-8333-944445555666')
    assert resp.status_int == 404


def test_fields(client, events):
    items = client.get(URL + '?fields=uuid,event_type').json['history']
    assert set(items[0]) == {'uuid', 'event_type', 'links'}


@pytest.mark.parametrize('path', ['', '/5f8e8a0c-1111-4222-8333-944445555666'])
def test_not_found_below_1_78(make_client, events, path):
    assert make_client('1.77').get(URL + path).status_int == 404


def test_deleted_with_the_node(client, events):
    ctx = context.get_admin_context()
    node = objects.Node.get_by_uuid(ctx, events['uuid'])
    assert objects.NodeHistory.list_by_node_id(ctx, node.id)
    node.destroy()
    assert objects.NodeHistory.list_by_node_id(ctx, node.id) == []


@pytest.mark.parametrize('version,expected', [
    ('1.112', DETAIL_112), ('1.113', DETAIL_113), ('1.115', DETAIL)])
def test_detail_fields_by_version(client, events, version, expected):
    detail = client.get(URL + '?detail=True',
                        version=version).json['history']
    assert [set(i) for i in detail] == [expected] * 3
    first = client.get(URL + '/' + detail[0]['uuid'], version=version).json
    assert set(first) == expected
    resp = client.get(URL + '?fields=uuid,project', version=version)
    if 'project' in expected:
        assert resp.json['history'][0] == {
            'uuid': detail[0]['uuid'], 'project': 'p',
            'links': detail[0]['links']}
    else:
        assert resp.status_int == 400


def test_state_target_and_duration_recorded(client, events):
    detail = client.get(URL + '?detail=True').json['history']
    assert [i['project'] for i in detail] == ['p', 'p', 'p']
    # The state and target the write left the node in.
    assert [i['state'] for i in detail] == ['enroll', 'manageable',
                                            'manageable']
    assert detail[1]['target_provision_state'] is None
    # None while the node has no provision_updated_at (as Ironic); then
    # the whole seconds since its last provision state change.
    assert detail[0]['duration_seconds'] is None
    assert isinstance(detail[2]['duration_seconds'], int)
    assert detail[2]['duration_seconds'] >= 0


def test_pinned_to_5_0_events_are_written_at_1_0(client, node):
    """A 5.0 service reads the history rows too: pinned to it, an event
    is written at NodeHistory 1.0, without the 6.0 columns."""
    from tests.unit.objects import utils as obj_utils
    with obj_utils.pinned('5.0'):
        _record(node['uuid'], last_error='pinned')
    (row,) = db_history.get_node_history_by_node_id(1)
    assert (row.version, row.project, row.state) == ('1.0', None, None)
    detail = client.get(URL + '?detail=True').json['history']
    assert (detail[0]['project'], detail[0]['state'],
            detail[0]['duration_seconds']) == (None, None, None)
