"""A small database shaped as OpenStack Ironic 39's, for the importer's
unit tests (``ironic-dbsync import-ironic``).

The DDL is this module's own: every column of ironic-lite's tables that
Ironic has too (what the importer reads), with the types Ironic gives
them on MySQL where they differ from ironic-lite's (JSON as plain text,
booleans as 0/1 integers), a few columns and tables only Ironic has,
and Ironic's ``alembic_version``.  The real schema, made by Ironic's own
``ironic-dbsync``, is what ``tox -e ironic-import`` imports.
"""

import json

import sqlalchemy as sa

from ironic_lite.db import ironic_source
from ironic_lite.db import models

# Ironic's alembic head at 39.0.
REVISION = '9fb44677ef15'

# ironic-lite's own columns, not in Ironic's schema.
LITE_ONLY = {'nodes': ('reservation_token',), 'ports': ('shard',),
             'portgroups': ('shard',)}

# Some of the columns only Ironic has (ironic-lite drops them, counted).
IRONIC_ONLY = {
    'nodes': (('firmware_interface', sa.String(255)),
              ('parent_node', sa.String(36)),
              ('disable_power_off', sa.Integer)),
    'ports': (('name', sa.String(255)),
              ('available_for_dynamic_portgroup', sa.Integer)),
    'node_history': (('duration_seconds', sa.Integer),),
}


def _type(column):
    kind = column.type
    if isinstance(kind, models.JsonEncodedType):
        return sa.Text()
    if isinstance(kind, sa.Boolean):
        return sa.Integer()
    if isinstance(kind, sa.DateTime):
        return sa.DateTime()
    if isinstance(kind, sa.Integer):
        return sa.BigInteger() if isinstance(kind, sa.BigInteger) \
            else sa.Integer()
    if isinstance(kind, sa.Text):
        return sa.Text()
    return sa.String(kind.length or 255)


def metadata():
    """Ironic's tables, in this module's DDL."""
    meta = sa.MetaData()
    for table, _name in ironic_source.TABLES:
        lite = models.Base.metadata.tables[table]
        columns = [sa.Column(c.name, _type(c), primary_key=c.primary_key,
                             autoincrement=False)
                   for c in lite.columns
                   if c.name not in LITE_ONLY.get(table, ())]
        columns += [sa.Column(name, kind)
                    for name, kind in IRONIC_ONLY.get(table, ())]
        sa.Table(table, meta, *columns)
    sa.Table('alembic_version', meta,
             sa.Column('version_num', sa.String(32), primary_key=True))
    sa.Table('conductors', meta, sa.Column('id', sa.Integer,
                                           primary_key=True),
             sa.Column('hostname', sa.String(255)))
    sa.Table('node_tags', meta,
             sa.Column('node_id', sa.Integer, primary_key=True),
             sa.Column('tag', sa.String(255), primary_key=True))
    return meta


def create(url, revision=REVISION):
    """Ironic-shaped empty tables at ``url``; the engine."""
    engine = sa.create_engine(url)
    meta = metadata()
    meta.create_all(engine)
    if revision:
        with engine.begin() as conn:
            conn.execute(meta.tables['alembic_version'].insert(),
                         {'version_num': revision})
    return engine


def insert(engine, table, *rows):
    """Rows into an Ironic-shaped table: dicts and lists become JSON text,
    booleans 0/1, as Ironic writes them on MySQL."""
    def ironic(value):
        if isinstance(value, (dict, list)):
            return json.dumps(value)
        if isinstance(value, bool):
            return int(value)
        return value
    meta = sa.MetaData()
    meta.reflect(bind=engine, only=[table])
    with engine.begin() as conn:
        for row in rows:  # one by one: the rows name different columns
            conn.execute(meta.tables[table].insert(),
                         {k: ironic(v) for k, v in row.items()})
