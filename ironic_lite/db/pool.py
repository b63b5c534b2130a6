"""The engine's connection pool: SQLite's pooled, and the pre-ping
skipped where a dead connection costs nothing but running again."""

import time

import sqlalchemy as sa
from sqlalchemy import event


# Connections an SQLite engine's pool keeps open (more are opened when
# more threads need one at once, and closed when returned).
SQLITE_POOL_SIZE = 10


def pool_sqlite(engine):
    """Give an SQLite file engine a pool of connections.

    oslo.db makes SQLite file engines open and close a connection per
    transaction (``NullPool``); each open costs the connect and the
    PRAGMAs of ``_sqlite_on_connect``, about a third of a small request,
    and closing the last connection to a WAL database checkpoints the
    whole log (milliseconds of I/O).  Pooled connections stay open: the
    log is checkpointed as it grows (every 1,000 pages), and each commit
    is as durable as before.

    SQLAlchemy's own default for a file is ``QueuePool`` (its connections
    are made with ``check_same_thread=False`` for that), and oslo.db's
    BEGIN and end-of-transaction listeners mark each connection's state
    per transaction, so a pooled connection starts each one afresh.  The
    pool keeps the old one's event listeners.  In-memory databases keep
    oslo.db's ``StaticPool``.
    """
    old = engine.pool
    if engine.dialect.name != 'sqlite' or not isinstance(old,
                                                         sa.pool.NullPool):
        return
    engine.pool = sa.pool.QueuePool(
        old._creator, pool_size=SQLITE_POOL_SIZE, max_overflow=-1,
        recycle=old._recycle, echo=old.echo,
        logging_name=old._orig_logging_name,
        reset_on_return=old._reset_on_return, pre_ping=old._pre_ping,
        _dispatch=old.dispatch, dialect=old._dialect)


# A connection checked out within this many seconds of its last use,
# by a writer or by a read that runs again (``read_plainly``), goes
# without SQLAlchemy's pre-ping (a ``SELECT 1`` round trip, a fifth of a
# conductor's port or node write, a third of a one-node read's trips):
# one that turns out dead fails its first statement, and the writer
# (``retry_on_db_errors``) or the read runs again on a new connection.
# Other readers, and a connection idle longer, are pinged as before.
PING_AFTER = 1.0
_LAST_USED = 'ironic_lite_last_used'


def ping_unless_recent(engine, may_skip):
    """Replace the pool's pre-ping by a checkout listener that pings
    every connection but a recently used one checked out while
    ``may_skip()`` (a writer's, or a read's that runs again)."""
    pool = engine.pool
    if engine.dialect.name == 'sqlite' or not pool._pre_ping:
        return
    pool._pre_ping = False
    dialect = engine.dialect

    def used(dbapi_conn, record):
        record.info[_LAST_USED] = time.monotonic()

    def ping(dbapi_conn, record, _proxy):
        last = record.info.get(_LAST_USED)
        if (last is not None and may_skip()
                and time.monotonic() - last < PING_AFTER):
            return
        try:
            alive = dialect.do_ping(dbapi_conn)
        except dialect.loaded_dbapi.Error as err:
            if not dialect.is_disconnect(err, dbapi_conn, None):
                raise
            alive = False
        if not alive:
            # SQLAlchemy's documented answer: the pool replaces the
            # connection and checks out again.
            raise sa.exc.DisconnectionError()

    event.listen(pool, 'checkin', used)
    event.listen(pool, 'checkout', ping)
