"""The engine facade and the helpers every query module shares."""

import contextlib
import functools
import sqlite3
import threading

from oslo_db import api as oslo_db_api
from oslo_db import exception as db_exc
from oslo_db.sqlalchemy import enginefacade
from oslo_db.sqlalchemy import utils as db_utils
from oslo_log import log as logging
from oslo_utils import uuidutils
from oslo_utils import versionutils
import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import Engine

from ironic_lite.common import exception
from ironic_lite.db import pool

LOG = logging.getLogger(__name__)

# The transaction context is a thread-local: a query function opens a
# reader or writer block and a nested block joins the outer transaction.
_CONTEXT = threading.local()
# Whether this thread is inside a writer() block (see _sqlite_begin).
_WRITING = threading.local()
# Whether this thread is inside a reader() block (see reader).
_READING = threading.local()
# Whether this thread is in a read that runs again on a new connection
# when its connection turns out dead (see read_plainly).
_RERUNNABLE = threading.local()


def _new_facade():
    """oslo.db's engine facade, without its eventlet-era ``sleep(0)`` on
    every connection check-in (no eventlet here: it only gave the CPU
    away once per transaction, milliseconds on a busy machine)."""
    facade = enginefacade.transaction_context()
    facade.configure(thread_checkin=False)
    return facade


_FACADE = _new_facade()
_LOCK = threading.Lock()
# The facade whose SQLite engine _facade() has pooled (none yet).
_POOLED = None


@event.listens_for(Engine, 'connect')
def _sqlite_on_connect(dbapi_conn, record):
    # Several threads (and, in tests, processes) share one SQLite file:
    # wait for a lock instead of failing, and let readers run beside a
    # writer.
    if isinstance(dbapi_conn, sqlite3.Connection):
        # WAL is a property of the database file, kept across
        # connections: switching costs a write lock, reading it does not.
        # (Connections are pooled, see pool.pool_sqlite: this runs once per
        # connection, not per transaction.)
        cur = dbapi_conn.cursor()
        cur.execute('PRAGMA busy_timeout = 30000')
        mode = cur.execute('PRAGMA journal_mode').fetchone()
        if not mode or str(mode[0]).lower() != 'wal':
            cur.execute('PRAGMA journal_mode = WAL')
        cur.close()


# SQLSTATE read_only_sql_transaction: a write reached a PostgreSQL that
# is not (or no longer, or not yet) the primary.
_PG_READ_ONLY = '25006'


@event.listens_for(Engine, 'handle_error')
def _read_only_is_disconnect(context):
    """A write refused because the server is read-only is an outage.

    During a failover a connection can reach a PostgreSQL in recovery:
    a standby not yet promoted, a primary restarting as a standby before
    Patroni promotes it again, or a demoted one still up -- through a
    proxy whose health check has not caught up, or a pooled connection
    to the old primary.  Marked a disconnect, the connection (and the
    pool's others, opened to the same server) is discarded, oslo.db
    raises DBConnectionError, the writer runs again on a new connection
    (``retry_on_db_errors``) and, when no primary answers in time, the
    API's answer is a retry-safe 503 instead of a refused write (500).
    This class-level listener runs before oslo.db's engine-level one.
    """
    if getattr(context.original_exception, 'pgcode', None) == _PG_READ_ONLY:
        context.is_disconnect = True


@event.listens_for(Engine, 'begin')
def _sqlite_begin(conn):
    """On SQLite a writer transaction takes the write lock when it begins.

    A deferred transaction that reads, then writes, fails at once with
    "database is locked" (SQLITE_BUSY_SNAPSHOT) when another connection
    committed in between -- busy_timeout does not apply to that case, and
    a conductor's heartbeat commits every second.  BEGIN IMMEDIATE makes
    the writer wait for the lock (up to busy_timeout) before its first
    read instead.  Readers stay deferred: in WAL mode they never block.

    oslo.db's SQLite engines emit their own BEGIN (pysqlite's is off) from
    an engine-level listener that runs after this class-level one and
    skips a connection marked ``in_transaction``.
    """
    if (conn.dialect.name == 'sqlite'
            and getattr(_WRITING, 'active', False)
            and 'in_transaction' not in conn.info):
        conn.exec_driver_sql('BEGIN IMMEDIATE')
        conn.info['in_transaction'] = True


def _may_skip_ping():
    """Whether this thread's check-out may go without the pre-ping if
    its connection was used recently: a writer's, or a read's that runs
    again (``read_plainly``)."""
    return (getattr(_WRITING, 'active', False)
            or getattr(_RERUNNABLE, 'active', False))


def _facade():
    """The engine facade, started (and its SQLite engine pooled) once."""
    global _POOLED
    facade = _FACADE
    if _POOLED is not facade:
        with _LOCK:
            if _POOLED is not facade:
                pool.pool_sqlite(facade.writer.get_engine())
                pool.ping_unless_recent(facade.writer.get_engine(),
                                        _may_skip_ping)
                _POOLED = facade
    return facade


@contextlib.contextmanager
def reader():
    """A read-only transaction block: ``with reader() as session: ...``.

    On PostgreSQL an outermost reader runs in autocommit: every
    statement already sees its own snapshot there (READ COMMITTED), so a
    transaction adds nothing to a read but its BEGIN and ROLLBACK -- two
    of the four round trips of a one-statement read.  A reader inside a
    writer (or another reader) is part of that block's transaction.
    MySQL/MariaDB's REPEATABLE READ gives a whole read one snapshot, and
    SQLite makes no round trips: both keep their transaction.
    """
    outer = getattr(_READING, 'active', False)
    _READING.active = True
    try:
        with _facade().reader.using(_CONTEXT) as session:
            if (not outer and not getattr(_WRITING, 'active', False)
                    and session.get_bind().dialect.name == 'postgresql'):
                _autocommit(session.connection())
            yield session
    finally:
        _READING.active = outer


_AUTOCOMMIT_READ = 'ironic_lite_autocommit_read'


def _autocommit(conn):
    """Put ``conn``'s connection in autocommit for one read (or one
    single-statement write), marked so that it goes back to the pool as
    it came (``_end_autocommit_read``).
    psycopg2's own switch, as SQLAlchemy's ping uses: the isolation_level
    option would add a SET per read."""
    fairy = conn.connection
    fairy.dbapi_connection.autocommit = True
    fairy.info[_AUTOCOMMIT_READ] = True


# What read_plainly answers when it cannot read plainly.
NOT_PLAIN = object()


def read_plainly(read):
    """``read(conn)`` on a Core connection for one read on PostgreSQL, in
    autocommit as an outermost ``reader`` is, without the facade's
    Session; ``NOT_PLAIN`` inside a reader or writer block and on other
    databases (the caller then uses ``reader``).

    The connection goes without the pre-ping when it was used within
    ``pool.PING_AFTER``: a read has no effect, so one whose recently
    used connection turns out dead (a database restart, a failover)
    runs again, once, on a connection that is pinged.
    """
    if in_transaction_block():
        return NOT_PLAIN
    engine = _facade().reader.get_engine()
    if engine.dialect.name != 'postgresql':
        return NOT_PLAIN

    def attempt():
        with engine.connect() as conn:
            _autocommit(conn)
            return read(conn)
    try:
        _RERUNNABLE.active = True
        try:
            return attempt()
        finally:
            _RERUNNABLE.active = False
    except db_exc.DBConnectionError:
        # SQLAlchemy has invalidated the pool's older connections: the
        # next check-out opens one (or is pinged, as a reader's is).
        LOG.info('A database connection was lost; reading again on '
                 'another')
    return attempt()


@event.listens_for(sa.pool.Pool, 'checkin')
def _end_autocommit_read(dbapi_conn, record):
    """A connection a reader (or a single-statement writer) switched to
    autocommit goes back to the pool as it came out: the next
    transaction on it begins as usual."""
    if record.info.pop(_AUTOCOMMIT_READ, False) and dbapi_conn is not None:
        dbapi_conn.autocommit = False


def in_transaction_block():
    """Whether this thread is inside a reader or writer block."""
    return (getattr(_READING, 'active', False)
            or getattr(_WRITING, 'active', False))


def writer_engine_name():
    """The dialect of the writer's engine (postgresql, mysql, sqlite)."""
    return _facade().writer.get_engine().dialect.name


@contextlib.contextmanager
def core_writer(single_statement=False):
    """A Core connection of the writer's engine in a transaction of its
    own (committed at the end of the block, rolled back on an error),
    without the facade's Session: ``with core_writer() as conn: ...``.
    Outside any reader or writer block only (``in_transaction_block``):
    it would not join theirs.

    ``single_statement``: each statement of the block is its own
    transaction; on PostgreSQL the connection is then in autocommit, as
    a plain read's is, and each statement is one round trip (no BEGIN,
    no COMMIT).
    """
    outer = getattr(_WRITING, 'active', False)
    _WRITING.active = True
    try:
        engine = _facade().writer.get_engine()
        if single_statement and engine.dialect.name == 'postgresql':
            with engine.connect() as conn:
                _autocommit(conn)
                yield conn
        else:
            with engine.begin() as conn:
                yield conn
    finally:
        _WRITING.active = outer


@contextlib.contextmanager
def writer():
    """A read-write transaction block: ``with writer() as session: ...``."""
    outer = getattr(_WRITING, 'active', False)
    _WRITING.active = True
    try:
        with _facade().writer.using(_CONTEXT) as session:
            yield session
    finally:
        _WRITING.active = outer


# A writer that hits a deadlock or a dropped connection (a Galera
# certification failure, a PostgreSQL failover or restart) runs again
# from the start in a new transaction: about 3 s of attempts in all.
_RETRY = dict(max_retries=5, retry_interval=0.1, inc_retry_interval=True,
              max_retry_interval=1, retry_on_deadlock=True,
              retry_on_disconnect=True)


def retry_on_db_errors(func):
    """Run a writer function again on DBDeadlock or DBConnectionError.

    As Ironic's DB API does with ``oslo_db.api.retry_on_deadlock``: the
    whole transaction is retried, so only a function that opens its own
    (outermost) transaction retries; called inside another writer block
    it runs once and the outer block's caller decides.
    """
    retrying = oslo_db_api.wrap_db_retry(**_RETRY)(func)

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        if getattr(_WRITING, 'active', False):
            return func(*args, **kwargs)
        return retrying(*args, **kwargs)
    return wrapper


def get_engine():
    return _facade().writer.get_engine()


def _checkpoint_sqlite(engine):
    """Move what an SQLite file's write-ahead log holds into the file.

    In WAL mode a commit goes to ``<file>-wal``; SQLite copies the log
    into the database file as it grows (every 1,000 pages), or when the
    last connection to the file closes -- which a pooled connection never
    did before the process exited.  Checkpointed with TRUNCATE (the log
    emptied), the database file alone holds the data: a copy of it is a
    backup.
    """
    if engine.dialect.name != 'sqlite' or engine.url.database in (
            None, '', ':memory:'):
        return
    conn = engine.raw_connection()
    try:
        cursor = conn.cursor()
        cursor.execute('PRAGMA wal_checkpoint(TRUNCATE)')
        busy = (cursor.fetchone() or (0,))[0]
        cursor.close()
    finally:
        conn.close()
    if busy:
        LOG.warning('Could not write the SQLite log into %s: it is in '
                    'use; the data stays in its -wal file',
                    engine.url.database)


def ping():
    """``SELECT 1`` on a connection of the pool: raises when the
    database cannot be reached."""
    with get_engine().connect() as conn:
        conn.execute(sa.text('SELECT 1'))


def reset():
    """Forget the engine, so the next call reads [database] again, and
    close its connections (an SQLite file checkpointed first).

    The service commands hand it to ``launcher.serve``, which calls it
    once the services have stopped (see common/launcher.py).
    """
    global _FACADE, _POOLED
    with _LOCK:
        old = _FACADE
        _FACADE = _new_facade()
        started, _POOLED = _POOLED is old, None
    try:
        if started:
            _checkpoint_sqlite(old.writer.get_engine())
    except Exception:
        LOG.exception('Could not checkpoint the SQLite database')
    try:
        old.dispose_pool()
    except Exception:  # never started, nothing to dispose
        pass


def check_known_version(row, known_version, kind=None):
    """Refuse to overwrite a row written at an object version newer than
    the writer knows ("never write what you cannot read"): what it does
    not know of the row would be lost or made inconsistent.  ``kind``:
    the row's model name, for a Core row (an ORM row's class tells)."""
    if (known_version is None or not row.version
            or versionutils.is_compatible(row.version, known_version,
                                          same_major=False)):
        return
    raise exception.ObjectVersionTooNew(
        kind=kind or type(row).__name__, ident=getattr(row, 'uuid', row.id),
        version=row.version, known=known_version)


def is_id(value):
    """Whether a row's identifier is its integer id (else its UUID)."""
    return isinstance(value, int) or (isinstance(value, str)
                                      and value.isdigit())


def add_identity_filter(query, model, value):
    """Filter by integer id or by UUID."""
    if is_id(value):
        return query.filter(model.id == int(value))
    return query.filter(model.uuid == value)


# oslo.db's errors that are no refusal of the values written: an outage
# (retry_on_db_errors retries it, the API answers 503) or a duplicate (the
# resource's own error).
_NOT_REFUSALS = (db_exc.DBConnectionError, db_exc.DBDeadlock,
                 db_exc.DBDuplicateEntry)


def refused(err, kind, ident):
    """DatabaseWriteRefused for oslo.db's ``err`` on a write of ``kind``
    ``ident``; ``err`` itself for an outage or a duplicate.

    The reason is logged as the database worded it (its first line: no
    statement, no parameters, no PostgreSQL ``DETAIL`` with the row): the
    exception's message is generic, as it may end up in a node's
    ``last_error`` or an API answer.  Raise the result ``from None``: a
    logged traceback would show the statement.
    """
    if isinstance(err, _NOT_REFUSALS):
        return err
    orig = getattr(getattr(err, 'inner_exception', None), 'orig', None)
    reason = str(orig if orig is not None else type(err).__name__)
    LOG.error('The database refused a write of %s %s: %s', kind, ident,
              reason.splitlines()[0][:300] if reason else type(err).__name__)
    return exception.DatabaseWriteRefused(kind=kind, ident=ident)


def create_row(model, values, on_duplicate):
    """Insert a row of ``model`` from ``values`` (a UUID made if none):
    on PostgreSQL one Core statement (``plain_write.create``), elsewhere
    through the ORM.  Returns the row (Core or ORM).

    :param on_duplicate: ``on_duplicate(err, values)`` raises the
        resource's error for a DBDuplicateEntry (``values`` with the uuid).
    """
    # (Imported here: plain_write builds on this module.)
    from ironic_lite.db import plain_write
    values = dict(values)
    values.setdefault('uuid', uuidutils.generate_uuid())
    try:
        if plain_write.plain_create(model, values):
            return plain_write.create(model, values)
        row = model()
        row.update(values)
        with writer() as session:
            session.add(row)
            session.flush()
    except db_exc.DBDuplicateEntry as err:
        on_duplicate(err, values)
    except db_exc.DBError as err:
        raise refused(err, model.__name__.lower(), values['uuid']) from None
    return row


def update_row(model, kind, ident, values, known_version, not_found,
               on_duplicate=None, lock=False, before_update=None):
    """Update the row of ``model`` whose id or UUID is ``ident``; a UUID
    is never overwritten (400).

    :param kind: the resource's name in the messages ("port").
    :param not_found: the exception to raise when there is no such row.
    :param on_duplicate: as for ``create_row`` (``values`` as given); None:
        a DBDuplicateEntry goes up as it is.
    :param lock: read the row with SELECT ... FOR UPDATE.
    :param before_update: ``before_update(row)``, called with the row
        found (its version checked), before ``values`` are written.
    """
    if 'uuid' in values:
        raise exception.InvalidParameterValue(
            err='Cannot overwrite UUID for an existing %s.' % kind)
    try:
        with writer() as session:
            query = add_identity_filter(session.query(model), model, ident)
            if lock:
                query = query.with_for_update()
            row = query.one_or_none()
            if row is None:
                raise not_found
            check_known_version(row, known_version)
            if before_update is not None:
                before_update(row)
            row.update(values)
            session.flush()
    except db_exc.DBDuplicateEntry as err:
        if on_duplicate is None:
            raise
        on_duplicate(err, values)
    except db_exc.DBError as err:
        raise refused(err, kind, ident) from None
    return row


def delete_row(model, ident, not_found, before_delete=None):
    """Delete the row of ``model`` whose id or UUID is ``ident``.

    :param not_found: the exception to raise when there is no such row.
    :param before_delete: ``before_delete(session, row)``, called with the
        row found before it goes: refuse (raise) or delete what depends
        on it.  Without it, one DELETE statement, no read first.
    """
    with writer() as session:
        query = add_identity_filter(session.query(model), model, ident)
        if before_delete is None:
            if not query.delete(synchronize_session=False):
                raise not_found
            return
        row = query.one_or_none()
        if row is None:
            raise not_found
        before_delete(session, row)
        session.delete(row)


def paginate(query, model, limit=None, marker=None, sort_key=None,
             sort_dir=None, plain=False, ids_first=False):
    """Page a query by (sort_key, id), the marker being a model row.

    :param plain: return Core rows of the table's columns (attribute
        access by column name) instead of ORM instances: a page to render
        needs no identity map or instance state, which cost more than
        the query on a 1,000-row page.  A list of column names: rows of
        those columns only.
    :param ids_first: find the page's ids first, then read those rows:
        for a query whose matches are many more than a page and must be
        sorted to keep one (ports of a shard: every port of every node of
        the shard), the sort then reads ids from an index (``(node_id,
        id)``) instead of whole rows from the table.  Only for a page
        with a limit: the ids of a whole list would go back to the
        database as that many parameters (SQLite takes 32,766 at most).
    """
    if ids_first and limit:
        ids = [row[0] for row in paged(query.with_entities(model.id),
                                       model, limit, marker, sort_key,
                                       sort_dir)]
        if not ids:
            return []
        query = query.session.query(model).filter(model.id.in_(ids))
        if plain:
            query = _plain(query, model, plain)
        by_id = {row.id: row for row in _rows(query, plain)}
        # In the page's order; a row deleted in between is left out.
        return [by_id[i] for i in ids if i in by_id]
    query = paged(query, model, limit, marker, sort_key, sort_dir)
    if plain:
        query = _plain(query, model, plain)
    return _rows(query, plain)


def _rows(query, plain):
    """The rows of ``query``: for a plain page, its statement run on the
    session's connection, which gives the same Core rows as the query
    without the ORM's loading machinery (40 % of reading a 1,000-port
    page); ORM instances otherwise."""
    if plain:
        return query.session.connection().execute(query.statement).all()
    return query.all()


def paged(query, model, limit, marker, sort_key, sort_dir):
    """``query`` ordered by (sort_key, id), after ``marker``, cut."""
    sort_keys = ['id']
    if sort_key and sort_key not in sort_keys:
        sort_keys.insert(0, sort_key)
    try:
        return db_utils.paginate_query(query, model, limit, sort_keys,
                                       marker=marker,
                                       sort_dir=sort_dir or 'asc')
    except db_exc.InvalidSortKey:
        raise exception.InvalidParameterValue(
            err='The sort_key value "%s" is an invalid field for sorting'
                % sort_key)


def _plain(query, model, plain):
    table = model.__table__
    return query.with_entities(*(table.columns if plain is True else
                                 [table.c[name] for name in plain]))


def uuids_by_id(model, ids):
    """{id: uuid} of the rows of ``model`` among ``ids``, in one query
    of those two columns (no ORM instance built: a list page's parents
    need nothing else)."""
    if not ids:
        return {}
    with reader() as session:
        return dict(session.execute(
            sa.select(model.id, model.uuid).where(model.id.in_(ids))).all())


def get_marker(session, model, marker_uuid, not_found):
    if marker_uuid is None:
        return None
    row = session.query(model).filter_by(uuid=marker_uuid).one_or_none()
    if row is None:
        raise not_found
    return row


def duplicate_columns(err):
    """The column names a DBDuplicateEntry complains about."""
    return set(err.columns or [])


def utcnow():
    from oslo_utils import timeutils
    return timeutils.utcnow()


def column_limits(table_name):
    """{column: (kind, limit)} of a table's text columns (see models)."""
    from ironic_lite.db import models
    return models.column_limits(table_name)
