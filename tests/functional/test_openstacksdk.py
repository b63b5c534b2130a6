"""openstacksdk's baremetal proxy (``Connection().baremetal``) against a
running ironic-lite, with ``noauth`` and with ``http_basic``.

The SDK asks for each resource type at the highest microversion both
sides know (nodes and ports 1.82, port groups 1.26, conductors 1.49).  What
it has no call for is read through its own session (``bm.get``), as an SDK
user would: ``/v1/shards``, and the port groups of a shard
(``port_groups()`` has no ``shard`` filter, and it silently drops a filter
it does not know: ``port_groups(shard=...)`` lists every group).
"""

from openstack import connection
from openstack import exceptions as sdk_exc
import pytest

from tests.functional import conftest
from tests.functional import procs
from tests import timeouts

MAC = '52:54:00:5d:00:01'
GROUP_MAC = '52:54:00:5d:00:02'
SHARD = 'sdk-shard'


def _connect(service, credentials=None):
    """A Connection as ``credentials`` (by default the service's own)."""
    credentials = credentials or service.credentials
    auth = {'endpoint': service.base}
    if credentials.username:
        auth.update(username=credentials.username,
                    password=credentials.password)
    return connection.Connection(auth_type=credentials.auth_type, auth=auth)


def _absent(bm, name_or_id):
    """True when the node is not there (``find_*`` without
    ``ignore_missing=False`` is deprecated in the SDK)."""
    with pytest.raises(sdk_exc.NotFoundException):
        bm.find_node(name_or_id, ignore_missing=False)
    return True


def test_node_port_portgroup_lifecycle_with_sdk(lite_api):
    bm = _connect(lite_api).baremetal

    node = bm.create_node(driver='fake-hardware', name='sdk-node',
                          shard=SHARD, properties={'cpus': 2})
    assert (node.name, node.driver, node.shard, node.provision_state,
            node.properties) == ('sdk-node', 'fake-hardware', SHARD,
                                 'enroll', {'cpus': 2})
    assert bm.get_node('sdk-node').id == node.id
    assert bm.find_node(node.id, ignore_missing=False).name == 'sdk-node'
    assert _absent(bm, 'no-such-node')

    patched = bm.patch_node(node, [{'op': 'add', 'path': '/extra/rack',
                                    'value': 'r1'}])
    assert patched.extra == {'rack': 'r1'}
    updated = bm.update_node(node, description='racked')
    assert (updated.description, updated.extra) == ('racked', {'rack': 'r1'})
    assert [n.id for n in bm.nodes(shard=SHARD)] == [node.id]
    assert list(bm.nodes(details=True, shard='other-shard')) == []

    group = bm.create_port_group(node_id=node.id, name='sdk-bond',
                                 address=GROUP_MAC, mode='802.3ad')
    assert (group.name, group.address, group.mode, group.node_id) == (
        'sdk-bond', GROUP_MAC, '802.3ad', node.id)
    port = bm.create_port(node_id=node.id, address=MAC,
                          port_group_id=group.id)
    assert (port.address, port.node_id, port.port_group_id) == (
        MAC, node.id, group.id)
    assert [p.id for p in bm.ports(node='sdk-node')] == [port.id]
    assert [p.address for p in bm.ports(details=True, node_id=node.id)] == [
        MAC]
    assert [p.id for p in bm.ports(shard=SHARD)] == [port.id]
    assert list(bm.ports(shard='other-shard')) == []
    assert [g.id for g in bm.port_groups(node=node.id)] == [group.id]
    assert bm.get_port_group('sdk-bond').id == group.id
    by_shard = bm.get('/portgroups?shard=' + SHARD, microversion='1.82')
    assert by_shard.status_code == 200, by_shard.text
    assert [g['uuid'] for g in by_shard.json()['portgroups']] == [group.id]

    for target, state, power in (('manage', 'manageable', 'power off'),
                                 ('provide', 'available', 'power off'),
                                 ('active', 'active', 'power on'),
                                 ('deleted', 'available', 'power off')):
        done = bm.set_node_provision_state(node, target, wait=True,
                                           timeout=timeouts.HANG)
        assert done.provision_state == state, target
        assert bm.get_node(node.id).power_state == power, target

    for state in ('power on', 'power off'):
        bm.set_node_power_state(node, state, wait=True, timeout=timeouts.HANG)
        assert bm.get_node(node.id).power_state == state

    shards = bm.get('/shards', microversion='1.82')
    assert shards.status_code == 200, shards.text
    assert {'name': SHARD, 'count': 1} in shards.json()['shards']

    assert [(c.hostname, c.alive, c.conductor_group)
            for c in bm.conductors()] == [(conftest.CONDUCTOR_HOST, True, '')]
    conductor = bm.get_conductor(conftest.CONDUCTOR_HOST)
    assert (conductor.hostname, conductor.alive, conductor.drivers) == (
        conftest.CONDUCTOR_HOST, True, ['fake-hardware'])

    bm.delete_port(port)
    bm.delete_port_group(group)
    assert list(bm.ports(node_id=node.id)) == []
    assert list(bm.port_groups(node=node.id)) == []
    bm.delete_node(node)
    with pytest.raises(sdk_exc.NotFoundException):
        bm.get_node(node.id)
    assert _absent(bm, 'sdk-node')


def test_sdk_wrong_password_is_401_and_writes_nothing(lite_basic):
    wrong = procs.Credentials('admin', 'not-the-password')
    bm = _connect(lite_basic, wrong).baremetal
    with pytest.raises(sdk_exc.HttpException) as err:
        bm.create_node(driver='fake-hardware', name='intruder')
    assert err.value.status_code == 401
    assert 'Incorrect username or password' in str(err.value)
    assert _absent(_connect(lite_basic).baremetal, 'intruder')


def test_sdk_project_member_sees_and_writes_only_what_policy_allows(
        lite_basic):
    admin = _connect(lite_basic).baremetal
    owned = admin.create_node(driver='fake-hardware', name='sdk-proj-a',
                              owner='proj-a')
    other = admin.create_node(driver='fake-hardware', name='sdk-other')
    try:
        bm = _connect(lite_basic, lite_basic.users['member']).baremetal
        assert [n.id for n in bm.nodes()] == [owned.id]
        with pytest.raises(sdk_exc.NotFoundException):
            bm.get_node(other.id)
        with pytest.raises(sdk_exc.ForbiddenException):
            bm.create_node(driver='fake-hardware', name='sdk-mine')
        assert _absent(admin, 'sdk-mine')
        # Members of the owner project may power their nodes.
        bm.set_node_power_state(owned, 'power on', wait=True,
                                timeout=timeouts.HANG)
        assert admin.get_node(owned.id).power_state == 'power on'
    finally:
        admin.delete_node(owned)
        admin.delete_node(other)
