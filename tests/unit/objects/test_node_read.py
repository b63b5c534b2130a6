"""A node is read with its traits in one statement."""

import sqlalchemy as sa

from ironic_lite.common import exception
from ironic_lite.db import api as db_api
from ironic_lite import objects

objects.register_all()


def _selects(engine):
    seen = []

    def record(conn, cursor, statement, params, context, many):
        if statement.lstrip().upper().startswith('SELECT'):
            seen.append(statement)
    sa.event.listen(engine, 'before_cursor_execute', record)
    return seen, lambda: sa.event.remove(engine, 'before_cursor_execute',
                                         record)


def test_node_and_its_traits_in_one_select(sqlite_db):
    node = objects.Node(None, driver='fake-hardware', name='n-1')
    node.create()
    objects.TraitList.create(None, node.id, ['CUSTOM_B', 'CUSTOM_A'])
    bare = objects.Node(None, driver='fake-hardware', name='n-2')
    bare.create()
    engine = db_api.get_engine()
    for getter, ident in ((objects.Node.get_by_uuid, node.uuid),
                          (objects.Node.get_by_id, node.id),
                          (objects.Node.get_by_name, 'n-1'),
                          (objects.Node.get, 'n-1')):
        seen, stop = _selects(engine)
        try:
            found = getter(None, ident)
        finally:
            stop()
        assert len(seen) == 1, seen
        assert found.uuid == node.uuid
        assert found.traits.get_trait_names() == ['CUSTOM_A', 'CUSTOM_B']
        assert found.obj_what_changed() == set()
    found = objects.Node.get_by_uuid(None, bare.uuid)
    assert found.traits.get_trait_names() == []
    try:
        objects.Node.get_by_name(None, 'missing')
    except exception.NodeNotFound as err:
        assert 'missing' in str(err)
    else:
        raise AssertionError('no NodeNotFound')
