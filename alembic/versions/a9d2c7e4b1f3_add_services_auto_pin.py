"""Release 4.0: services.auto_pin -- the service computes its pin.

A service run with ``[DEFAULT]pin_release_version = auto`` records the
pin it computed in ``pin``, as any pinned service, and true here: the
other ``auto`` services must know that its pin follows the deployment
(it rises by itself) rather than holds it, or none of them would ever
rise.

Additive only: a column with a server default, never read by release
3.0 services (their model has no ``auto_pin``); the rows they write keep
the default, false, which is what they are.

Revision ID: a9d2c7e4b1f3
Revises: a9d4e7c2b8f1
Create Date: 2026-12-03

"""

from alembic import op
import sqlalchemy as sa

# revision identifiers, used by Alembic.
revision = 'a9d2c7e4b1f3'
down_revision = 'a9d4e7c2b8f1'


def upgrade():
    op.add_column('services', sa.Column(
        'auto_pin', sa.Boolean(), nullable=False, server_default='0'))
