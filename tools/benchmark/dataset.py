"""A fresh database, its schema, and a synthetic fleet loaded in bulk.

The fleet is written straight into the tables with SQLAlchemy Core
``executemany`` batches (no objects, no API): it is the fixture of the
benchmark, not something it measures.  Every row carries the ``version``
of its object class, as ironic-lite itself would write it unpinned.
"""

import datetime
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
import uuid

import sqlalchemy as sa

from ironic_lite.common import progress
from ironic_lite.db import models
from ironic_lite import objects

PG_SERVER = 'postgresql+psycopg2://postgres@127.0.0.1:5432'
BATCH = 5000
SHARD_NAME = 'shard-%02d'


class Database(object):
    """A throw-away database: an SQLite file or a PostgreSQL database."""

    def __init__(self, backend, server=PG_SERVER, keep=False, url=None):
        self.backend = backend
        self.keep = keep or url is not None
        self.server = server
        self.tmpdir = tempfile.mkdtemp(prefix='ironic-bench-')
        if url is not None:
            # One kept by an earlier run (--keep): measured again as is.
            self.url = url
        elif backend == 'sqlite':
            self.url = 'sqlite:///%s' % os.path.join(self.tmpdir,
                                                     'ironic.sqlite')
        else:
            self.name = 'ironic_bench_%d_%s' % (os.getpid(),
                                                uuid.uuid4().hex[:12])
            self._admin(sa.text('CREATE DATABASE %s' % self.name))
            self.url = '%s/%s' % (server, self.name)

    def _admin(self, statement):
        engine = sa.create_engine('%s/postgres' % self.server,
                                  isolation_level='AUTOCOMMIT')
        try:
            with engine.connect() as conn:
                conn.execute(statement)
        finally:
            engine.dispose()

    def drop(self):
        """Remove the database (and the temporary directory) unless kept."""
        if self.keep:
            print('kept the database: %s (and %s)' % (self.url, self.tmpdir))
            return
        if self.backend == 'postgresql':
            self._admin(sa.text('DROP DATABASE IF EXISTS %s WITH (FORCE)'
                                % self.name))
        shutil.rmtree(self.tmpdir, ignore_errors=True)


def count_rows(url):
    """{table: rows} of the fleet's tables of the database at ``url``."""
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            return {table: conn.execute(sa.text(
                'SELECT COUNT(*) FROM %s' % table)).scalar()
                for table in ('nodes', 'portgroups', 'ports')}
    finally:
        engine.dispose()


def dbsync_upgrade(config_file):
    """``ironic-dbsync upgrade`` (the venv's console script)."""
    dbsync = os.path.join(os.path.dirname(sys.executable), 'ironic-dbsync')
    subprocess.run([dbsync, '--config-file', config_file, 'upgrade'],
                   check=True, capture_output=True, text=True)


def _plain_table(model):
    """The model's table without column types: values go to the driver as
    they are (JSON already encoded), so a batch costs no per-value Python
    type processing."""
    table = model.__table__
    return sa.table(table.name, *[sa.column(c.name) for c in table.columns])


def shard_of(rnd, shards, unsharded):
    if rnd.random() < unsharded:
        return None
    return SHARD_NAME % rnd.randrange(shards)


def _uuid(rnd):
    return str(uuid.UUID(int=rnd.getrandbits(128), version=4))


def _mac(prefix, number):
    return '%s:%02x:%02x:%02x:%02x' % (prefix, (number >> 24) & 255,
                                       (number >> 16) & 255,
                                       (number >> 8) & 255, number & 255)


def node_row(rnd, node_id, shard, now):
    """One ``nodes`` row as the fake-hardware type would have it."""
    empty = '{}'
    row = dict(
        id=node_id, uuid=_uuid(rnd), name='node-%06d' % node_id,
        driver='fake-hardware', power_state='power off',
        provision_state='available', conductor_group='',
        maintenance=False, console_enabled=False, protected=False,
        retired=False, automated_clean=None, resource_class='baremetal',
        properties=json.dumps({'cpus': 8, 'memory_mb': 65536,
                               'local_gb': 500, 'cpu_arch': 'x86_64'}),
        driver_info=json.dumps({'ipmi_address': '10.0.%d.%d' % (
            node_id // 250 % 256, node_id % 250 + 1)}),
        driver_internal_info=empty, instance_info=empty, extra=empty,
        clean_step=empty, deploy_step=empty, raid_config=empty,
        target_raid_config=empty, network_data=empty,
        shard=shard, created_at=now, version=objects.Node.VERSION)
    for iface in ('bios', 'console', 'raid', 'rescue', 'vendor'):
        row['%s_interface' % iface] = 'no-%s' % iface
    for iface in ('boot', 'deploy', 'management', 'power'):
        row['%s_interface' % iface] = 'fake'
    row.update(inspect_interface='fake', network_interface='flat',
               storage_interface='noop')
    return row


def _fleet(rnd, nodes, shards, unsharded, pg_every, now):
    """Yield (table name, row) for every node, its port group, its ports."""
    pg_id = port_id = 0
    for node_id in range(1, nodes + 1):
        yield 'nodes', node_row(rnd, node_id,
                                shard_of(rnd, shards, unsharded), now)
        group = None
        if pg_every and node_id % pg_every == 0:
            pg_id += 1
            group = pg_id
            yield 'portgroups', dict(
                id=pg_id, uuid=_uuid(rnd), name='pg-%06d' % pg_id,
                node_id=node_id, address=_mac('52:55', pg_id), mode=None,
                standalone_ports_supported=True, extra='{}',
                internal_info='{}', properties='{}', created_at=now,
                version=objects.Portgroup.VERSION)
        for _ in range(2):
            port_id += 1
            yield 'ports', dict(
                id=port_id, uuid=_uuid(rnd), address=_mac('52:54', port_id),
                node_id=node_id, portgroup_id=group, pxe_enabled=True,
                physical_network=None, is_smartnic=False, extra='{}',
                local_link_connection='{}', internal_info='{}',
                created_at=now, version=objects.Port.VERSION)


def _reflected_tables(engine):
    """The fleet's tables as another schema (real Ironic's) has them."""
    meta = sa.MetaData()
    meta.reflect(engine, only=('nodes', 'portgroups', 'ports'))
    return {name: sa.table(name, *[sa.column(c.name)
                                   for c in meta.tables[name].columns])
            for name in ('nodes', 'portgroups', 'ports')}


def _adapt(rows, tables, versions, node_extra):
    """Rows for a foreign schema: its object versions, its extra node
    columns, and only the columns it has."""
    columns = {name: {c.name for c in table.columns}
               for name, table in tables.items()}
    for name, row in rows:
        row = dict(row, version=versions[name])
        if name == 'nodes':
            row.update(node_extra or {})
        yield name, {k: v for k, v in row.items() if k in columns[name]}


def load(url, nodes, shards=50, unsharded=0.1, pg_every=10, seed=42,
         versions=None, node_extra=None):
    """Insert the fleet; returns {table: rows} and the seconds it took.

    By default into ironic-lite's schema.  With ``versions`` ({table:
    object version}) the tables are reflected from the database and the
    same fleet (same seed: same UUIDs, names, shards, addresses) goes
    into that schema -- real Ironic's, for the side-by-side comparison.
    """
    objects.register_all()
    rnd = random.Random(seed)
    now = datetime.datetime.utcnow().strftime('%Y-%m-%d %H:%M:%S.%f')
    engine = sa.create_engine(url, insertmanyvalues_page_size=BATCH)
    fleet = _fleet(rnd, nodes, shards, unsharded, pg_every, now)
    if versions:
        tables = _reflected_tables(engine)
        fleet = _adapt(fleet, tables, versions, node_extra)
    else:
        tables = {m.__tablename__: _plain_table(m)
                  for m in (models.Node, models.Portgroup, models.Port)}
    pending = {name: [] for name in tables}
    counts = dict.fromkeys(tables, 0)
    # Told on standard error as the nodes go in (a bar on a terminal).
    told = progress.Progress('loading', nodes, unit='nodes')
    start = time.monotonic()
    # A transaction per batch, as nodes are enrolled: in one transaction
    # for the whole fleet, ironic-lite's shard_counts triggers update the
    # same 51 rows a million times, each update walking every version the
    # transaction left of its row (quadratic).
    with engine.connect() as conn:
        def flush(name):
            if pending[name]:
                conn.execute(tables[name].insert(), pending[name])
                counts[name] += len(pending[name])
                if name == 'nodes':
                    told.add(len(pending[name]))
                pending[name] = []
        for name, row in fleet:
            pending[name].append(row)
            if len(pending[name]) >= BATCH:
                # Parents first: foreign keys hold at every statement.
                for table in ('nodes', 'portgroups', 'ports'):
                    flush(table)
                conn.commit()
        for table in ('nodes', 'portgroups', 'ports'):
            flush(table)
        _after_load(conn)
        conn.commit()
    told.finish()
    elapsed = time.monotonic() - start
    _vacuum(engine)
    engine.dispose()
    return counts, elapsed


def _after_load(conn):
    """PostgreSQL: move the id sequences past the explicit ids."""
    if conn.dialect.name != 'postgresql':
        return
    for table in ('nodes', 'portgroups', 'ports'):
        conn.execute(sa.text(
            "SELECT setval(pg_get_serial_sequence('%s', 'id'), "
            "(SELECT max(id) FROM %s))" % (table, table)))


def _vacuum(engine):
    """PostgreSQL: VACUUM ANALYZE, what autovacuum does soon after a bulk
    insert: planner statistics, and the visibility map that lets an
    index-only scan skip the table.  (Not counted in the load time.)"""
    if engine.dialect.name != 'postgresql':
        return
    with engine.connect() as conn:
        conn = conn.execution_options(isolation_level='AUTOCOMMIT')
        conn.execute(sa.text('VACUUM ANALYZE nodes, ports, portgroups'))
