"""A node read with its traits outside a transaction on PostgreSQL runs as
a statement prepared once per connection: the same node and traits as
the transaction's read, one PREPARE per connection, and a connection that
lost its statement (a pooler sharing server connections) falls back to
the plain statement for good."""

import pytest
import sqlalchemy as sa

from ironic_lite.common import exception
from ironic_lite.db import api as db_api
from ironic_lite.db import models
from ironic_lite.db import node as db_node
from ironic_lite.db import prepared
from ironic_lite import objects

objects.register_all()


@pytest.fixture
def pg(postgresql_url, use_db, monkeypatch):
    use_db(postgresql_url)
    monkeypatch.setattr(prepared._Preparing, 'on', True)
    node = objects.Node(None, driver='fake-hardware', name='n-1',
                        extra={'a': 1})
    node.create()
    objects.TraitList.create(None, node.id, ['CUSTOM_B', 'CUSTOM_A'])
    bare = objects.Node(None, driver='fake-hardware', name='n-2')
    bare.create()
    return node, bare


def _statements(engine):
    seen = []

    def record(conn, cursor, statement, params, context, many):
        seen.append(statement.split(None, 1)[0].upper())
    sa.event.listen(engine, 'before_cursor_execute', record)
    return seen, lambda: sa.event.remove(engine, 'before_cursor_execute',
                                         record)


def _in_transaction(column, value):
    with db_api.reader():   # inside a block: the plain statement
        return db_node.get_node_and_traits(column, value)


def _same(prepared, plain):
    (row, traits), (row2, traits2) = prepared, plain
    names = [c.name for c in models.Node.__table__.columns]
    assert {n: getattr(row, n) for n in names} == {
        n: getattr(row2, n) for n in names}
    assert [(t.node_id, t.trait, t.version, t.created_at, t.updated_at)
            for t in traits] == [
        (t.node_id, t.trait, t.version, t.created_at, t.updated_at)
        for t in traits2]


def test_the_same_node_and_traits_as_the_plain_read(pg):
    node, bare = pg
    engine = db_api.get_engine()
    seen, stop = _statements(engine)
    try:
        for column, value in (('uuid', node.uuid), ('id', node.id),
                              ('name', 'n-1'), ('name', 'n-2')):
            _same(db_node.get_node_and_traits(column, value),
                  _in_transaction(column, value))
            _same(db_node.get_node_and_traits(column, value),
                  _in_transaction(column, value))
    finally:
        stop()
    # Prepared once per statement (one connection here), executed after.
    assert seen.count('PREPARE') == 3, seen
    assert seen.count('EXECUTE') == 8, seen
    assert [t.trait for t in db_node.get_node_and_traits(
        'uuid', node.uuid)[1]] == ['CUSTOM_A', 'CUSTOM_B']
    assert db_node.get_node_and_traits('name', 'n-2')[1] == []
    with pytest.raises(exception.NodeNotFound):
        db_node.get_node_and_traits('name', 'n-3')
    # Read as the API reads it, the object is the same.
    got = objects.Node.get(None, node.uuid)
    assert (got.name, got.extra, got.traits.get_trait_names()) == (
        'n-1', {'a': 1}, ['CUSTOM_A', 'CUSTOM_B'])


def test_a_statement_gone_from_its_connection_turns_preparing_off(pg):
    """What PgBouncer's transaction mode does: the connection the
    statement was prepared on is not the one the next EXECUTE reaches."""
    node, _bare = pg
    engine = db_api.get_engine()
    engine.dispose()
    name = prepared._preparable(db_node._NODE_AND_TRAITS_BY['uuid'],
                                engine.dialect)[0]
    with engine.connect() as conn:
        # Believed prepared on this connection, but not on its server.
        conn.connection.info[prepared._PREPARED] = {name}
    found = db_node.get_node_and_traits('uuid', node.uuid)
    assert prepared._Preparing.on is False
    _same(found, _in_transaction('uuid', node.uuid))
    seen, stop = _statements(engine)
    try:
        again = db_node.get_node_and_traits('uuid', node.uuid)
    finally:
        stop()
    _same(again, found)
    assert 'PREPARE' not in seen and 'EXECUTE' not in seen, seen


def test_a_column_type_changed_since_the_prepare(pg):
    """PostgreSQL refuses a prepared plan whose result type changed (a
    migration widening a column): read as text once, prepared again."""
    node, _bare = pg
    engine = db_api.get_engine()
    engine.dispose()
    before = db_node.get_node_and_traits('uuid', node.uuid)
    with engine.connect() as conn:
        conn.exec_driver_sql(
            'ALTER TABLE nodes ALTER COLUMN name TYPE varchar(300)')
        conn.commit()
    seen, stop = _statements(engine)
    try:
        after = db_node.get_node_and_traits('uuid', node.uuid)
        again = db_node.get_node_and_traits('uuid', node.uuid)
    finally:
        stop()
    _same(after, before)
    _same(again, before)
    assert prepared._Preparing.on is True
    assert seen.count('PREPARE') == 1, seen
