"""BIOS setting queries (release 5.0, API 1.40), with Ironic's names.

A node's settings are what its bios interface last reported; the
conductor replaces them in one transaction (``sync_bios_settings``) under
the node's lock.  Deleting a node deletes them (``db/node.py``).
"""

import sqlalchemy as sa

from ironic_lite.common import exception
from ironic_lite.db import api
from ironic_lite.db import models

# The columns a setting carries besides its node and name.
SETTING_COLUMNS = ('value', 'attribute_type', 'allowable_values',
                   'lower_bound', 'max_length', 'min_length', 'read_only',
                   'reset_required', 'unique', 'upper_bound')

_OF_NODE = (sa.select(models.BIOSSetting)
            .where(models.BIOSSetting.node_id == sa.bindparam('node_id'))
            .order_by(models.BIOSSetting.name))


def _rows(session, node_id):
    return session.execute(_OF_NODE, {'node_id': node_id}).scalars().all()


def get_bios_setting_list(node_id):
    """The node's settings, by name."""
    with api.reader() as session:
        return _rows(session, node_id)


def get_bios_setting(node_id, name):
    with api.reader() as session:
        row = (session.query(models.BIOSSetting)
               .filter_by(node_id=node_id, name=name).one_or_none())
    if row is None:
        raise exception.BIOSSettingNotFound(node=node_id, name=name)
    return row


def _values(setting):
    values = {c: setting.get(c) for c in SETTING_COLUMNS}
    # The JSON column stores None as [] (as Ironic's): compare alike.
    values['allowable_values'] = values['allowable_values'] or []
    return values


def _changed(row, values):
    return any(getattr(row, c) != v for c, v in values.items())


@api.retry_on_db_errors
def sync_bios_settings(node_id, settings, version):
    """Make the node's rows equal ``settings`` (dicts with ``name``,
    ``value`` and optional registry keys), in one transaction: new names
    are added, changed ones updated, missing ones deleted.

    :returns: (created, updated, deleted) lists of names.
    """
    wanted = {s['name']: _values(s) for s in settings}
    created, updated = [], []
    with api.writer() as session:
        current = {row.name: row for row in _rows(session, node_id)}
        deleted = sorted(set(current) - set(wanted))
        if deleted:
            (session.query(models.BIOSSetting)
             .filter(models.BIOSSetting.node_id == node_id,
                     models.BIOSSetting.name.in_(deleted))
             .delete(synchronize_session=False))
        for name in sorted(wanted):
            values = wanted[name]
            row = current.get(name)
            if row is None:
                session.add(models.BIOSSetting(node_id=node_id, name=name,
                                               version=version, **values))
                created.append(name)
            elif _changed(row, values):
                row.update(dict(values, version=version))
                updated.append(name)
        session.flush()
    return created, updated, deleted


def delete_for_node(session, node_id):
    """Delete the node's settings (inside the node's deletion)."""
    session.query(models.BIOSSetting).filter_by(node_id=node_id).delete()
