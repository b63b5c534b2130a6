"""Release 4.0: deploy_templates and deploy_template_steps (API 1.55).

Additive only: two new tables, which release 3.0 services never read.  An
API pinned to 3.0 serves them read-only (its writes answer 409: a 3.0
conductor would deploy without the templates' steps).

Revision ID: a7d2c9e4b1f3
Revises: a9d2c7e4b1f3
Create Date: 2026-11-26

"""

from alembic import op
import sqlalchemy as sa

from ironic_lite.db import models

# revision identifiers, used by Alembic.
revision = 'a7d2c9e4b1f3'
down_revision = 'a9d2c7e4b1f3'


def _times():
    return (sa.Column('created_at', sa.DateTime(), nullable=True),
            sa.Column('updated_at', sa.DateTime(), nullable=True))


def upgrade():
    op.create_table(
        'deploy_templates',
        *_times(),
        sa.Column('id', sa.Integer(), primary_key=True, nullable=False),
        sa.Column('uuid', sa.String(36), nullable=True),
        sa.Column('name', sa.String(255), nullable=False),
        sa.Column('extra', models.JSONEncodedDict()),
        sa.Column('version', sa.String(15), nullable=True),
        sa.UniqueConstraint('uuid', name='uniq_deploytemplates0uuid'),
        sa.UniqueConstraint('name', name='uniq_deploytemplates0name'),
        mysql_engine='InnoDB', mysql_charset='utf8mb4')
    op.create_table(
        'deploy_template_steps',
        *_times(),
        sa.Column('id', sa.Integer(), primary_key=True, nullable=False),
        sa.Column('deploy_template_id', sa.Integer(),
                  sa.ForeignKey('deploy_templates.id'), nullable=False),
        sa.Column('interface', sa.String(255), nullable=False),
        sa.Column('step', sa.String(255), nullable=False),
        sa.Column('args', models.JSONEncodedDict(), nullable=False),
        sa.Column('priority', sa.Integer(), nullable=False),
        sa.Column('version', sa.String(15), nullable=True),
        mysql_engine='InnoDB', mysql_charset='utf8mb4')
    op.create_index('deploy_template_id', 'deploy_template_steps',
                    ['deploy_template_id'])
    op.create_index('deploy_template_steps_interface_idx',
                    'deploy_template_steps', ['interface'])
    op.create_index('deploy_template_steps_step_idx',
                    'deploy_template_steps', ['step'])
