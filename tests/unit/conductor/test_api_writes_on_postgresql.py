"""The API in front of a real conductor on PostgreSQL: a node PATCH of
fields the conductor only writes, and a port's creation outside a port
group, are written by the API in the one statement the conductor would
make, and so is a node's creation with the interfaces' defaults the
conductor published; what the conductor decides, and a node a task
holds, still go to it (over fake:// and RabbitMQ)."""

import pytest

from ironic_lite.db import conductor as db_conductor
from ironic_lite.drivers import base as drivers_base
from ironic_lite.drivers import factory
from ironic_lite import objects
from tests.unit.conductor import conftest
from tests.unit.conductor import test_rpc_errors_over_api as over_api
from tests.unit.conductor.test_rpc_errors_over_api import api  # noqa: F401

_call, _node = over_api._call, over_api._node


@pytest.fixture
def database(postgresql_url, config, use_db):
    yield from conftest.conductor_database(use_db, postgresql_url)


@pytest.fixture
def sent(monkeypatch):
    """The names of the node and port writes sent to the conductor."""
    return over_api.spy_on(monkeypatch, ('update_node', 'create_port',
                                         'create_node'))


def test_a_plain_patch_is_the_api_s_a_maintenance_one_the_conductor_s(
        api, sent):  # noqa: F811
    node = _node(api, name='n1')['uuid']
    resp = _call(api, 'patch', '/v1/nodes/' + node, [
        {'op': 'add', 'path': '/extra/a', 'value': 1},
        {'op': 'replace', 'path': '/name', 'value': 'n2'}])
    assert resp.status_int == 200, resp.text
    assert (resp.json['extra'], resp.json['name']) == ({'a': 1}, 'n2')
    assert sent == []
    resp = _call(api, 'patch', '/v1/nodes/n2', [
        {'op': 'replace', 'path': '/maintenance', 'value': True}])
    assert resp.status_int == 200 and resp.json['maintenance'] is True
    assert sent == ['update_node']
    # Held by a task: the conductor answers (409, naming the holder).
    objects.Node.reserve(None, 'other-host', node)
    resp = over_api._clean(_call(api, 'patch', '/v1/nodes/' + node, [
        {'op': 'add', 'path': '/extra/b', 'value': 2}]))
    assert resp.status_int == 409 and 'other-host' in resp.text
    assert sent == ['update_node', 'update_node']
    assert _call(api, 'get', '/v1/nodes/n2').json['extra'] == {'a': 1}


def test_a_port_outside_a_group_is_the_api_s_a_locked_node_409(
        api, sent):  # noqa: F811
    node = _node(api)['uuid']
    resp = _call(api, 'post', '/v1/ports', {
        'node_uuid': node, 'address': '52:54:00:00:00:01'})
    assert resp.status_int == 201, resp.text
    assert resp.json['node_uuid'] == node
    assert sent == []
    # Joining a group: its network is checked by the conductor.
    pg = _call(api, 'post', '/v1/portgroups',
               {'node_uuid': node, 'name': 'pg1'}).json['uuid']
    resp = _call(api, 'post', '/v1/ports', {
        'node_uuid': node, 'address': '52:54:00:00:00:02',
        'portgroup_uuid': pg})
    assert resp.status_int == 201, resp.text
    assert sent == ['create_port']
    objects.Node.reserve(None, 'other-host', node)
    resp = over_api._clean(_call(api, 'post', '/v1/ports', {
        'node_uuid': node, 'address': '52:54:00:00:00:03'}))
    assert resp.status_int == 409 and 'other-host' in resp.text
    assert sent == ['create_port', 'create_port']
    assert sorted(p['address'] for p in _call(
        api, 'get', '/v1/ports').json['ports']) == [
            '52:54:00:00:00:01', '52:54:00:00:00:02']


def test_a_node_is_created_by_the_api_with_the_conductor_s_defaults(
        api, sent, config):  # noqa: F811
    node = _node(api, name='n1', deploy_interface='ramdisk')
    assert sent == []
    own = objects.Node(None, uuid=node['uuid'], driver='fake-hardware',
                       deploy_interface='ramdisk')
    factory.check_and_update_node_interfaces(
        own, factory.get_hardware_type('fake-hardware'))
    row = objects.Node.get_by_uuid(None, node['uuid'])
    for iface in drivers_base.ALL_INTERFACES:
        field = '%s_interface' % iface
        assert getattr(row, field) == getattr(own, field), field
    assert (row.name, row.deploy_interface, row.provision_state) == (
        'n1', 'ramdisk', 'enroll')
    # An interface the conductor does not enable: it answers (400).
    resp = over_api._clean(_call(api, 'post', '/v1/nodes', {
        'driver': 'fake-hardware', 'power_interface': 'ipmitool'}))
    assert resp.status_int == 400 and 'ipmitool' in resp.text
    assert sent == ['create_node']
    # Registered while pinned to the previous release, it published
    # nothing an API reads (a Conductor 1.0 row): creations go to it,
    # until it registers again unpinned.
    config.set_override('pin_release_version', '6.0')
    api.conductor.manager.follow_release()
    config.clear_override('pin_release_version')
    row = db_conductor.get_conductor(conftest.HOST)
    assert row.version == '1.0' and not row.hardware_interfaces
    _node(api, name='n2')
    assert sent == ['create_node', 'create_node']
    api.conductor.manager.follow_release()
    _node(api, name='n3')
    assert sent == ['create_node', 'create_node']


def test_parallel_patches_lose_no_acknowledged_write(
        api, config):  # noqa: F811
    over_api.test_parallel_patches_lose_no_acknowledged_write(api, config)
