"""A connection used within the last second goes without the pre-ping
round trip when a writer or the one-node read (which runs again) checks
it out; every other checkout is pinged, and a connection that died is
replaced -- by the ping for a reader, by running again for a writer and
for the one-node read."""

import sqlalchemy as sa

from ironic_lite.db import api as db_api
from ironic_lite.db import pool as db_pool
from ironic_lite import objects

objects.register_all()


def _pings(monkeypatch, engine):
    pinged = []
    real = engine.dialect.do_ping

    def counted(dbapi_conn):
        pinged.append(dbapi_conn)
        return real(dbapi_conn)
    monkeypatch.setattr(engine.dialect, 'do_ping', counted)
    return pinged


def _kill_pooled_connections(engine):
    """What a database restart does to the pool's connections."""
    with engine.connect() as conn:
        conn.exec_driver_sql(
            'SELECT pg_terminate_backend(pid) FROM pg_stat_activity '
            'WHERE datname = current_database() AND pid <> pg_backend_pid()')


def test_only_a_recently_used_connection_of_a_writer_or_rerun_read(
        postgresql_url, use_db, monkeypatch):
    use_db(postgresql_url)
    engine = db_api.get_engine()
    node = objects.Node(None, driver='fake-hardware', name='n-1')
    node.create()
    pinged = _pings(monkeypatch, engine)
    node.extra = {'a': 1}
    node.save()                                    # used just before
    assert pinged == []
    objects.Node.get_by_uuid(None, node.uuid)      # the one-node read
    assert pinged == []
    objects.Node.list(None)                        # other readers
    assert pinged
    seen = len(pinged)
    monkeypatch.setattr(db_pool, 'PING_AFTER', 0)
    node.extra = {'a': 2}
    node.save()                                    # idle "too long"
    assert len(pinged) == seen + 1
    objects.Node.get_by_uuid(None, node.uuid)
    assert len(pinged) == seen + 2


def test_a_dead_connection_is_replaced_for_readers_and_writers(
        postgresql_url, use_db):
    use_db(postgresql_url)
    engine = db_api.get_engine()
    node = objects.Node(None, driver='fake-hardware', name='n-1')
    node.create()
    _kill_pooled_connections(engine)
    # The reader's ping finds it dead: a new connection, no error.
    assert [n.name for n in objects.Node.list(None)] == ['n-1']
    _kill_pooled_connections(engine)
    # The one-node read's connection, just used, is not pinged: its
    # statement fails on the dead one, and it reads again on a new one.
    assert objects.Node.get_by_uuid(None, node.uuid).name == 'n-1'
    node.extra = {'b': 1}
    node.save()
    _kill_pooled_connections(engine)
    # The writer's connection is not pinged: its statement fails on the
    # dead one, and the writer runs again on a new connection.
    node.extra = {'b': 2}
    node.save()
    with engine.connect() as conn:
        extra = conn.execute(sa.text(
            'SELECT extra FROM nodes WHERE uuid = :u'), {'u': node.uuid})
        assert '"b": 2' in extra.scalar()
