"""Release 6.0: inspection_rules (API 1.96), Ironic's table.

Additive only: a new table, which the older services never read.

Revision ID: c3e8a1f5d7b9
Revises: b6d2f1a9c4e3
Create Date: 2026-11-29

"""

from alembic import op
import sqlalchemy as sa

from ironic_lite.db import models

# revision identifiers, used by Alembic.
revision = 'c3e8a1f5d7b9'
down_revision = 'b6d2f1a9c4e3'


def upgrade():
    op.create_table(
        'inspection_rules',
        sa.Column('created_at', sa.DateTime(), nullable=True),
        sa.Column('updated_at', sa.DateTime(), nullable=True),
        sa.Column('id', sa.Integer(), primary_key=True, nullable=False),
        sa.Column('uuid', sa.String(36), nullable=False),
        sa.Column('priority', sa.Integer(), nullable=False),
        sa.Column('description', sa.String(255), nullable=True),
        sa.Column('scope', sa.String(255), nullable=True),
        sa.Column('sensitive', sa.Boolean(), nullable=True),
        sa.Column('phase', sa.String(16), nullable=True),
        sa.Column('conditions', models.JSONEncodedList(), nullable=True),
        sa.Column('actions', models.JSONEncodedList(), nullable=False),
        sa.Column('version', sa.String(15), nullable=True),
        sa.UniqueConstraint('uuid', name='uniq_inspection_rules0uuid'),
        mysql_engine='InnoDB', mysql_charset='utf8mb4')
    op.create_index('inspection_rule_scope_idx', 'inspection_rules',
                    ['scope'])
    op.create_index('inspection_rule_phase_idx', 'inspection_rules',
                    ['phase'])
