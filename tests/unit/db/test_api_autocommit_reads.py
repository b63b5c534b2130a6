"""Reads on PostgreSQL in autocommit (db/api.reader): no transaction
around a read, while writers keep theirs -- also a writer that runs on a
connection a read used just before."""

import pytest

from ironic_lite.common import exception
from ironic_lite.db import api
from ironic_lite.db import node as db_node


def test_a_read_is_its_statement_alone_and_writers_keep_transactions(
        postgresql_url, use_db):
    use_db(postgresql_url)
    node = db_node.create_node({'driver': 'fake-hardware', 'name': 'n1'})
    raw = []
    # psycopg2 sends BEGIN itself: watch the connection's status instead.
    with api.reader() as session:
        dbapi = session.connection().connection.dbapi_connection
        raw.append(dbapi.autocommit)
        db_node.get_node_and_traits('id', node.id)
        raw.append(dbapi.get_transaction_status())
    assert raw == [True, 0]        # 0: idle, no transaction open
    # Several writers in a row on the pooled connection(s) the reads
    # used: each is a transaction (a failure undoes its first write).
    for _ in range(3):
        db_node.get_node_and_traits('id', node.id)
        with pytest.raises(exception.DuplicateName):
            with api.writer() as session:
                dbapi = session.connection().connection.dbapi_connection
                assert dbapi.autocommit is False
                db_node.update_node(node.id, {'extra': {'a': 1}})
                db_node.create_node({'driver': 'fake-hardware',
                                     'name': 'n1'})
    assert db_node.get_node_by_uuid(node.uuid).extra == {}
    # A read inside a writer is part of the writer's transaction.
    with api.writer() as session:
        db_node.update_node(node.id, {'extra': {'b': 2}})
        with api.reader():
            assert db_node.get_node_by_uuid(node.uuid).extra == {'b': 2}
        dbapi = session.connection().connection.dbapi_connection
        assert dbapi.autocommit is False
    assert db_node.get_node_by_uuid(node.uuid).extra == {'b': 2}
