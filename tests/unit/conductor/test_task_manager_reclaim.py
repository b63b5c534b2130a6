"""A node lock is always released or reclaimed, even when the database
connection drops at the moment of release (issue 9, defect 2), on a real
PostgreSQL whose backends are terminated with pg_terminate_backend."""

import time

import pytest
import sqlalchemy as sa
from sqlalchemy import event

from ironic_lite.common import context as ir_context
from ironic_lite.conductor import hash_ring
from ironic_lite.conductor import task_manager
from ironic_lite.db import api as db_api
from ironic_lite import objects
from tests import conftest as top
from tests import timeouts
from tests.unit.conductor import conftest


@pytest.fixture
def pg(config, postgresql_url, use_db):
    use_db(postgresql_url)
    objects.register_all()
    hash_ring.RING_MANAGER.reset()
    admin = sa.create_engine(top.POSTGRESQL_URL + '/postgres',
                             isolation_level='AUTOCOMMIT')
    yield postgresql_url.rsplit('/', 1)[1], admin
    admin.dispose()
    hash_ring.RING_MANAGER.reset()


def _terminate_all(admin, dbname):
    """pg_terminate_backend every connection to ``dbname``; wait until
    they are gone."""
    with admin.connect() as conn:
        conn.execute(sa.text(
            'SELECT pg_terminate_backend(pid) FROM pg_stat_activity '
            'WHERE datname = :d AND pid <> pg_backend_pid()'), {'d': dbname})
        deadline = time.monotonic() + timeouts.HANG
        while conn.execute(sa.text(
                'SELECT count(*) FROM pg_stat_activity WHERE datname = :d '
                'AND pid <> pg_backend_pid()'), {'d': dbname}).scalar():
            assert time.monotonic() < deadline, 'backends did not exit'
            time.sleep(0.02)


@pytest.fixture
def kill_at_release(pg):
    """kill_at_release(n): the next ``n`` release statements find their
    connection terminated (returns the list of kills done)."""
    dbname, admin = pg
    engine = db_api.get_engine()
    state = {'left': 0, 'done': []}

    def before(conn, cursor, statement, params, context, executemany):
        if (state['left'] > 0 and statement.startswith('UPDATE nodes SET '
                                                       'reservation')
                and isinstance(params, dict)
                and params.get('reservation') is None):
            state['left'] -= 1
            _terminate_all(admin, dbname)
            state['done'].append(time.monotonic())

    def arm(count):
        state['left'] = count
        return state['done']

    event.listen(engine, 'before_cursor_execute', before)
    yield arm
    event.remove(engine, 'before_cursor_execute', before)


def _reservation(uuid):
    return objects.Node.get_by_uuid(None, uuid).reservation


def test_release_retried_when_the_connection_drops(kill_at_release):
    ctx = ir_context.get_admin_context()
    node = objects.Node(ctx, driver='fake-hardware')
    node.create(ctx)
    kills = kill_at_release(1)
    with task_manager.acquire(ctx, node.uuid, load_driver=False) as task:
        assert task.node.reservation == conftest.HOST
    assert len(kills) == 1
    assert _reservation(node.uuid) is None


def test_lock_reclaimed_when_every_release_attempt_fails(kill_at_release):
    ctx = ir_context.get_admin_context()
    stale = objects.Node(ctx, driver='fake-hardware')
    stale.create(ctx)
    busy = objects.Node(ctx, driver='fake-hardware')
    busy.create(ctx)
    kills = kill_at_release(100)
    with task_manager.acquire(ctx, stale.uuid, load_driver=False):
        pass
    # The release and all its retries failed: the lock is left behind ...
    assert len(kills) > 1
    kill_at_release(0)
    assert _reservation(stale.uuid) == conftest.HOST
    with task_manager.acquire(ctx, busy.uuid, load_driver=False):
        # ... and the periodic reclaim clears it, never the lock of a
        # task still running.
        assert task_manager.reclaim_stale_locks(
            ctx, conftest.HOST) == [stale.uuid]
        assert _reservation(stale.uuid) is None
        assert _reservation(busy.uuid) == conftest.HOST
    assert _reservation(busy.uuid) is None
    assert task_manager.reclaim_stale_locks(ctx, conftest.HOST) == []


def test_lock_released_meanwhile_is_taken_not_locked_by_none(pg):
    """Issue 9, defect 8: the holder releases between the reserving
    UPDATE (no row: locked) and the SELECT that names the holder."""
    dbname, admin = pg
    ctx = ir_context.get_admin_context()
    node = objects.Node(ctx, driver='fake-hardware', reservation='other')
    node.create(ctx)
    engine = db_api.get_engine()
    released = []

    def after(conn, cursor, statement, params, context, executemany):
        if (not released and statement.startswith('UPDATE nodes SET '
                                                  'reservation')
                and cursor.rowcount == 0):
            other_engine = sa.create_engine(
                top.POSTGRESQL_URL + '/' + dbname,
                isolation_level='AUTOCOMMIT')
            with other_engine.connect() as other:
                other.execute(sa.text('UPDATE nodes SET reservation = NULL '
                                      'WHERE uuid = :u'), {'u': node.uuid})
            other_engine.dispose()
            released.append(True)

    event.listen(engine, 'after_cursor_execute', after)
    try:
        locked = objects.Node.reserve(ctx, conftest.HOST, node.uuid)
    finally:
        event.remove(engine, 'after_cursor_execute', after)
    assert released
    assert locked.reservation == conftest.HOST
