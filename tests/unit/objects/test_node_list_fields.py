"""Node.list(fields=...): fewer columns read, the same conversion."""

import pytest
import sqlalchemy as sa

from ironic_lite.common import context as ir_context
from ironic_lite.db import api as db_api
from ironic_lite.db import models
from ironic_lite.db import node as db_node
from ironic_lite import objects
from ironic_lite.objects import base

objects.register_all()


@pytest.fixture
def ctx(any_db):
    return ir_context.get_admin_context()


def _make(ctx, name, **values):
    node = objects.Node(ctx, driver='fake-hardware', name=name, **values)
    node.create()
    return node


def _write_as_1_0(uuid):
    """Make the row look written by release 1.0: version 1.0, and NULL in
    the column of every field added after it (shard, ...)."""
    table = models.Node.__table__
    newer = objects.Node.fields_at(objects.Node.VERSION) - (
        objects.Node.fields_at('1.0'))
    nulls = {name: None for name in newer if name in table.c}
    assert 'shard' in nulls
    with db_api.get_engine().begin() as conn:
        conn.execute(sa.update(table).where(table.c.uuid == uuid)
                     .values(version='1.0', **nulls))


def test_only_the_fields_asked_for_are_set(ctx):
    made = _make(ctx, 'n1', shard='s1', extra={'a': 1},
                 provision_state='available')
    full = objects.Node.list(ctx)[0]
    partial = objects.Node.list(ctx, fields=['name', 'provision_state'])[0]
    for name in ('name', 'provision_state', 'id', 'uuid', 'owner',
                 'lessee', 'created_at', 'updated_at'):
        assert getattr(partial, name) == getattr(full, name)
    assert partial.uuid == made.uuid and partial.name == 'n1'
    assert not partial.obj_attr_is_set('extra')
    assert not partial.obj_attr_is_set('driver_info')
    assert partial.obj_what_changed() == set()
    assert full.extra == {'a': 1} and full.shard == 's1'


def test_unknown_and_non_column_names_are_ignored(ctx):
    _make(ctx, 'n2')
    node = objects.Node.list(ctx, fields=['name', 'no_such', 'links'])[0]
    assert node.name == 'n2'
    assert not node.obj_attr_is_set('driver')


def test_partial_rows_are_still_converted_to_latest(ctx):
    made = _make(ctx, 'old', shard='ignored')
    _write_as_1_0(made.uuid)
    node = objects.Node.list(ctx, fields=['name', 'shard'])[0]
    assert node.VERSION == objects.Node.VERSION
    assert node.shard is None and node.name == 'old'
    assert 'shard' not in node.obj_what_changed()


def test_filters_and_paging_with_fields(ctx):
    made = [_make(ctx, 'p%d' % i, shard='a' if i % 2 else None)
            for i in range(6)]
    first = objects.Node.list(ctx, limit=2, sort_key='id',
                              filters={'shard': ['a']}, fields=['name'])
    rest = objects.Node.list(ctx, limit=5, sort_key='id',
                             marker=first[-1].uuid,
                             filters={'shard': ['a']}, fields=['name'])
    assert [n.name for n in first + rest] == [
        n.name for n in made if n.shard == 'a']


def test_fast_row_copy_matches_the_setter_path(ctx):
    _make(ctx, 'same', properties={'cpus': 2}, shard='x')
    row = db_node.get_node_list()[0]
    fast = base.IronicObject._from_db_object(ctx, objects.Node(), row)
    slow = objects.Node()
    for name in slow.fields:
        if hasattr(row, name):
            setattr(slow, name, getattr(row, name))
    assert fast.obj_to_primitive()['ironic_object.data'] == {
        k: v for k, v in slow.obj_to_primitive()[
            'ironic_object.data'].items()}


def test_shard_list_counts_every_node(ctx):
    for i, shard in enumerate(['a', 'a', None, 'b', 'a', None]):
        _make(ctx, 'c%d' % i, shard=shard)
    assert objects.Node.get_shard_list(ctx) == [
        {'name': 'a', 'count': 3}, {'name': None, 'count': 2},
        {'name': 'b', 'count': 1}]


def test_uuids_of_many_node_ids_in_one_query(ctx):
    made = [_make(ctx, 'i%d' % i) for i in range(4)]
    wanted = [made[0].id, made[2].id, 10 ** 6]
    nodes = objects.Node.list(ctx, filters={'id_in': wanted},
                              fields=['uuid'])
    assert {n.id: n.uuid for n in nodes} == {made[0].id: made[0].uuid,
                                             made[2].id: made[2].uuid}
