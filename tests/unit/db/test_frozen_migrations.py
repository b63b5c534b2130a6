"""Migrations are frozen: a revision runs its own code, never live code.

A revision that imported live code (the trigger SQL of db/child_shards.py,
say) would install on an upgrade whatever that code says in the release
that runs it: editing a trigger in 7.0 would silently change what the 6.0
revision installs on an upgrade from 5.0.  So every file under alembic/
but env.py may import from ironic_lite only the custom column types of
db/models.py (classes, such as JSONEncodedDict: a column is declared with
its type), and carries its SQL -- triggers, fills, indexes, per backend --
as text of its own.

The live copies stay for ``ironic-dbsync create_schema``, which builds
a new database at the head from the models and the live trigger SQL: it
must install what the migrations install (else the live SQL changed
without a migration, or a frozen revision was edited).

env.py is not a revision: it runs them.  It may import the engine
(db/api.py, for a plain ``alembic`` run) and the models' metadata
(db/models.py, which ``ironic-dbsync revision --autogenerate`` compares
the database with), nothing else.
"""

import ast
import glob
import os

import pytest
import sqlalchemy as sa

from ironic_lite.db import migration as db_migration
from ironic_lite.db import models
from tests import conftest

TYPES_MODULE = 'ironic_lite.db.models'
ENV_ALLOWED = {'ironic_lite.db.api', 'ironic_lite.db.models'}


def _is_column_type(name):
    value = getattr(models, name, None)
    return isinstance(value, type) and issubclass(value, sa.types.TypeEngine)


def _imported(node):
    """[(module, name or None)] a node of the tree imports from ironic_lite
    (``name``: what ``from module import name`` takes)."""
    if isinstance(node, ast.Import):
        return [(alias.name, None) for alias in node.names]
    if isinstance(node, ast.ImportFrom) and node.module and not node.level:
        return [(node.module, alias.name) for alias in node.names]
    if (isinstance(node, ast.Call) and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
            and getattr(node.func, 'attr', getattr(node.func, 'id', None))
            in ('import_module', '__import__')):
        return [(node.args[0].value, None)]
    return []


def _ours(module):
    return module == 'ironic_lite' or module.startswith('ironic_lite.')


def revision_problems(source):
    """What a revision's source takes from ironic_lite beyond the column
    types of db/models.py: ['line N: what', ...]."""
    problems = []
    models_names = set()
    tree = ast.parse(source)
    for node in ast.walk(tree):
        for module, name in _imported(node):
            full = '%s.%s' % (module, name) if name else module
            if not (_ours(module) or _ours(full)):
                continue
            if full == TYPES_MODULE:
                models_names.add(node.names[0].asname or 'models')
            elif module == TYPES_MODULE and _is_column_type(name):
                continue
            else:
                problems.append('line %d: imports %s' % (node.lineno, full))
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in models_names
                and not _is_column_type(node.attr)):
            problems.append('line %d: uses models.%s, not a column type'
                            % (node.lineno, node.attr))
    return problems


def _alembic_files():
    root = db_migration.script_location()
    return sorted(glob.glob(os.path.join(root, '**', '*.py'),
                            recursive=True))


def _relative(path):
    return os.path.relpath(path, db_migration.script_location())


def _read(path):
    with open(path) as f:
        return f.read()


def test_there_are_revisions_to_check():
    assert len([p for p in _alembic_files()
                if _relative(p).startswith('versions')]) >= 10


@pytest.mark.parametrize('path', [p for p in _alembic_files()
                                  if os.path.basename(p) != 'env.py'],
                         ids=_relative)
def test_revisions_import_only_column_types(path):
    problems = revision_problems(_read(path))
    assert not problems, (
        '%s takes live code from ironic_lite (a revision is frozen: copy '
        'the SQL into it; only the column types of %s may be imported): %s'
        % (_relative(path), TYPES_MODULE, '; '.join(problems)))


def test_env_imports_the_engine_and_the_metadata_only():
    env = os.path.join(db_migration.script_location(), 'env.py')
    imported = set()
    for node in ast.walk(ast.parse(_read(env))):
        for module, name in _imported(node):
            full = '%s.%s' % (module, name) if name else module
            if _ours(module) or _ours(full):
                imported.add(full)
    assert imported <= ENV_ALLOWED, sorted(imported - ENV_ALLOWED)


@pytest.mark.parametrize('source, expected', [
    ('from ironic_lite.db import models\n'
     'c = sa.Column("x", models.JSONEncodedDict())\n', []),
    ('from ironic_lite.db.models import JSONEncodedList\n', []),
    ('from ironic_lite.db import child_shards\n',
     ['line 1: imports ironic_lite.db.child_shards']),
    ('import ironic_lite.db.shard_counts as counts\n',
     ['line 1: imports ironic_lite.db.shard_counts']),
    ('from ironic_lite import db\n', ['line 1: imports ironic_lite.db']),
    ('def upgrade():\n    from ironic_lite.common import progress\n',
     ['line 2: imports ironic_lite.common.progress']),
    ('import importlib\n'
     'm = importlib.import_module("ironic_lite.db.online_index")\n',
     ['line 2: imports ironic_lite.db.online_index']),
    ('from ironic_lite.db import models as m\n'
     'x = m.CASE_SENSITIVE_STRING_255\n',
     ['line 2: uses models.CASE_SENSITIVE_STRING_255, not a column type']),
    ('from ironic_lite.db.models import Base\n',
     ['line 1: imports ironic_lite.db.models.Base']),
])
def test_the_scanner_catches_live_imports(source, expected):
    assert revision_problems(source) == expected


@pytest.fixture
def second_url(db_url, tmp_path):
    """A second fresh database on the backend of ``db_url``."""
    if db_url.startswith('sqlite'):
        yield 'sqlite:///%s' % (tmp_path / 'created.sqlite')
        return
    server, port = ((conftest.POSTGRESQL_URL, 5432)
                    if db_url.startswith('postgresql')
                    else (conftest.MYSQL_URL, 3306))
    with conftest.temp_database(server, port) as url:
        yield url


_TRIGGER_QUERIES = {
    'sqlite': ["SELECT name, sql FROM sqlite_master WHERE type = 'trigger'"],
    'postgresql': [
        'SELECT tgname, pg_get_triggerdef(oid) FROM pg_trigger '
        'WHERE NOT tgisinternal',
        "SELECT proname, prosrc FROM pg_proc WHERE proname LIKE "
        "'ironic\\_lite\\_%'"],
    'mysql': [
        'SELECT trigger_name, event_manipulation, action_timing, '
        'action_statement FROM information_schema.triggers '
        'WHERE trigger_schema = DATABASE()'],
}


def _triggers(url):
    """{name: definition} of the triggers (and PostgreSQL functions)."""
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            queries = _TRIGGER_QUERIES.get(conn.dialect.name,
                                           _TRIGGER_QUERIES['mysql'])
            return {row[0]: tuple(row[1:]) for query in queries
                    for row in conn.execute(sa.text(query))}
    finally:
        engine.dispose()


def test_create_schema_installs_what_the_migrations_install(
        db_url, second_url, use_db):
    use_db(db_url, migrate=False)
    db_migration.upgrade()
    use_db(second_url, migrate=False)
    db_migration.create_schema()
    migrated = _triggers(db_url)
    assert len(migrated) >= 8
    assert _triggers(second_url) == migrated
