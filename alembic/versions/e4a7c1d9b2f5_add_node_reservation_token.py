"""Release 4.0: nodes.reservation_token -- which task holds the lock.

A conductor writes a fresh random token with every reservation it takes
and makes each write of its task conditional on the node still carrying
its host *and* that token (fencing, doc/source/admin/locks-and-faults.rst):
a conductor that froze past [conductor]heartbeat_timeout, or a previous
life of one restarted under the same host name, can no longer overwrite
what happened to the node since its lock was broken.

Additive only: a nullable column, never read by release 3.0 services
(whose model has no ``reservation_token``); their reservations leave it
as it was, see the upgrade window in the admin guide.

Revision ID: e4a7c1d9b2f5
Revises: d3f6b2a9c4e1
Create Date: 2026-12-01

"""

from alembic import op
import sqlalchemy as sa

# revision identifiers, used by Alembic.
revision = 'e4a7c1d9b2f5'
down_revision = 'd3f6b2a9c4e1'


def upgrade():
    op.add_column('nodes', sa.Column('reservation_token', sa.String(36),
                                     nullable=True))
