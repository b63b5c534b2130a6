"""Node.shard (release 2.0): filters, the shard list, and the pin rules."""

import pytest
import sqlalchemy as sa

from ironic_lite.common import context as ir_context
from ironic_lite import conf
from ironic_lite.db import api as db_api
from ironic_lite import objects
from ironic_lite.objects import base

objects.register_all()
CONF = conf.CONF


@pytest.fixture
def ctx(any_db):
    return ir_context.get_admin_context()


def _node(ctx, name, shard=None):
    node = objects.Node(ctx, driver='fake-hardware', name=name, shard=shard)
    node.create()
    return node


def _names(nodes):
    return sorted(n.name for n in nodes)


def _fleet(ctx):
    # Shards (and, from release 4.0, node names) are case-sensitive on
    # every backend.
    nodes = {'a1': 'a', 'a2': 'a', 'a3': 'a', 'b1': 'b', 'cap-b1': 'B',
             'u1': None, 'u2': None}
    return {name: _node(ctx, name, shard) for name, shard in nodes.items()}


def test_filters_are_exact_and_case_sensitive(ctx):
    _fleet(ctx)

    def list_(**f):
        return _names(objects.Node.list(ctx, filters=f))
    assert list_(shard=['a']) == ['a1', 'a2', 'a3']
    assert list_(shard=['b']) == ['b1']
    assert list_(shard=['B', 'b']) == ['b1', 'cap-b1']
    assert list_(shard=['A']) == []
    assert list_(shard=[None]) == ['u1', 'u2']
    assert list_(shard=['b', None]) == ['b1', 'u1', 'u2']
    assert list_(sharded=True) == ['a1', 'a2', 'a3', 'b1', 'cap-b1']
    assert list_(sharded=False) == ['u1', 'u2']
    assert list_(shard=['a'], sharded=False) == []


def test_shard_list_is_one_group_by_biggest_first(ctx):
    _fleet(ctx)
    assert objects.Node.get_shard_list(ctx) == [
        {'name': 'a', 'count': 3},
        {'name': None, 'count': 2},
        {'name': 'B', 'count': 1},
        {'name': 'b', 'count': 1},
    ]


def test_ports_and_portgroups_by_their_node_shard(ctx):
    fleet = _fleet(ctx)
    for i, name in enumerate(('a1', 'b1', 'u1')):
        objects.Port(ctx, node_id=fleet[name].id, pxe_enabled=True,
                     address='52:54:00:00:00:%02x' % i).create()
        objects.Portgroup(ctx, node_id=fleet[name].id, name='pg-' + name,
                          standalone_ports_supported=True,
                          address='52:54:00:00:01:%02x' % i).create()
    node_of = {n.id: n.name for n in fleet.values()}
    for cls in (objects.Port, objects.Portgroup):
        def found(shards, cls=cls):
            return sorted(node_of[p.node_id]
                          for p in cls.list(ctx, filters={'shard': shards}))
        assert found(['a']) == ['a1']
        assert found(['a', 'b']) == ['a1', 'b1']
        assert found([None]) == ['u1']
        assert found(['nope']) == []
        both = cls.list(ctx, filters={'shard': ['a'],
                                      'node_id': fleet['b1'].id})
        assert both == []
    # The owner is the node's too: shard and project are ANDed.
    fleet['b1'].owner = 'p1'
    fleet['b1'].save()
    for cls in (objects.Port, objects.Portgroup):
        owned = cls.list(ctx, filters={'shard': ['a', 'b'],
                                       'project': 'p1'})
        assert [node_of[p.node_id] for p in owned] == ['b1']
        assert cls.list(ctx, filters={'project': 'p2'}) == []


def _raw_node(uuid):
    table = sa.Table('nodes', sa.MetaData(), autoload_with=db_api.get_engine())
    with db_api.get_engine().connect() as conn:
        return conn.execute(sa.select(table.c.shard, table.c.version,
                                      table.c.extra)
                            .where(table.c.uuid == uuid)).one()


def test_pinned_save_never_loses_a_stored_shard(ctx):
    node = _node(ctx, 'keep', shard='rack-1')
    assert _raw_node(node.uuid).version == objects.Node.VERSION
    CONF.set_override('pin_release_version', '1.0')
    try:
        pinned = objects.Node.get_by_uuid(ctx, node.uuid)
        # Read at the latest version in memory, shard included.
        assert pinned.VERSION == objects.Node.VERSION
        assert pinned.shard == 'rack-1'
        pinned.extra = {'saved': 'pinned'}
        pinned.shard = 'changed-while-pinned'
        changes = pinned.do_version_changes_for_db()
        assert 'shard' not in changes and changes['version'] == '1.0'
        pinned.save()
    finally:
        CONF.clear_override('pin_release_version')
    row = _raw_node(node.uuid)
    assert (row.shard, row.version) == ('rack-1', '1.0')
    # Read back unpinned: a 1.0 row keeps the column's shard.
    again = objects.Node.get_by_uuid(ctx, node.uuid)
    assert again.shard == 'rack-1' and again.VERSION == objects.Node.VERSION
    assert 'shard' not in again.obj_what_changed()


def test_a_1_0_sender_does_not_erase_the_shard(ctx):
    node = _node(ctx, 'rpc', shard='rack-2')
    serializer = base.IronicObjectSerializer()
    node.extra = {'from': 'a 1.0 API'}
    primitive = node.obj_to_primitive(target_version='1.0')
    assert 'shard' not in primitive['ironic_object.data']
    received = serializer.deserialize_entity(ctx, primitive)
    assert received.VERSION == objects.Node.VERSION
    assert received.shard is None
    assert 'shard' not in received.obj_what_changed()
    assert 'extra' in received.obj_what_changed()
    received.save()
    assert _raw_node(node.uuid).shard == 'rack-2'
