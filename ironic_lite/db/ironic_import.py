"""Copy an OpenStack Ironic database into ironic-lite's, in one transaction.

``ironic-dbsync import-ironic --source-connection URL`` calls
``import_database``.  Why one transaction: an import either happened
whole or not at all, so a failed one (a duplicate, a lost connection, a
count that does not match) leaves the target as empty as it was, and the
command is simply run again; several thousand nodes with their ports are
a few hundred thousand rows, which one transaction of PostgreSQL or
MariaDB holds without trouble.  The source is read in one transaction
too (REPEATABLE READ where the backend has it): the counts compared at
the end are those of the snapshot copied, even if Ironic was not
stopped.  The source is only read: Ironic's database, untouched, is the
operator's way back.

What is copied, cleared, dropped and reported: ``db/ironic_source.py``
and ``doc/source/admin/moving-from-ironic.rst``.
"""

import collections

from oslo_db import exception as db_exc
import sqlalchemy as sa

from ironic_lite.common import progress as progress_lib
from ironic_lite.common import states
from ironic_lite.db import api
from ironic_lite.db import ironic_source
from ironic_lite.db import migration
from ironic_lite.db import models

# Rows inserted per statement.
BATCH = 500

KNOWN_STATES = frozenset(states.STABLE_STATES) | frozenset(states.TARGETS)


class Refused(Exception):
    """The import was not started (nothing written); the message says
    why and what to do."""


class Failed(Exception):
    """The import stopped half way and was rolled back (nothing
    written): a database error, a row ironic-lite cannot store, counts
    that do not match."""


class Report(object):
    """What an import did and what the operator should know about."""

    def __init__(self):
        self.revision = None
        # table -> [rows in the source, rows written]
        self.tables = collections.OrderedDict()
        # (table, column) -> values carried by a column only Ironic has
        self.dropped = collections.OrderedDict()
        # table -> rows of a table only Ironic has (or not copied)
        self.not_copied = collections.OrderedDict()
        # 'table.column' -> values cleared (conductor-owned)
        self.cleared = collections.Counter()
        # the source's object versions: table -> {version: rows}
        self.source_versions = {}
        # 'provision_state' value -> nodes, for states ironic-lite lacks
        self.unknown_states = collections.Counter()
        # nodes in a transitional state (a conductor was working on them)
        self.unstable_states = collections.Counter()
        # (field, value) -> nodes naming a driver/interface not enabled
        self.not_enabled = collections.Counter()
        # allocations Ironic's conductor was still working on
        self.allocating = 0

    def lines(self):
        """The summary, as lines of text."""
        out = ['Imported from the Ironic database at schema revision %s.'
               % self.revision, '', '%-24s %10s %10s' % (
                   'Table', 'Source', 'Imported')]
        out += ['%-24s %10d %10d' % (t, s, w)
                for t, (s, w) in self.tables.items()]
        out += _section('Columns only Ironic has (values not imported, '
                        'kept in the Ironic database)',
                        ('%s.%s: %d' % (t, c, n)
                         for (t, c), n in self.dropped.items() if n))
        out += _section('Tables not imported (rows)',
                        ('%s: %d%s' % (t, n, _why(t))
                         for t, n in self.not_copied.items() if n))
        out += _section("Ironic's object versions, replaced by "
                        "ironic-lite's (rows)",
                        ('%s: %s' % (t, ', '.join(
                            '%s x%d' % (v, n) for v, n in sorted(
                                c.items(), key=lambda vn: str(vn[0]))))
                         for t, c in self.source_versions.items() if c))
        out += _section('Conductor-owned values cleared',
                        ('%s: %d' % kv for kv in sorted(self.cleared.items())
                         if kv[1]))
        out += _section('Nodes in provision states ironic-lite does not '
                        'have (kept as they are; move them with Ironic '
                        'before importing)',
                        ('%s: %d' % kv for kv in
                         sorted(self.unknown_states.items())))
        out += _section('Nodes in a transitional state (a conductor was '
                        'working on them)',
                        ('%s: %d' % kv for kv in
                         sorted(self.unstable_states.items())))
        out += _section('Nodes naming a driver or interface not enabled '
                        'here (kept; enable it or change the node)',
                        ('%s=%s: %d' % (f, v, n) for (f, v), n in
                         sorted(self.not_enabled.items())))
        out += _section('Allocations still being processed (Ironic\'s '
                        'conductor was working on them; delete them and '
                        'ask again)',
                        ['allocating: %d' % self.allocating]
                        if self.allocating else [])
        return out


def _section(title, items):
    items = list(items)
    if not items:
        return []
    return ['', title + ':'] + ['  ' + i for i in items]


def _why(table):
    why = ironic_source.NOT_COPIED.get(table)
    return ' (%s)' % why if why else ''


def target_problems():
    """Why the target (ironic-lite's [database]connection) cannot take an
    import: [] when it can."""
    if migration.version() != migration.head():
        return ['the ironic-lite database is not at the schema head %s '
                '(it is at %s): run "ironic-dbsync upgrade" first'
                % (migration.head(), migration.version())]
    with api.get_engine().connect() as conn:
        used = [t for t, _n in ironic_source.TABLES
                if conn.execute(sa.select(sa.func.count()).select_from(
                    models.Base.metadata.tables[t])).scalar()]
    if used:
        return ['the ironic-lite database is not empty (%s hold rows): '
                'an import goes into a new database only'
                % ', '.join(used)]
    return []


def import_database(source_url, enabled=None, stream=None):
    """Copy Ironic's database at ``source_url`` into ironic-lite's.

    :param enabled: {node column: set of enabled values} ('driver',
        'boot_interface', ...): nodes naming another value are reported.
    :param stream: where progress is told (standard error by default).
    :returns: a Report.
    :raises: Refused before anything is written; Failed when the
        transaction was rolled back.
    """
    try:
        return _from(source_url, enabled, stream)
    except (sa.exc.SQLAlchemyError, db_exc.DBError, ValueError,
            TypeError) as err:
        raise Failed(_reason(err)) from err


def _reason(err):
    """The driver's message, not the statement and its parameters (a
    whole batch of rows): what oslo.db or SQLAlchemy wrapped."""
    for attribute in ('inner_exception', 'orig'):
        inner = getattr(err, attribute, None)
        if inner is not None and inner is not err:
            return _reason(inner)
    return '%s: %s' % (type(err).__name__, err)


def _from(source_url, enabled, stream):
    found = target_problems()
    source = sa.create_engine(source_url)
    try:
        with source.connect() as src:
            if source.dialect.name in ('postgresql', 'mysql', 'mariadb'):
                src = src.execution_options(isolation_level='REPEATABLE READ')
            with src.begin():
                metadata = ironic_source.reflect(src)
                found += ironic_source.problems(src, metadata)
                if found:
                    raise Refused('; '.join(found))
                return _import(src, metadata, enabled or {}, stream)
    finally:
        source.dispose()


def _import(src, metadata, enabled, stream):
    report = Report()
    report.revision = ironic_source.revision(src)[0]
    counts = {t: _count(src, metadata.tables[t])
              for t, _n in ironic_source.TABLES}
    told = progress_lib.Progress('import-ironic', sum(counts.values()),
                                 stream=stream)
    with api.get_engine().begin() as dst:
        for table, _name in ironic_source.TABLES:
            written = _copy(src, dst, metadata.tables[table], report, told)
            report.tables[table] = [counts[table], written]
        _move_sequences(dst)
        _verify(dst, report)
    told.finish()
    for name, table in metadata.tables.items():
        if name not in report.tables:
            report.not_copied[name] = _count(src, table)
    _check_nodes(src, metadata.tables['nodes'], enabled, report)
    allocations = metadata.tables['allocations']
    report.allocating = src.execute(
        sa.select(sa.func.count()).select_from(allocations).where(
            allocations.c.state == 'allocating')).scalar()
    return report


def _count(conn, table):
    return conn.execute(sa.select(sa.func.count()).select_from(
        table)).scalar()


def _copy(src, dst, source_table, report, told):
    name = source_table.name
    columns = ironic_source.shared_columns(name, source_table)
    dropped = ironic_source.dropped_columns(name, source_table)
    convert = ironic_source.converter(name, columns)
    for column in dropped:
        report.dropped[(name, column)] = 0
    versions = report.source_versions[name] = collections.Counter()
    query = sa.select(source_table).order_by(*source_table.primary_key)
    result = src.execute(query.execution_options(yield_per=BATCH))
    target = models.Base.metadata.tables[name]
    written = 0
    for rows in result.partitions(BATCH):
        values = []
        for row in rows:
            row = row._mapping
            versions[row.get('version')] += 1
            for column in dropped:
                report.dropped[(name, column)] += ironic_source.is_set(
                    row[column])
            for column in ironic_source.CLEARED.get(name, ()):
                report.cleared['%s.%s' % (name, column)] += (
                    row[column] is not None)
            values.append(convert(row))
        dst.execute(target.insert(), values)
        written += len(values)
        told.add(len(values))
    return written


def _move_sequences(dst):
    """PostgreSQL: the id sequences past the copied ids (MySQL, MariaDB
    and SQLite move past an explicit id by themselves)."""
    if dst.dialect.name != 'postgresql':
        return
    for table, _name in ironic_source.TABLES:
        if 'id' not in models.Base.metadata.tables[table].c:
            continue
        dst.execute(sa.text(
            "SELECT setval(pg_get_serial_sequence(:t, 'id'), "
            "coalesce((SELECT max(id) FROM %s), 0) + 1, false)" % table),
            {'t': table})


def _verify(dst, report):
    """The target's counts are the source's, or the transaction is rolled
    back."""
    wrong = []
    for table, (source_rows, _written) in report.tables.items():
        have = _count(dst, models.Base.metadata.tables[table])
        if have != source_rows:
            wrong.append('%s: %d in the source, %d imported'
                         % (table, source_rows, have))
    if wrong:
        raise Failed('the counts do not match: %s' % '; '.join(wrong))


def _check_nodes(src, nodes, enabled, report):
    """Report nodes ironic-lite would not act on as they are."""
    fields = [f for f in enabled if f in nodes.c]
    query = sa.select(nodes.c.provision_state,
                      *(nodes.c[f] for f in fields))
    for row in src.execute(query):
        state = row[0]
        if state not in KNOWN_STATES:
            report.unknown_states[state] += 1
        elif state in states.UNSTABLE_STATES:
            report.unstable_states[state] += 1
        for field, value in zip(fields, row[1:]):
            if value is not None and value not in enabled[field]:
                report.not_enabled[(field, value)] += 1
