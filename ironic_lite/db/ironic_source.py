"""What ``ironic-dbsync import-ironic`` knows of an OpenStack Ironic database.

The importer reads Ironic's tables with SQLAlchemy Core, reflected from
the database itself, never with Ironic's code: ironic-lite does not
depend on Ironic.  It accepts only the schemas whose alembic revision is
in ``SUPPORTED_REVISIONS``, the ones its mapping was checked against
(``tools/ironic_import`` builds such a database with Ironic's own
``ironic-dbsync`` and compares both APIs on it); any other revision may
have columns this module does not know, so it is refused rather than
half copied.

Tables are copied with their ids, so that every foreign key (a port's
``node_id``, a node's ``chassis_id`` and ``allocation_id``) keeps
pointing at the same row.  A column both schemas have is copied as it is;
the ``version`` of each row becomes the version of the ironic-lite object
whose fields the copy fills (every field: ironic-lite's newest); a column
only Ironic has is counted and reported, not copied.
"""

import json

import sqlalchemy as sa

from ironic_lite.common import release_mappings
from ironic_lite.db import models

# Ironic's alembic heads whose schema this mapping was checked against.
SUPPORTED_REVISIONS = {
    '9fb44677ef15': 'Ironic 39.0',
}

# (table, ironic-lite object whose version its rows carry), in an order
# that inserts a row after the rows it points at.
TABLES = (
    ('chassis', 'Chassis'),
    ('nodes', 'Node'),
    ('node_traits', 'Trait'),
    ('portgroups', 'Portgroup'),
    ('ports', 'Port'),
    ('allocations', 'Allocation'),
    ('deploy_templates', 'DeployTemplate'),
    # A step carries its template's version (db/deploy_template.py).
    ('deploy_template_steps', 'DeployTemplate'),
    ('volume_connectors', 'VolumeConnector'),
    ('volume_targets', 'VolumeTarget'),
    ('node_history', 'NodeHistory'),
    ('bios_settings', 'BIOSSetting'),
    ('node_inventory', 'NodeInventory'),
    ('inspection_rules', 'InspectionRule'),
    ('firmware_information', 'FirmwareComponent'),
    # Release 6.0: runbooks; steps and traits carry their runbook's
    # version (db/runbook.py).
    ('runbooks', 'Runbook'),
    ('runbook_steps', 'Runbook'),
    ('runbook_traits', 'Runbook'),
)

# Columns a conductor owns: a lock or the conductor that last handled the
# row.  Ironic's conductors are not ironic-lite's, so these are cleared,
# as a conductor taking over a dead one's nodes clears them.
CLEARED = {
    'nodes': ('reservation', 'conductor_affinity'),
    'allocations': ('conductor_affinity',),
}

# Ironic's tables that are not copied, and why (the report says it).
NOT_COPIED = {
    'alembic_version': None,
    'conductors': 'registered again by the ironic-lite conductors',
    'conductor_hardware_interfaces': 'registered again by the ironic-lite '
                                     'conductors',
}


def object_version(name):
    """The version ironic-lite writes for object ``name`` (its newest,
    from the release mapping: ``db`` does not import the objects)."""
    return release_mappings.RELEASE_MAPPING['master']['objects'][name][0]


def reflect(connection):
    """Ironic's tables, as the database has them."""
    metadata = sa.MetaData()
    metadata.reflect(bind=connection)
    return metadata


def revision(connection):
    """Ironic's alembic revision(s), sorted; [] without the table."""
    if not sa.inspect(connection).has_table('alembic_version'):
        return []
    rows = connection.execute(sa.text(
        'SELECT version_num FROM alembic_version')).fetchall()
    return sorted(r[0] for r in rows)


def problems(connection, metadata):
    """Why the source cannot be imported: [] when it can."""
    heads = revision(connection)
    if not heads:
        return ['the source database has no alembic_version table: it is '
                'not an Ironic database made by "ironic-dbsync"']
    unknown = [h for h in heads if h not in SUPPORTED_REVISIONS]
    if unknown or len(heads) != 1:
        return ['the source database is at Ironic schema revision %s; '
                'this importer knows %s only (upgrade Ironic to that '
                'release with its own "ironic-dbsync upgrade" first)'
                % (', '.join(heads), ', '.join(
                    '%s (%s)' % kv for kv in SUPPORTED_REVISIONS.items()))]
    missing = []
    for table, _name in TABLES:
        if table not in metadata.tables:
            missing.append(table)
            continue
        columns = metadata.tables[table].c
        missing.extend('%s.%s' % (table, c.name)
                       for c in models.Base.metadata.tables[table].columns
                       if c.name in _IRONIC_COLUMNS.get(table, ())
                       and c.name not in columns)
    if missing:
        return ['the source database lacks %s, which Ironic at that '
                'revision has' % ', '.join(missing)]
    return []


def shared_columns(table, source_table):
    """The target's columns of ``table`` that Ironic's has too."""
    target = models.Base.metadata.tables[table]
    return [c for c in target.columns if c.name in source_table.c]


def dropped_columns(table, source_table):
    """Ironic's columns of ``table`` that ironic-lite does not have."""
    target = models.Base.metadata.tables[table]
    return [c.name for c in source_table.columns if c.name not in target.c]


def is_set(value):
    """Whether a value of a column only Ironic has carries something:
    not NULL, false or 0 (MySQL's booleans are 0/1 integers, read as
    such), an empty text, or an empty JSON dict or list."""
    if value is None or value is False or value == 0:
        return False
    if isinstance(value, str):
        return value.strip() not in ('', '{}', '[]', 'null')
    return True


def converter(table, columns):
    """A function from a source row (a mapping) to the target's values."""
    version = object_version(dict(TABLES)[table])
    cleared = CLEARED.get(table, ())
    kinds = [(c.name, _kind(c)) for c in columns]

    def convert(row):
        values = {}
        for name, kind in kinds:
            value = row[name]
            if name in cleared:
                value = None
            elif name == 'version':
                value = version
            elif value is not None and kind is not None:
                value = kind(value)
            values[name] = value
        return values
    return convert


def _kind(column):
    """How a source value becomes the target's: JSON text is parsed (the
    target's type writes it again, checking it is a dict or a list),
    MySQL's 0/1 booleans become booleans (PostgreSQL refuses integers)."""
    if isinstance(column.type, models.JsonEncodedType):
        return _json
    if isinstance(column.type, sa.Boolean):
        return bool
    return None


def _json(value):
    if isinstance(value, (dict, list)):
        return value
    return json.loads(value)


# The ironic-lite columns that Ironic's table must have at a supported
# revision (ironic-lite's own, such as reservation_token or the child
# tables' shard, are not in Ironic's schema and are left to their
# defaults and triggers).
_IRONIC_COLUMNS = {
    table: frozenset(
        c.name for c in models.Base.metadata.tables[table].columns
        if c.name not in ('reservation_token', 'shard')
        or (table, c.name) == ('nodes', 'shard'))
    for table, _name in TABLES
}
