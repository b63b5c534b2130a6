"""Release 6.0: runbooks (1.92, 1.112) and node history fields (1.113, 1.115).

The runbooks, their steps and traits; the node history's project (1.113),
state, target and duration (1.115).

Additive only: three new tables (``runbooks``, ``runbook_steps``,
``runbook_traits``), which older services never read, and four nullable
columns of ``node_history``, which older services neither read nor
write (their events leave them NULL, served as null).

Revision ID: c3e9a7b5d1f2
Revises: c4e8a2f6d1b9
Create Date: 2026-11-29

"""

from alembic import op
import sqlalchemy as sa

from ironic_lite.db import models

# revision identifiers, used by Alembic.
revision = 'c3e9a7b5d1f2'
down_revision = 'c4e8a2f6d1b9'


def _times():
    return (sa.Column('created_at', sa.DateTime(), nullable=True),
            sa.Column('updated_at', sa.DateTime(), nullable=True))


def _runbook_tables():
    op.create_table(
        'runbooks',
        *_times(),
        sa.Column('id', sa.Integer(), primary_key=True, nullable=False),
        sa.Column('uuid', sa.String(36), nullable=True),
        sa.Column('name', sa.String(255), nullable=False),
        sa.Column('description', sa.String(255), nullable=True),
        sa.Column('public', sa.Boolean(), nullable=True),
        sa.Column('owner', sa.String(255), nullable=True),
        sa.Column('disable_ramdisk', sa.Boolean(), nullable=True),
        sa.Column('extra', models.JSONEncodedDict()),
        sa.Column('version', sa.String(15), nullable=True),
        sa.UniqueConstraint('uuid', name='uniq_runbooks0uuid'),
        sa.UniqueConstraint('name', name='uniq_runbooks0name'),
        mysql_engine='InnoDB', mysql_charset='utf8mb4')
    op.create_table(
        'runbook_steps',
        *_times(),
        sa.Column('id', sa.Integer(), primary_key=True, nullable=False),
        sa.Column('runbook_id', sa.Integer(),
                  sa.ForeignKey('runbooks.id'), nullable=False),
        sa.Column('interface', sa.String(255), nullable=False),
        sa.Column('step', sa.String(255), nullable=False),
        sa.Column('args', models.JSONEncodedDict(), nullable=False),
        sa.Column('order', sa.Integer(), nullable=False),
        sa.Column('version', sa.String(15), nullable=True),
        mysql_engine='InnoDB', mysql_charset='utf8mb4')
    op.create_index('runbook_id', 'runbook_steps', ['runbook_id'])
    op.create_index('runbook_steps_interface_idx', 'runbook_steps',
                    ['interface'])
    op.create_index('runbook_steps_step_idx', 'runbook_steps', ['step'])
    op.create_table(
        'runbook_traits',
        *_times(),
        sa.Column('runbook_id', sa.Integer(), sa.ForeignKey('runbooks.id'),
                  primary_key=True, nullable=False),
        sa.Column('trait', sa.String(255), primary_key=True,
                  nullable=False),
        sa.Column('version', sa.String(15), nullable=True),
        mysql_engine='InnoDB', mysql_charset='utf8mb4')
    op.create_index('runbook_traits_idx', 'runbook_traits', ['trait'])


def upgrade():
    _runbook_tables()
    for column in (sa.Column('project', sa.String(80), nullable=True),
                   sa.Column('state', sa.String(255), nullable=True),
                   sa.Column('target_provision_state', sa.String(255),
                             nullable=True),
                   sa.Column('duration_seconds', sa.Integer(),
                             nullable=True)):
        op.add_column('node_history', column)
