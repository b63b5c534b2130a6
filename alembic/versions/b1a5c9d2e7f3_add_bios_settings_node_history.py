"""Release 5.0: bios_settings (API 1.40/1.74) and node_history (API 1.78).

Additive only: two new tables, which release 4.0 services never read.
While services are pinned to 4.0 nothing is written to them (a 4.0
conductor deleting a node would not delete its rows), so the API reads
them empty until the pin is removed.

Revision ID: b1a5c9d2e7f3
Revises: a7d2c9e4b1f3
Create Date: 2026-11-26

"""

from alembic import op
import sqlalchemy as sa

from ironic_lite.db import models

# revision identifiers, used by Alembic.
revision = 'b1a5c9d2e7f3'
down_revision = 'a7d2c9e4b1f3'


def _times():
    return (sa.Column('created_at', sa.DateTime(), nullable=True),
            sa.Column('updated_at', sa.DateTime(), nullable=True))


def upgrade():
    op.create_table(
        'bios_settings',
        *_times(),
        sa.Column('node_id', sa.Integer(), sa.ForeignKey('nodes.id'),
                  primary_key=True, nullable=False),
        sa.Column('name', sa.String(255), primary_key=True, nullable=False),
        sa.Column('value', sa.Text(), nullable=True),
        sa.Column('attribute_type', sa.String(255), nullable=True),
        sa.Column('allowable_values', models.JSONEncodedList(),
                  nullable=True),
        sa.Column('lower_bound', sa.BigInteger(), nullable=True),
        sa.Column('max_length', sa.Integer(), nullable=True),
        sa.Column('min_length', sa.Integer(), nullable=True),
        sa.Column('read_only', sa.Boolean(), nullable=True),
        sa.Column('reset_required', sa.Boolean(), nullable=True),
        sa.Column('unique', sa.Boolean(), nullable=True),
        sa.Column('upper_bound', sa.BigInteger(), nullable=True),
        sa.Column('version', sa.String(15), nullable=True),
        mysql_engine='InnoDB', mysql_charset='utf8mb4')
    op.create_table(
        'node_history',
        *_times(),
        sa.Column('id', sa.Integer(), primary_key=True, nullable=False),
        sa.Column('uuid', sa.String(36), nullable=False),
        sa.Column('conductor', sa.String(255), nullable=True),
        sa.Column('event_type', sa.String(255), nullable=True),
        sa.Column('severity', sa.String(255), nullable=True),
        sa.Column('event', sa.Text(), nullable=True),
        sa.Column('user', sa.String(64), nullable=True),
        sa.Column('node_id', sa.Integer(), sa.ForeignKey('nodes.id'),
                  nullable=True),
        sa.Column('version', sa.String(15), nullable=True),
        sa.UniqueConstraint('uuid', name='uniq_history0uuid'),
        mysql_engine='InnoDB', mysql_charset='utf8mb4')
    op.create_index('history_node_id_idx', 'node_history', ['node_id'])
    op.create_index('history_created_at_idx', 'node_history',
                    ['created_at'])
