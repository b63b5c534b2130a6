"""Firmware component queries (release 6.0, API 1.86), with Ironic's
names.

A node's components are what its firmware interface last reported; the
conductor stores them in one transaction (``sync_firmware_components``)
under the node's lock, as Ironic's sync: a new component is added with
its version as ``initial_version``; a known one whose version changed
gets it as ``current_version`` and ``last_version_flashed``; one no
longer reported is kept (Ironic never deletes one).  Deleting a node
deletes them (``db/node.py``).
"""

import sqlalchemy as sa

from ironic_lite.db import api
from ironic_lite.db import models

# The columns the interface reports, besides the component's name.
IDENTITY_COLUMNS = ('vendor', 'model', 'serial_number')

_OF_NODE = (sa.select(models.FirmwareComponent)
            .where(models.FirmwareComponent.node_id
                   == sa.bindparam('node_id'))
            .order_by(models.FirmwareComponent.id))


def _rows(session, node_id):
    return session.execute(_OF_NODE, {'node_id': node_id}).scalars().all()


def get_firmware_component_list(node_id):
    """The node's components, in the order they were first stored."""
    with api.reader() as session:
        return _rows(session, node_id)


def _update(row, reported, version):
    """Set what changed on ``row``; whether anything did."""
    changes = {c: reported.get(c) for c in IDENTITY_COLUMNS
               if reported.get(c) != getattr(row, c)}
    current = reported.get('current_version')
    if current != row.current_version:
        changes['current_version'] = current
        changes['last_version_flashed'] = current
    if changes:
        row.update(dict(changes, version=version))
    return bool(changes)


@api.retry_on_db_errors
def sync_firmware_components(node_id, components, version):
    """Store ``components`` (dicts with ``component``,
    ``current_version`` and the optional identity keys), in one
    transaction (see the module docstring).

    :returns: (created, updated, unchanged) lists of component names.
    """
    created, updated, unchanged = [], [], []
    with api.writer() as session:
        current = {row.component: row for row in _rows(session, node_id)}
        for reported in components:
            name = reported['component']
            row = current.get(name)
            if row is None:
                row = models.FirmwareComponent(
                    node_id=node_id, component=name,
                    initial_version=reported.get('current_version') or '',
                    current_version=reported.get('current_version'),
                    version=version,
                    **{c: reported.get(c) for c in IDENTITY_COLUMNS})
                session.add(row)
                current[name] = row
                created.append(name)
            elif _update(row, reported, version):
                updated.append(name)
            else:
                unchanged.append(name)
        session.flush()
    return created, updated, unchanged


def delete_for_node(session, node_id):
    """Delete the node's components (inside the node's deletion)."""
    session.query(models.FirmwareComponent).filter_by(
        node_id=node_id).delete()
