"""A port or port group moves only to a node of the same owner that the
caller may see, as Ironic since CVE-2026-44918; any other node_uuid is
one 400 that does not tell whether the node exists."""

import pytest

from tests.unit.api import utils

USERS = {'admin': '', 'owner': ':admin:proj-o'}
_auth = utils.basic_auth
MISSING = '1be26c0b-03f2-4d2e-ae87-c02d7f33c123'


def _create(basic, url, body):
    resp = basic.post_json(url, body, headers=_auth('admin'))
    assert resp.status_int == 201, resp.text
    return resp.json['uuid']


@pytest.fixture
def nodes(basic):
    return {owner: _create(basic, '/v1/nodes', {'driver': 'fake-hardware',
                                                'owner': owner})
            for owner in ('proj-o', 'proj-o2', 'proj-x')}


@pytest.fixture(params=['ports', 'portgroups'])
def item(request, basic, nodes):
    body = {'node_uuid': nodes['proj-o']}
    if request.param == 'ports':
        body['address'] = '52:54:00:00:00:01'
    return '/v1/%s/%s' % (request.param,
                          _create(basic, '/v1/' + request.param, body))


def _move(basic, url, value, user='admin'):
    return basic.patch_json(url, [{'op': 'replace', 'path': '/node_uuid',
                                   'value': value}], headers=_auth(user))


@pytest.mark.parametrize('value', [MISSING, 'not-a-uuid', 'a b'])
def test_no_such_node(basic, item, value):
    resp = _move(basic, item, value)
    assert resp.status_int == 400, resp.text
    assert utils.faultstring(resp) == (
        "Unable to apply the requested node_uuid '%s'. Requested value was "
        "invalid." % value)


def test_node_of_another_owner_is_refused(basic, nodes, item):
    for user in ('admin', 'owner'):
        resp = _move(basic, item, nodes['proj-x'], user)
        assert resp.status_int == 400, resp.text
        assert 'Requested value was invalid' in utils.faultstring(resp)
    resp = basic.get(item, headers=_auth('admin'))
    assert resp.json['node_uuid'] == nodes['proj-o']


def test_node_of_the_same_owner(basic, nodes, item):
    resp = basic.patch_json('/v1/nodes/' + nodes['proj-o2'], [
        {'op': 'replace', 'path': '/owner', 'value': 'proj-o'}],
        headers=_auth('admin'))
    assert resp.status_int == 200, resp.text
    resp = _move(basic, item, nodes['proj-o2'])
    assert resp.status_int == 200, resp.text
    assert resp.json['node_uuid'] == nodes['proj-o2']


def test_copy_into_node_uuid_is_checked_too(basic, nodes, item):
    ops = [{'op': 'add', 'path': '/extra/n', 'value': nodes['proj-x']},
           {'op': 'copy', 'from': '/extra/n', 'path': '/node_uuid'}]
    resp = basic.patch_json(item, ops, headers=_auth('admin'))
    assert resp.status_int == 400, resp.text
