"""Release 6.0: the port and port group fields of API 1.88-1.111.

Ironic's columns: ``ports.name`` (unique, byte for byte as port group
names), ``description``, ``vendor``, ``category`` and
``available_for_dynamic_portgroup`` (NOT NULL, true by default, as
Ironic's); ``portgroups.physical_network``, ``category`` and
``dynamic_portgroup``.  Additive only: new nullable columns, or one with
a server default, which the older services (whose models have none of
them) never read nor write.

The names' unique index ``uniq_ports0name`` is built ``CONCURRENTLY`` on
PostgreSQL, outside the migration's transaction, so that the running
release keeps writing ports while it is built; a build interrupted half
way leaves an invalid index, which running the upgrade again rebuilds.
MySQL/MariaDB build it in place without blocking writes.  Frozen: this
SQL is the revision's own.

Revision ID: b6d2f1a9c4e3
Revises: c3e8a5f1d7b9
Create Date: 2026-11-29

"""

from alembic import op
import sqlalchemy as sa
from sqlalchemy.dialects import mysql

# revision identifiers, used by Alembic.
revision = 'b6d2f1a9c4e3'
down_revision = 'c3e8a5f1d7b9'

INDEX = 'uniq_ports0name'
NAME = sa.String(255).with_variant(
    mysql.VARCHAR(255, collation='utf8mb4_bin'),
    'mysql', 'mariadb')


def _columns():
    return {
        'ports': [
            sa.Column('name', NAME, nullable=True),
            sa.Column('description', sa.String(255), nullable=True),
            sa.Column('vendor', sa.String(32), nullable=True),
            sa.Column('category', sa.String(80), nullable=True),
            sa.Column('available_for_dynamic_portgroup', sa.Boolean(),
                      nullable=False, server_default=sa.true()),
        ],
        'portgroups': [
            sa.Column('physical_network', sa.String(64), nullable=True),
            sa.Column('category', sa.String(80), nullable=True),
            sa.Column('dynamic_portgroup', sa.Boolean(), nullable=True),
        ],
    }


def upgrade():
    bind = op.get_bind()
    # A run cut short on PostgreSQL has committed the columns before the
    # index: running the upgrade again goes on from there.
    for table, columns in _columns().items():
        have = {c['name'] for c in sa.inspect(bind).get_columns(table)}
        for column in columns:
            if column.name not in have:
                op.add_column(table, column)
    if bind.dialect.name != 'postgresql':
        op.create_index(INDEX, 'ports', ['name'], unique=True)
        return
    with op.get_context().autocommit_block():
        valid = op.get_bind().execute(sa.text(
            'SELECT i.indisvalid FROM pg_index i JOIN pg_class c '
            'ON c.oid = i.indexrelid WHERE c.relname = :name '
            'AND pg_catalog.pg_table_is_visible(c.oid)'),
            {'name': INDEX}).scalar()
        if valid is False:
            op.execute('REINDEX INDEX CONCURRENTLY %s' % INDEX)
        elif valid is None:
            op.create_index(INDEX, 'ports', ['name'], unique=True,
                            postgresql_concurrently=True)
