"""SQLite: a writer that reads, then writes, while another connection
commits in between must wait, not fail with "database is locked"; pooled
connections; the write-ahead log back in the file when the engine closes."""

import contextlib
import os
import shutil
import sqlite3
import threading

import sqlalchemy as sa

from ironic_lite.db import api
from ironic_lite.db import models
from tests import timeouts


def test_read_then_write_survives_a_concurrent_commit(sqlite_db):
    with api.writer() as session:
        session.add(models.Chassis(uuid='c-1', description='0'))
    read_done = threading.Event()
    errors = []

    def read_then_write():
        try:
            with api.writer() as session:
                row = session.query(models.Chassis).filter_by(
                    uuid='c-1').one()
                read_done.set()
                # Let the other thread try to commit meanwhile.
                other.join(0.5)
                row.description = 'first'
        except Exception as err:  # reported below
            errors.append(err)

    def concurrent_commit():
        read_done.wait(timeouts.HANG)
        try:
            with api.writer() as session:
                session.execute(sa.update(models.Chassis).values(
                    description='second'))
        except Exception as err:
            errors.append(err)

    other = threading.Thread(target=concurrent_commit)
    first = threading.Thread(target=read_then_write)
    other.start()
    first.start()
    first.join(timeouts.HANG)
    other.join(timeouts.HANG)
    assert errors == []
    with api.reader() as session:
        # The second writer waited for the first one's lock.
        assert session.query(models.Chassis.description).scalar() == \
            'second'


def _begins(engine):
    """(statements, DBAPI connections) seen while the test runs."""
    seen = []

    def record(conn, cursor, statement, params, context, many):
        seen.append((statement.strip().upper(),
                     id(conn.connection.dbapi_connection)))
    sa.event.listen(engine, 'before_cursor_execute', record)
    return seen, lambda: sa.event.remove(engine, 'before_cursor_execute',
                                         record)


def test_connections_are_pooled_and_each_transaction_begins_afresh(
        sqlite_db):
    """SQLite file engines keep their connections (no connect and PRAGMAs
    per transaction), and a connection a reader used still begins a
    writer's transaction with BEGIN IMMEDIATE."""
    engine = api.get_engine()
    assert isinstance(engine.pool, sa.pool.QueuePool)
    connects = []

    def connected(dbapi_conn, record):
        connects.append(dbapi_conn)
    sa.event.listen(engine, 'connect', connected)
    seen, stop = _begins(engine)
    try:
        for _ in range(3):
            with api.reader() as session:
                session.query(models.Chassis).count()
            with api.writer() as session:
                session.add(models.Chassis(uuid=api.uuidutils
                                           .generate_uuid()))
    finally:
        stop()
        sa.event.remove(engine, 'connect', connected)
    assert len(connects) == 1  # one connection served all six
    begins = [s for s, _c in seen if s.startswith('BEGIN')]
    assert begins == ['BEGIN', 'BEGIN IMMEDIATE'] * 3
    assert len({c for _s, c in seen}) == 1


def test_reset_checkpoints_the_log_into_the_file(sqlite_db):
    """Closing the engine moves the write-ahead log into the database
    file and empties it, even while another process has the file open
    (then closing this process's connections would not): a copy of the
    file alone holds what was committed."""
    path = sqlite_db[len('sqlite:///'):]
    with api.writer() as session:
        session.add(models.Chassis(uuid='c-wal', description='kept'))
    other = sqlite3.connect(path)
    try:
        other.execute('SELECT count(*) FROM chassis').fetchall()
        assert os.path.getsize(path + '-wal') > 0
        api.reset()
        assert os.path.getsize(path + '-wal') == 0
    finally:
        other.close()
    copy = path + '.copy'
    shutil.copyfile(path, copy)
    with contextlib.closing(sqlite3.connect(copy)) as conn:
        rows = conn.execute('SELECT description FROM chassis '
                            "WHERE uuid = 'c-wal'").fetchall()
    assert rows == [('kept',)]
