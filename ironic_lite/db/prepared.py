"""Statements prepared once per database connection (PostgreSQL), for
the reads the API makes most and a node's update: the server parses and
plans them once per connection instead of on every call."""

import hashlib
import re

from oslo_db import exception as db_exc
from oslo_log import log as logging
import sqlalchemy as sa

LOG = logging.getLogger(__name__)

# The names of the statements prepared on a pooled connection (in its
# record's info, which SQLAlchemy empties when it reconnects).
_PREPARED = 'ironic_lite_prepared'
# statement -> (name, its PREPARE, its EXECUTE as a cached text clause).
_PREPARABLE = {}
# A bound parameter in a statement compiled for psycopg2.
_BIND = re.compile(r'%\((\w+)\)s')
# PostgreSQL's codes: no such prepared statement; one of that name exists.
_NO_SUCH_STATEMENT = '26000'
_ALREADY_PREPARED = '42P05'
# "cached plan must not change result type": a column's type changed.
_PLAN_CHANGED = '0A000'
# A statement's error, as oslo.db translates it (or not).
_DB_ERRORS = (db_exc.DBError, sa.exc.DBAPIError)


class _Preparing(object):
    """Whether ``execute`` still prepares (see there)."""
    on = True


def _pgcode(err):
    """The SQLSTATE of a database error, as wrapped by SQLAlchemy and
    oslo.db (None when it has none)."""
    while err is not None:
        code = getattr(err, 'pgcode', None)
        if code:
            return code
        err = (getattr(err, 'inner_exception', None)
               or getattr(err, 'orig', None) or err.__cause__)
    return None


def _preparable(statement, dialect):
    found = _PREPARABLE.get(statement)
    if found is None:
        if len(_PREPARABLE) > _KEPT:  # statements built anew (plain_write)
            _PREPARABLE.clear()
        compiled = statement.compile(dialect=dialect)
        names = []  # the bound parameters, numbered as they first appear

        def numbered(match):
            if match.group(1) not in names:
                names.append(match.group(1))
            return '$%d' % (names.index(match.group(1)) + 1)
        sql = _BIND.sub(numbered, str(compiled))
        # Named by the text: a connection a pooler shares between
        # processes of two releases never runs the other's statement.
        name = 'ironic_lite_%s' % hashlib.sha1(
            sql.encode()).hexdigest()[:20]
        # Its parameters bound through their types, its rows typed as the
        # statement's columns: the same values as the statement's own.
        columns = (statement.subquery().c if isinstance(statement, sa.Select)
                   else statement.exported_columns)
        execute = sa.text('EXECUTE %s (%s)' % (
            name, ', '.join(':' + n for n in names))).bindparams(
                *[sa.bindparam(n, type_=compiled.binds[n].type)
                  for n in names]).columns(
                      *[sa.column(c.key, c.type) for c in columns])
        found = _PREPARABLE[statement] = (
            name, 'PREPARE %s AS %s' % (name, sql), execute)
    return found


# A bound on the statements kept (a node's update is one per set of
# columns written).
_KEPT = 512


def execute(conn, statement, value):
    """``execute_with`` of a statement whose one bound parameter is
    ``value``."""
    return execute_with(conn, statement, {'value': value})


def execute_with(conn, statement, params):
    """Run ``statement`` with its bound ``params`` on ``conn`` (outside a
    transaction block: ``api.read_plainly``, ``api.core_writer``) as a
    server-side prepared statement:
    PostgreSQL parses and plans it once per connection, not on every
    call -- for a one-node read, two thirds of the statement's time.
    Returns its result (Core rows of the statement's columns).

    A pooler that hands each transaction a different server connection
    (PgBouncer's transaction mode) loses what a connection prepared: the
    first EXECUTE that finds no statement turns preparing off for this
    process (logged once), and that call runs the statement as text.  A
    column whose type a migration changed since the PREPARE makes the
    server refuse the old plan: the statement is dropped from that
    connection (prepared again at its next use) and run as text."""
    if not _Preparing.on:
        return conn.execute(statement, params)
    name, prepare, execute_clause = _preparable(statement, conn.dialect)
    prepared = conn.connection.info.setdefault(_PREPARED, set())
    try:
        if name not in prepared:
            _prepare(conn, prepare)
            prepared.add(name)
        return conn.execute(execute_clause, params)
    except _DB_ERRORS as err:
        code = _pgcode(err)
        if code not in (_NO_SUCH_STATEMENT, _PLAN_CHANGED):
            raise
        conn.rollback()
        prepared.discard(name)
        if code == _PLAN_CHANGED:
            conn.exec_driver_sql('DEALLOCATE %s' % name)
        else:
            _Preparing.on = False
            LOG.warning('A statement prepared on a database connection '
                        'was gone at its next use (a pooler sharing '
                        'server connections, such as PgBouncer in '
                        'transaction mode?): reads are no longer prepared '
                        'by this process')
    return conn.execute(statement, params)


def _prepare(conn, prepare):
    """PREPARE on ``conn``; one of that name already there (a pooler's
    server connection another process prepared it on) is the same
    statement: its name is its text's digest."""
    try:
        conn.exec_driver_sql(prepare)
    except _DB_ERRORS as err:
        if _pgcode(err) != _ALREADY_PREPARED:
            raise
        conn.rollback()
