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

from ironic_lite.common import progress
from ironic_lite.db import api
from ironic_lite.db import child_shards
from ironic_lite.db import models
from ironic_lite.db import shard_counts

import ironic_lite

LOG = log.getLogger(__name__)

# Runs of a migration that lost a deadlock to the running services.
DEADLOCK_RETRIES = 5


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


def _run(func, *args, **kwargs):
    # Not in a transaction of ours: alembic (env.py) runs each migration
    # in its own, and a migration may step outside it for DDL that
    # PostgreSQL refuses inside one (CREATE INDEX CONCURRENTLY).
    engine = api.get_engine()
    with engine.connect() as connection:
        func(_config(connection), *args, **kwargs)


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
