"""Schema migrations with alembic, and the per-table object versions."""

import os
import time

from alembic import command as alembic_command
from alembic import config as alembic_config
from alembic import migration as alembic_migration
from alembic import script as alembic_script
from alembic import util as alembic_util
from oslo_db import exception as db_exc
from oslo_log import log
import sqlalchemy as sa
from sqlalchemy import orm

from ironic_lite.common import progress
from ironic_lite.db import api
from ironic_lite.db import child_shards
from ironic_lite.db import models
from ironic_lite.db import shard_counts

import ironic_lite

LOG = log.getLogger(__name__)

# Runs of a migration that lost a deadlock to the running services.
DEADLOCK_RETRIES = 5

# MySQL/MariaDB: seconds a migration's DDL statement waits for its table's
# metadata lock before it gives way (then waits DDL_RETRY_PAUSE and tries
# again, for up to DDL_LOCK_DEADLINE in all).  See _guard_ddl_locks.
DDL_LOCK_WAIT = 5
DDL_RETRY_PAUSE = 1
DDL_LOCK_DEADLINE = 1800
# MySQL's ER_LOCK_WAIT_TIMEOUT.
_LOCK_WAIT_TIMEOUT = 1205
_DDL = ('ALTER ', 'CREATE ', 'DROP ', 'RENAME ', 'TRUNCATE ')


def script_location():
    """The migrations: inside the package once installed, else the tree."""
    package_dir = os.path.dirname(os.path.abspath(ironic_lite.__file__))
    for candidate in (os.path.join(package_dir, 'migrations'),
                      os.path.join(os.path.dirname(package_dir), 'alembic')):
        if os.path.isfile(os.path.join(candidate, 'env.py')):
            return candidate
    raise RuntimeError('ironic-lite migrations not found next to %s'
                       % package_dir)


def _config(connection=None):
    config = alembic_config.Config()
    config.set_main_option('script_location', script_location())
    # Lent to the migrations, which import nothing of ironic-lite (they
    # are frozen): the long ones tell their progress with it.
    config.attributes['progress'] = progress.Progress
    if connection is not None:
        config.attributes['connection'] = connection
    return config


def _lock_wait_timeout(error):
    args = getattr(error, 'args', ())
    return bool(args) and args[0] == _LOCK_WAIT_TIMEOUT


def _patient_execute(cursor, statement, parameters):
    """Run a DDL statement; while it times out waiting for its table's
    metadata lock, pause and run it again (it did nothing)."""
    deadline = time.monotonic() + DDL_LOCK_DEADLINE
    while True:
        try:
            if parameters is None:
                cursor.execute(statement)
            else:
                cursor.execute(statement, parameters)
            return
        except Exception as error:
            if not _lock_wait_timeout(error) or \
                    time.monotonic() > deadline:
                raise
            LOG.warning('A schema change waited %d s for a table that the '
                        'running services use; letting them through, then '
                        'trying again: %s', DDL_LOCK_WAIT,
                        statement.strip().split('\n')[0][:120])
            time.sleep(DDL_RETRY_PAUSE)


def _do_execute(cursor, statement, parameters, context):
    # The engine's listener: only the DDL of a guarded connection.
    if not context.root_connection.info.get('ironic_lite_patient_ddl') \
            or not statement.lstrip().upper().startswith(_DDL):
        return None
    _patient_execute(cursor, statement, parameters)
    return True


def _do_execute_no_params(cursor, statement, context):
    return _do_execute(cursor, statement, None, context)


_LISTENERS = (('do_execute', _do_execute),
              ('do_execute_no_params', _do_execute_no_params))


def _guard_ddl_locks(connection):
    """MySQL/MariaDB: a migration's DDL never holds the services up for
    more than DDL_LOCK_WAIT seconds.

    An ``ALTER TABLE`` (even an instant one) needs its table's metadata
    lock alone: it waits for every open transaction that used the table,
    and every statement on that table sent meanwhile queues behind it.  A
    service whose transaction stays open while it waits for another
    (an API reading a node, then calling a conductor whose own query is
    queued behind the ``ALTER``) holds everyone until its RPC times out:
    a rolling upgrade answered 503s.  So the migration's session waits
    DDL_LOCK_WAIT seconds at most (``lock_wait_timeout``); a statement
    that timed out changed nothing, and is run again after a pause, the
    queued statements having gone through.  Returns the undo.
    """
    if connection.dialect.name != 'mysql':
        return lambda: None
    connection.exec_driver_sql('SET SESSION lock_wait_timeout = %d'
                               % DDL_LOCK_WAIT)
    # Not in the transaction SQLAlchemy began for the SET: alembic begins
    # (and commits) one per migration only on a connection outside any.
    connection.commit()
    connection.info['ironic_lite_patient_ddl'] = True
    for name, listener in _LISTENERS:
        sa.event.listen(connection.engine, name, listener)
    return lambda: _unguard_ddl_locks(connection)


def _unguard_ddl_locks(connection):
    for name, listener in _LISTENERS:
        sa.event.remove(connection.engine, name, listener)
    connection.info.pop('ironic_lite_patient_ddl', None)
    try:
        connection.rollback()
        connection.exec_driver_sql('SET SESSION lock_wait_timeout = DEFAULT')
        connection.commit()
    except Exception:
        # The connection is broken: the pool discards it, and the session
        # setting with it.
        connection.invalidate()


def _run(func, *args, **kwargs):
    # Not in a transaction of ours: alembic (env.py) runs each migration
    # in its own, and a migration may step outside it for DDL that
    # PostgreSQL refuses inside one (CREATE INDEX CONCURRENTLY).
    engine = api.get_engine()
    with engine.connect() as connection:
        undo = _guard_ddl_locks(connection)
        try:
            func(_config(connection), *args, **kwargs)
        finally:
            undo()


def upgrade(revision='head'):
    """Migrate to ``revision``; a migration that loses a deadlock is run
    again.

    The services of the previous release keep writing during the
    upgrade.  A migration that creates a trigger locks its table against
    writers; a service's transaction that wrote that table and then
    waits for one the migration already holds is a deadlock, and
    PostgreSQL cancels the side that waited first, often the migration.
    Its transaction is rolled back with its revision, the migrations
    before it stay committed, and the 6.0 migrations finish a run cut
    short, so the upgrade resumes there.
    """
    for attempt in range(DEADLOCK_RETRIES + 1):
        try:
            return _run(alembic_command.upgrade, revision or 'head')
        except db_exc.DBDeadlock:
            if attempt == DEADLOCK_RETRIES:
                raise
            LOG.warning('A migration lost a deadlock to a running '
                        'service; running it again (%d of %d)',
                        attempt + 1, DEADLOCK_RETRIES)
            time.sleep(0.5 * (attempt + 1))


def stamp(revision):
    _run(alembic_command.stamp, revision)


def revision(message=None, autogenerate=False):
    _run(alembic_command.revision, message=message,
         autogenerate=autogenerate)


def unknown_revision():
    """The database's schema revision if this release's migrations do not
    know it (a newer release upgraded the schema), else None."""
    current = version()
    if current is None:
        return None
    scripts = alembic_script.ScriptDirectory.from_config(_config())
    try:
        if scripts.get_revision(current) is not None:
            return None
    except alembic_util.CommandError:
        pass
    return current


def version():
    """The current alembic revision of the database, or None."""
    with api.get_engine().connect() as connection:
        return alembic_migration.MigrationContext.configure(
            connection).get_current_revision()


def head():
    from alembic import script
    return script.ScriptDirectory.from_config(_config()).get_current_head()


def create_schema():
    """Create the tables from the models and stamp the head revision.

    Only for an empty database; ``upgrade`` is the way to migrate one.
    """
    if version() is not None:
        raise RuntimeError('The database is already under version control; '
                           'use "ironic-dbsync upgrade" instead.')
    engine = api.get_engine()
    models.Base.metadata.create_all(engine)
    # What the migrations create beside the tables.
    with engine.begin() as connection:
        shard_counts.install(connection)
        child_shards.install(connection)
    stamp('head')


def object_tables():
    """Object name -> model of every table that carries a ``version``."""
    return {name: getattr(models, name)
            for name in ('Chassis', 'Conductor', 'Node', 'Port', 'Portgroup',
                         'Service', 'VolumeConnector', 'VolumeTarget')}


def has_table(name):
    """Whether the schema has table ``name`` (the previous release's
    schema, before "ironic-dbsync upgrade", lacks the newer ones)."""
    return sa.inspect(api.get_engine()).has_table(name)


def has_column(table, column):
    """Whether table ``table`` has ``column`` (the previous release's
    schema lacks the newer columns)."""
    return column in {c['name'] for c in
                      sa.inspect(api.get_engine()).get_columns(table)}


def query_columns(session, model, columns=None):
    """A query of ``model``'s rows; only ``columns`` (names) when given:
    the previous release's schema, which ironic-status reads before
    "ironic-dbsync upgrade", lacks the newer ones."""
    query = session.query(model)
    if columns is not None:
        query = query.options(orm.load_only(
            *[getattr(model, c) for c in columns]))
    return query


def has_tables():
    return has_table('nodes')


def version_counts(model):
    """{version: row count} of one object table (None for unversioned).

    Empty for a table the schema does not have yet: before "ironic-dbsync
    upgrade" the database is the previous release's, without the tables
    this release adds.
    """
    if not has_table(model.__tablename__):
        return {}
    with api.reader() as session:
        rows = (session.query(model.version, sa.func.count())
                .group_by(model.version).all())
        return {v: c for v, c in rows}


def bump_versions(model, from_versions, to_version, max_count=None):
    """Set ``version`` to ``to_version`` on rows at one of ``from_versions``.

    Rows at any other version (unknown to this release, or NULL) are left
    alone: this release cannot know what converting them means.  Their
    ``updated_at`` is kept.

    :returns: (rows that needed it, rows migrated now).
    """
    from_versions = [v for v in from_versions if v != to_version]
    if not from_versions:
        return 0, 0
    # updated_at as it was: a services or conductors row's is its
    # heartbeat, which a version bump must not refresh (a service gone
    # would look alive again); nothing else of the row changes either.
    values = {'version': to_version, 'updated_at': model.updated_at}
    with api.writer() as session:
        behind = session.query(model.id).filter(
            model.version.in_(from_versions))
        total = behind.count()
        if not total:
            return 0, 0
        if max_count:
            ids = [r[0] for r in behind.order_by(model.id)
                   .limit(max_count).all()]
            done = (session.query(model).filter(model.id.in_(ids))
                    .update(values, synchronize_session=False))
        else:
            done = (session.query(model)
                    .filter(model.version.in_(from_versions))
                    .update(values, synchronize_session=False))
        return total, done
