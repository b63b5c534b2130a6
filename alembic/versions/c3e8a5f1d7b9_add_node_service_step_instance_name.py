"""Release 6.0: nodes.service_step and nodes.instance_name.

API 1.87 and 1.104: the service step a node is running (JSON text, as
clean_step) and the name its user gave the instance (Ironic's
String(255)).  Additive only: two nullable columns, which the older
services (whose model has neither) never read nor write.  Each is added
unless present, so that a run cut short goes on from where it stopped.
Frozen: this revision's own.

Revision ID: c3e8a5f1d7b9
Revises: f9a3c6e2d8b4
Create Date: 2026-11-29

"""

from alembic import op
import sqlalchemy as sa

# revision identifiers, used by Alembic.
revision = 'c3e8a5f1d7b9'
down_revision = 'f9a3c6e2d8b4'


def upgrade():
    present = {c['name'] for c in
               sa.inspect(op.get_bind()).get_columns('nodes')}
    if 'service_step' not in present:
        op.add_column('nodes', sa.Column('service_step', sa.Text(),
                                         nullable=True))
    if 'instance_name' not in present:
        op.add_column('nodes', sa.Column('instance_name', sa.String(255),
                                         nullable=True))
