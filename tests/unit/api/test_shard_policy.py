"""The shard policies (baremetal:shards:get, baremetal:node:update:shard)
enforced for http_basic users, and project-scoped lists by shard."""

import pytest

from ironic_lite.common import policy
from ironic_lite import conf
from tests.unit.api import utils

# user -> ":roles:project" suffix of the htpasswd line (see api/auth.py)
USERS = {
    'admin': '',                         # system admin
    'sysmember': ':member',              # system member
    'reader': ':reader',                 # system reader
    'service': ':service',               # system-scoped service role
    'svcproj': ':service:service',       # service role in project "service"
    'owner': ':member:proj1',            # member of project proj1
    'owneradmin': ':admin:proj1',        # admin of project proj1
    'other': ':reader:proj2',            # reader of project proj2
}


# The ``basic`` fixture (tests/unit/api/conftest.py) serves these USERS.
_auth = utils.basic_auth


@pytest.fixture
def fleet(basic):
    """Shard S: n1 (owned by proj1, with a port and a port group) and n2
    (no owner, with a port and a port group)."""
    admin = _auth('admin')
    for name, owner, mac in (('n1', 'proj1', '52:54:00:00:00:01'),
                             ('n2', None, '52:54:00:00:00:02')):
        body = {'driver': 'fake-hardware', 'name': name, 'shard': 'S'}
        if owner:
            body['owner'] = owner
        node = basic.post_json('/v1/nodes', body, headers=admin)
        assert node.status_int == 201, node.text
        resp = basic.post_json('/v1/ports', {
            'address': mac, 'node_uuid': node.json['uuid']}, headers=admin)
        assert resp.status_int == 201, resp.text
        resp = basic.post_json('/v1/portgroups', {
            'node_uuid': node.json['uuid'], 'name': 'pg-' + name},
            headers=admin)
        assert resp.status_int == 201, resp.text
    return basic


@pytest.mark.parametrize('user,status', [
    ('admin', 200), ('reader', 200), ('service', 200), ('sysmember', 200),
    # As Ironic 39: the service project's service role is a system reader
    # only with [DEFAULT]rbac_service_role_elevated_access (see below).
    ('svcproj', 403),
    ('owner', 403), ('owneradmin', 403), ('other', 403),
])
def test_shards_get_policy(fleet, user, status):
    resp = fleet.get('/v1/shards', headers=_auth(user))
    assert resp.status_int == status, resp.text
    if status == 200:
        assert resp.json == {'shards': [{'name': 'S', 'count': 2}]}
    else:
        assert utils.faultstring(resp) == (
            'Access was denied to the following resource: '
            'baremetal:shards:get')


def test_service_project_with_elevated_access(fleet):
    conf.CONF.set_override('rbac_service_role_elevated_access', True)
    svc = _auth('svcproj')
    resp = fleet.get('/v1/shards', headers=svc)
    assert resp.status_int == 200, resp.text
    assert resp.json == {'shards': [{'name': 'S', 'count': 2}]}
    # It sees every node of its shard, not only its project's.
    nodes = fleet.get('/v1/nodes?shard=S', headers=svc).json['nodes']
    assert sorted(n['name'] for n in nodes) == ['n1', 'n2']
    # Another project name for the service users.
    conf.CONF.set_override('rbac_service_project_name', 'services')
    assert fleet.get('/v1/shards', headers=svc).status_int == 403


def test_only_system_admin_may_patch_the_shard(fleet):
    patch = [{'op': 'replace', 'path': '/shard', 'value': 'T'}]
    for user in ('sysmember', 'owner', 'owneradmin'):
        resp = fleet.patch_json('/v1/nodes/n1', patch, headers=_auth(user))
        assert resp.status_int == 403, (user, resp.text)
        assert 'baremetal:node:update:shard' in utils.faultstring(resp)
    # The same users may still patch what they are allowed to.
    resp = fleet.patch_json('/v1/nodes/n1', [
        {'op': 'add', 'path': '/extra/a', 'value': 1}],
        headers=_auth('owner'))
    assert resp.status_int == 200, resp.text
    admin = _auth('admin')
    assert fleet.get('/v1/nodes/n1', headers=admin).json['shard'] == 'S'
    resp = fleet.patch_json('/v1/nodes/n1', patch, headers=admin)
    assert resp.status_int == 200
    assert resp.json['shard'] == 'T'


def test_project_user_lists_only_its_own_by_shard(fleet):
    owner = _auth('owner')
    nodes = fleet.get('/v1/nodes?shard=S', headers=owner).json['nodes']
    assert [n['name'] for n in nodes] == ['n1']
    ports = fleet.get('/v1/ports?shard=S', headers=owner).json['ports']
    assert [p['address'] for p in ports] == ['52:54:00:00:00:01']
    pgs = fleet.get('/v1/portgroups?shard=S',
                    headers=owner).json['portgroups']
    assert [p['name'] for p in pgs] == ['pg-n1']
    other = _auth('other')
    assert fleet.get('/v1/ports?shard=S',
                     headers=other).json['ports'] == []
    assert fleet.get('/v1/portgroups?shard=S',
                     headers=other).json['portgroups'] == []
    reader = _auth('reader')
    assert len(fleet.get('/v1/ports?shard=S',
                         headers=reader).json['ports']) == 2


def test_policy_defaults_are_documented():
    rules = {r.name: r for r in policy.list_policies()}
    assert rules['baremetal:shards:get'].check_str == (
        '(role:reader and system_scope:all) or '
        '(role:service and system_scope:all) or rule:service_role')
    assert rules['baremetal:node:update:shard'].check_str == (
        'role:admin and system_scope:all')
    assert rules['service_role'].check_str == (
        'role:service and project_name:%(config.service_project_name)s')
