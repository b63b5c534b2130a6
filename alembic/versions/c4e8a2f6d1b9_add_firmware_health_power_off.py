"""Release 6.0: firmware_information, nodes.firmware_interface/health.

Firmware components (API 1.86/1.114), nodes.disable_power_off (1.95) and
nodes.health (1.109).

Additive only: three nullable columns of ``nodes`` (Ironic's
``firmware_interface``, ``disable_power_off`` with a server default of
false, ``health``), which the older services' model never names, and
Ironic's table ``firmware_information`` (a node's firmware components),
which the older services never read.  While pinned to a release before
6.0 nothing is written to the table nor to the new columns.

Revision ID: c4e8a2f6d1b9
Revises: c3e8a1f5d7b9
Create Date: 2026-11-29

"""

from alembic import op
import sqlalchemy as sa

# revision identifiers, used by Alembic.
revision = 'c4e8a2f6d1b9'
down_revision = 'c3e8a1f5d7b9'

_NODE_COLUMNS = (
    ('firmware_interface', lambda: sa.Column(
        'firmware_interface', sa.String(255), nullable=True)),
    ('disable_power_off', lambda: sa.Column(
        'disable_power_off', sa.Boolean(), nullable=True,
        server_default='0')),
    ('health', lambda: sa.Column('health', sa.String(32), nullable=True)),
)


def upgrade():
    bind = op.get_bind()
    inspector = sa.inspect(bind)
    present = {c['name'] for c in inspector.get_columns('nodes')}
    for name, column in _NODE_COLUMNS:
        if name not in present:
            op.add_column('nodes', column())
    if inspector.has_table('firmware_information'):
        return
    op.create_table(
        'firmware_information',
        sa.Column('created_at', sa.DateTime(), nullable=True),
        sa.Column('updated_at', sa.DateTime(), nullable=True),
        sa.Column('id', sa.Integer(), primary_key=True, nullable=False),
        sa.Column('node_id', sa.Integer(), sa.ForeignKey('nodes.id'),
                  nullable=False),
        sa.Column('component', sa.String(255), nullable=False),
        sa.Column('initial_version', sa.String(255), nullable=False),
        sa.Column('current_version', sa.String(255), nullable=True),
        sa.Column('last_version_flashed', sa.String(255), nullable=True),
        sa.Column('vendor', sa.String(255), nullable=True),
        sa.Column('model', sa.String(255), nullable=True),
        sa.Column('serial_number', sa.String(255), nullable=True),
        sa.Column('version', sa.String(15), nullable=True),
        sa.UniqueConstraint('node_id', 'component',
                            name='uniq_nodecomponent0node_id0component'),
        mysql_engine='InnoDB', mysql_charset='utf8mb4')
