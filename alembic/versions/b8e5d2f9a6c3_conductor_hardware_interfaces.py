"""Release 7.0: a conductor publishes its hardware types' interfaces.

``conductors.hardware_interfaces``: for each hardware type the conductor
registers, each interface's default and accepted implementations, as
its configuration makes them (``drivers/factory.published_interfaces``).
An API creating a node reads them from the conductor the hash ring
gives the node and fills in the same defaults itself, instead of
sending the node to that conductor (Ironic keeps the same facts in its
``conductor_hardware_interfaces`` table).

Additive only: one nullable column of ``conductors``, which older
services neither read nor write (their registrations leave it NULL, and
an API then sends the creation to the conductor, as before).

Revision ID: b8e5d2f9a6c3
Revises: c3e9a7b5d1f2
Create Date: 2026-11-30

"""

from alembic import op
import sqlalchemy as sa

from ironic_lite.db import models

# revision identifiers, used by Alembic.
revision = 'b8e5d2f9a6c3'
down_revision = 'c3e9a7b5d1f2'


def upgrade():
    op.add_column('conductors',
                  sa.Column('hardware_interfaces', models.JSONEncodedDict(),
                            nullable=True))
