"""Writers retry once more on a deadlock or a dropped connection, as
Ironic's DB API does (issue 9, persistence path)."""

import pytest
from oslo_db import exception as db_exc
import sqlalchemy as sa
from sqlalchemy import event

from ironic_lite.db import allocation as db_allocation
from ironic_lite.db import api as db_api
from ironic_lite.db import node as db_node
from ironic_lite.db import models


@pytest.fixture
def fail_once(sqlite_db):
    """fail_once(error, statement prefix): the next matching statement
    raises ``error`` instead of running; returns the list of failures."""
    engine = db_api.get_engine()
    failures = []
    armed = {}

    def before(conn, cursor, statement, params, context, executemany):
        prefix = armed.get('prefix')
        if prefix and statement.lstrip().upper().startswith(prefix):
            armed.clear()
            failures.append(statement.split()[0])
            raise armed_error[0]

    armed_error = [None]

    def arm(error, prefix):
        armed_error[0] = error
        armed['prefix'] = prefix
        del failures[:]
        return failures

    event.listen(engine, 'before_cursor_execute', before)
    yield arm
    event.remove(engine, 'before_cursor_execute', before)


def _count_nodes():
    with db_api.reader() as session:
        return session.query(models.Node).count()


@pytest.mark.parametrize('error', [db_exc.DBDeadlock(),
                                   db_exc.DBConnectionError()],
                         ids=['deadlock', 'disconnect'])
def test_create_update_release_retried_and_done_once(fail_once, error):
    failures = fail_once(error, 'INSERT INTO NODES')
    row = db_node.create_node({'driver': 'fake-hardware', 'name': 'n1'})
    assert failures == ['INSERT']
    assert _count_nodes() == 1

    failures = fail_once(error, 'UPDATE NODES')
    db_node.update_node(row.uuid, {'extra': {'a': 1}})
    assert failures == ['UPDATE']
    assert db_node.get_node_by_uuid(row.uuid).extra == {'a': 1}

    db_node.reserve_node('host-a', row.uuid)
    failures = fail_once(error, 'UPDATE NODES')
    db_node.release_node('host-a', row.uuid)
    assert failures == ['UPDATE']
    assert db_node.get_node_by_uuid(row.uuid).reservation is None


def test_no_retry_inside_an_outer_transaction(fail_once):
    failures = fail_once(db_exc.DBDeadlock(), 'INSERT INTO NODES')
    with pytest.raises(db_exc.DBDeadlock):
        with db_api.writer():
            db_node.create_node({'driver': 'fake-hardware'})
    assert failures == ['INSERT']
    assert _count_nodes() == 0


@pytest.mark.parametrize('error', [db_exc.DBDeadlock(),
                                   db_exc.DBConnectionError()],
                         ids=['deadlock', 'disconnect'])
def test_trait_writers_retried(fail_once, error):
    """MariaDB's next-key locks make two trait replacements on different
    nodes deadlock now and then (seen in the rolling-upgrade test)."""
    from ironic_lite.db import trait as db_trait
    row = db_node.create_node({'driver': 'fake-hardware'})

    failures = fail_once(error, 'INSERT INTO NODE_TRAITS')
    db_trait.set_node_traits(row.id, ['CUSTOM_A', 'CUSTOM_B'], '1.0')
    assert failures == ['INSERT']
    failures = fail_once(error, 'INSERT INTO NODE_TRAITS')
    db_trait.add_node_trait(row.id, 'CUSTOM_C', '1.0')
    assert failures == ['INSERT']
    failures = fail_once(error, 'DELETE FROM NODE_TRAITS')
    db_trait.delete_node_trait(row.id, 'CUSTOM_A')
    assert failures == ['DELETE']
    assert [t.trait for t in db_trait.get_node_traits_by_node_id(
        row.id)] == ['CUSTOM_B', 'CUSTOM_C']
    failures = fail_once(error, 'DELETE FROM NODE_TRAITS')
    db_trait.unset_node_traits(row.id)
    assert failures == ['DELETE']
    assert db_trait.get_node_traits_by_node_id(row.id) == []


def test_a_write_on_a_read_only_server_is_an_outage(postgresql_url, use_db):
    """A failover can hand a writer a connection to a PostgreSQL that is
    read-only for now (a standby not yet promoted, a primary restarting
    as a standby): the write is retried on new connections and, while
    the server stays read-only, ends as oslo.db's DBConnectionError (the
    API's retry-safe 503), not as a refused write (500)."""
    use_db(postgresql_url)
    name = postgresql_url.rsplit('/', 1)[1]
    admin = sa.create_engine(postgresql_url, isolation_level='AUTOCOMMIT')
    try:
        with admin.connect() as conn:
            conn.execute(sa.text('ALTER DATABASE %s SET '
                                 'default_transaction_read_only = on'
                                 % name))
        db_api.reset()     # new sessions: read-only ones
        with pytest.raises(db_exc.DBConnectionError):
            db_node.create_node({'driver': 'fake-hardware', 'name': 'n1'})
        with admin.connect() as conn:
            conn.execute(sa.text('ALTER DATABASE %s RESET '
                                 'default_transaction_read_only' % name))
        db_api.reset()
        db_node.create_node({'driver': 'fake-hardware', 'name': 'n1'})
        assert _count_nodes() == 1
    finally:
        admin.dispose()


class _Context(object):
    def __init__(self, error):
        self.original_exception = error
        self.is_disconnect = False


@pytest.mark.parametrize('pgcode,disconnect', [('25006', True),
                                               ('23505', False),
                                               (None, False)])
def test_only_read_only_errors_are_marked_disconnects(pgcode, disconnect):
    error = Exception('x')
    if pgcode:
        error.pgcode = pgcode
    context = _Context(error)
    db_api._read_only_is_disconnect(context)
    assert context.is_disconnect is disconnect


@pytest.mark.parametrize('error', [db_exc.DBDeadlock(),
                                   db_exc.DBConnectionError()],
                         ids=['deadlock', 'disconnect'])
def test_fail_allocating_retried(fail_once, error):
    """A dead conductor's allocations are moved to error even when the
    first attempt loses a deadlock or its connection (a Galera failover)."""
    row = db_allocation.create_allocation({'conductor_affinity': 7})
    failures = fail_once(error, 'UPDATE ALLOCATIONS')
    assert db_allocation.fail_allocating([7], 'gone') == 1
    assert failures == ['UPDATE']
    found = db_allocation.get_allocation_by_uuid(row.uuid)
    assert (found.state, found.last_error) == ('error', 'gone')
