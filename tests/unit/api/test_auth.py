"""http_basic authentication and the policy rules."""

from ironic_lite.common import policy
from ironic_lite import conf
from tests.unit.api import utils

CONF = conf.CONF
USERS = {'admin': '', 'reader': ':reader', 'owner': ':member:proj1'}


# The ``basic`` fixture (tests/unit/api/conftest.py) serves these USERS.
_auth = utils.basic_auth


def _create_node(client, user='admin', **extra):
    resp = client.post_json('/v1/nodes', dict({'driver': 'fake-hardware'},
                                              **extra), headers=_auth(user))
    assert resp.status_int == 201, resp.text
    return resp.json


def test_missing_and_bad_credentials_401(basic):
    resp = basic.get('/v1/nodes')
    assert resp.status_int == 401
    assert resp.headers['WWW-Authenticate'] == 'Basic realm="Baremetal API"'
    utils.fault(resp)
    assert basic.get('/v1/nodes', headers=_auth('admin', 'wrong')
                     ).status_int == 401
    assert basic.get('/v1/nodes', headers=_auth('nobody')).status_int == 401


def test_root_and_v1_are_public(basic):
    assert basic.get('/').status_int == 200
    assert basic.get('/v1').status_int == 200
    assert basic.get('/v1/').status_int == 200


def test_admin_can_write(basic):
    node = _create_node(basic)
    resp = basic.delete('/v1/nodes/' + node['uuid'], headers=_auth('admin'))
    assert resp.status_int == 204


def test_reader_reads_but_cannot_write(basic):
    node = _create_node(basic)
    headers = _auth('reader')
    assert basic.get('/v1/nodes', headers=headers).json['nodes'][0][
        'uuid'] == node['uuid']
    assert basic.get('/v1/nodes/' + node['uuid'], headers=headers
                     ).status_int == 200
    resp = basic.post_json('/v1/nodes', {'driver': 'fake-hardware'},
                           headers=headers)
    assert resp.status_int == 403
    assert utils.faultstring(resp) == ('Access was denied to the following '
                                       'resource: baremetal:node:create')
    resp = basic.patch_json('/v1/nodes/' + node['uuid'], [
        {'op': 'add', 'path': '/extra/a', 'value': 1}], headers=headers)
    assert resp.status_int == 403
    assert basic.delete('/v1/nodes/' + node['uuid'], headers=headers
                        ).status_int == 403
    resp = basic.post_json('/v1/ports', {'address': '52:54:00:00:00:01',
                                         'node_uuid': node['uuid']},
                           headers=headers)
    assert resp.status_int == 403
    assert basic.post_json('/v1/chassis', {}, headers=headers
                           ).status_int == 403
    assert basic.get('/v1/conductors', headers=headers).status_int == 200


def test_spoofed_identity_headers_are_ignored(basic):
    headers = dict(_auth('reader'), **{'X-Roles': 'admin',
                                       'X-System-Scope': 'all'})
    resp = basic.post_json('/v1/nodes', {'driver': 'fake-hardware'},
                           headers=headers)
    assert resp.status_int == 403


def test_project_member_sees_own_nodes_only(basic):
    mine = _create_node(basic, owner='proj1')
    other = _create_node(basic, owner='proj2')
    headers = _auth('owner')
    listed = basic.get('/v1/nodes', headers=headers).json['nodes']
    assert [n['uuid'] for n in listed] == [mine['uuid']]
    assert basic.get('/v1/nodes?owner=proj2', headers=headers
                     ).status_int == 403
    assert basic.get('/v1/nodes/' + other['uuid'], headers=headers
                     ).status_int == 404
    resp = basic.patch_json('/v1/nodes/' + mine['uuid'], [
        {'op': 'add', 'path': '/extra/a', 'value': 1}], headers=headers)
    assert resp.status_int == 200, resp.text
    resp = basic.patch_json('/v1/nodes/' + mine['uuid'], [
        {'op': 'replace', 'path': '/owner', 'value': 'proj3'}],
        headers=headers)
    assert resp.status_int == 403
    assert basic.delete('/v1/nodes/' + mine['uuid'], headers=headers
                        ).status_int == 403
    assert basic.get('/v1/chassis', headers=headers).status_int == 403


def test_policy_entry_points():
    names = {r.name for r in policy.list_policies()}
    for name in ('baremetal:node:get', 'baremetal:node:list',
                 'baremetal:node:create', 'baremetal:node:update',
                 'baremetal:node:delete', 'baremetal:node:set_power_state',
                 'baremetal:node:set_provision_state',
                 'baremetal:port:create', 'baremetal:portgroup:list_all',
                 'baremetal:chassis:delete', 'baremetal:conductor:get'):
        assert name in names
    assert len(names) == len(policy.list_policies())


def test_noauth_allows_everything(client):
    CONF.set_override('auth_strategy', 'noauth')
    resp = client.post_json('/v1/nodes', {'driver': 'fake-hardware'},
                            headers={'X-Roles': 'reader'})
    assert resp.status_int == 201
