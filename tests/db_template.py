"""A migrated database per test without running the migrations per test.

As Ironic's ``ironic/tests/unit/db/base.py`` does, each backend is migrated to
head once per test process (an xdist worker is a process) into a
*template*; each test then gets a copy of it:

* SQLite: the template file is copied with SQLite's online backup API
  (safe with the WAL journal, unlike copying the file);
* PostgreSQL: ``CREATE DATABASE x TEMPLATE y`` (the server copies the
  files);
* MariaDB/MySQL (no templates): the template's ``SHOW CREATE TABLE``
  and ``SHOW CREATE TRIGGER`` statements are replayed, then its rows
  (``alembic_version``) copied with ``INSERT ... SELECT``.

The migration tests (``tests/unit/db/test_migrations.py``) and the
``ironic-dbsync`` tests do not use this: they walk the real migrations.
Templates on a server are named ``ironic_lite_tmpl_<hex>`` (unique per
process) and dropped at the end of the test session.
"""

import atexit
import os
import sqlite3
import tempfile
import threading
import uuid

import sqlalchemy as sa

_LOCK = threading.Lock()
_TEMPLATES = {}


def _server_and_name(url):
    """('postgresql+psycopg2://...:5432', 'dbname') of a database URL."""
    server, name = url.split('?', 1)[0].rsplit('/', 1)
    return server, name


def _admin_engine(server):
    admin_url = server + ('/postgres' if server.startswith('postgresql')
                          else '')
    return sa.create_engine(admin_url, isolation_level='AUTOCOMMIT',
                            poolclass=sa.pool.NullPool)


def _migrate(url):
    """Run the real alembic migrations to head on ``url``."""
    from ironic_lite import conf
    from ironic_lite.db import api as db_api
    from ironic_lite.db import migration
    previous = conf.CONF.database.connection
    conf.CONF.set_override('connection', url, group='database')
    db_api.reset()
    try:
        migration.upgrade('head')
    finally:
        db_api.reset()
        if previous is None:
            conf.CONF.clear_override('connection', group='database')
        else:
            conf.CONF.set_override('connection', previous, group='database')


def _sqlite_template():
    directory = tempfile.mkdtemp(prefix='ironic-lite-tmpl-')
    path = os.path.join(directory, 'template.sqlite')
    _migrate('sqlite:///%s' % path)
    atexit.register(_remove_tree, directory)
    return path


def _remove_tree(directory):
    import shutil
    shutil.rmtree(directory, ignore_errors=True)


def _server_template(server):
    name = 'ironic_lite_tmpl_%s' % uuid.uuid4().hex[:12]
    admin = _admin_engine(server)
    with admin.connect() as conn:
        conn.execute(sa.text('CREATE DATABASE %s' % name))
    atexit.register(_drop_database, server, name)
    url = '%s/%s' % (server, name)
    if server.startswith('mysql'):
        url += '?charset=utf8mb4'
    _migrate(url)
    if server.startswith('mysql'):
        return name, _mysql_dump(admin, name)
    admin.dispose()
    return name, None


def _mysql_dump(admin, name):
    """(CREATE TABLE statements, table names) of the template."""
    with admin.connect() as conn:
        tables = [row[0] for row in conn.execute(sa.text(
            'SELECT table_name FROM information_schema.tables '
            'WHERE table_schema = :db ORDER BY table_name'), {'db': name})]
        creates = [conn.execute(sa.text('SHOW CREATE TABLE `%s`.`%s`'
                                        % (name, t))).fetchone()[1]
                   for t in tables]
        # The triggers too (shard_counts'), after the tables.
        triggers = [row[0] for row in conn.execute(sa.text(
            'SELECT trigger_name FROM information_schema.triggers '
            'WHERE trigger_schema = :db ORDER BY trigger_name'),
            {'db': name})]
        creates += [conn.execute(sa.text('SHOW CREATE TRIGGER `%s`.`%s`'
                                         % (name, t))).fetchone()[2]
                    for t in triggers]
    admin.dispose()
    return creates, tables


def _drop_database(server, name):
    admin = _admin_engine(server)
    try:
        with admin.connect() as conn:
            if server.startswith('postgresql'):
                conn.execute(sa.text(
                    'SELECT pg_terminate_backend(pid) FROM pg_stat_activity '
                    "WHERE datname = '%s' AND pid <> pg_backend_pid()"
                    % name))
                conn.execute(sa.text('DROP DATABASE IF EXISTS "%s"' % name))
            else:
                conn.execute(sa.text('DROP DATABASE IF EXISTS `%s`' % name))
    except Exception:
        pass
    finally:
        admin.dispose()


def drop_templates():
    """Drop this process's server templates (pytest_sessionfinish; atexit
    is only the fallback: it proved unreliable for PostgreSQL)."""
    with _LOCK:
        for key, value in list(_TEMPLATES.items()):
            if key == 'sqlite':
                continue
            _drop_database(key[1], value[0])
            del _TEMPLATES[key]


def _template(key, build):
    with _LOCK:
        if key not in _TEMPLATES:
            _TEMPLATES[key] = build()
        return _TEMPLATES[key]


def copy_sqlite(path):
    template = _template('sqlite', _sqlite_template)
    src = sqlite3.connect(template)
    dst = sqlite3.connect(path)
    try:
        src.backup(dst)
    finally:
        dst.close()
        src.close()


def copy_postgresql(server, name):
    template, _ = _template(('postgresql', server),
                            lambda: _server_template(server))
    admin = _admin_engine(server)
    try:
        with admin.connect() as conn:
            conn.execute(sa.text('DROP DATABASE IF EXISTS "%s"' % name))
            conn.execute(sa.text('CREATE DATABASE "%s" TEMPLATE "%s"'
                                 % (name, template)))
    finally:
        admin.dispose()


def copy_mysql(server, name):
    template, (creates, tables) = _template(
        ('mysql', server), lambda: _server_template(server))
    admin = _admin_engine(server)
    try:
        with admin.connect() as conn:
            conn.execute(sa.text('USE `%s`' % name))
            conn.execute(sa.text('SET FOREIGN_KEY_CHECKS = 0'))
            for create in creates:
                conn.execute(sa.text(create))
            for table in tables:
                conn.execute(sa.text('INSERT INTO `%s`.`%s` SELECT * FROM '
                                     '`%s`.`%s`' % (name, table, template,
                                                    table)))
            conn.execute(sa.text('SET FOREIGN_KEY_CHECKS = 1'))
    finally:
        admin.dispose()


def migrated(url):
    """Fill the empty database at ``url`` with the head schema (and the
    template's rows); returns ``url``."""
    dialect = url.split(':', 1)[0].split('+', 1)[0]
    if dialect == 'sqlite':
        path = url[len('sqlite:///'):]
        if not path or path == ':memory:':
            _migrate(url)
        else:
            copy_sqlite(path)
    elif dialect == 'postgresql':
        copy_postgresql(*_server_and_name(url))
    elif dialect == 'mysql':
        copy_mysql(*_server_and_name(url))
    else:
        _migrate(url)
    return url
