"""A small database shaped as OpenStack Ironic 39's, for the importer's
unit tests (``ironic-dbsync import-ironic``).

The DDL is this module's own: every column of ironic-lite's tables that
Ironic has too (what the importer reads), with the types Ironic gives
them on MySQL where they differ from ironic-lite's (JSON as plain text,
booleans as 0/1 integers), a few columns and tables only Ironic has,
and Ironic's ``alembic_version``.  The real schema, made by Ironic's own
``ironic-dbsync``, is what ``tox -e ironic-import`` imports.
"""

import datetime
import json

import sqlalchemy as sa

from ironic_lite.db import ironic_source
from ironic_lite.db import models

# Ironic's alembic head at 39.0.
REVISION = '9fb44677ef15'

# ironic-lite's own columns, not in Ironic's schema.
LITE_ONLY = {'nodes': ('reservation_token',), 'ports': ('shard',),
             'portgroups': ('shard',)}

# Some of the columns only Ironic has (ironic-lite drops them, counted).
IRONIC_ONLY = {
    'node_history': (('extra_ironic_field', sa.Integer),),
}


def _type(column):
    kind = column.type
    if isinstance(kind, models.JsonEncodedType):
        return sa.Text()
    if isinstance(kind, sa.Boolean):
        return sa.Integer()
    if isinstance(kind, sa.DateTime):
        return sa.DateTime()
    if isinstance(kind, sa.Integer):
        return sa.BigInteger() if isinstance(kind, sa.BigInteger) \
            else sa.Integer()
    if isinstance(kind, sa.Text):
        return sa.Text()
    return sa.String(kind.length or 255)


def metadata():
    """Ironic's tables, in this module's DDL."""
    meta = sa.MetaData()
    for table, _name in ironic_source.TABLES:
        lite = models.Base.metadata.tables[table]
        columns = [sa.Column(c.name, _type(c), primary_key=c.primary_key,
                             autoincrement=False)
                   for c in lite.columns
                   if c.name not in LITE_ONLY.get(table, ())]
        columns += [sa.Column(name, kind)
                    for name, kind in IRONIC_ONLY.get(table, ())]
        sa.Table(table, meta, *columns)
    sa.Table('alembic_version', meta,
             sa.Column('version_num', sa.String(32), primary_key=True))
    sa.Table('conductors', meta, sa.Column('id', sa.Integer,
                                           primary_key=True),
             sa.Column('hostname', sa.String(255)))
    sa.Table('node_tags', meta,
             sa.Column('node_id', sa.Integer, primary_key=True),
             sa.Column('tag', sa.String(255), primary_key=True))
    return meta


def create(url, revision=REVISION):
    """Ironic-shaped empty tables at ``url``; the engine."""
    engine = sa.create_engine(url)
    meta = metadata()
    meta.create_all(engine)
    if revision:
        with engine.begin() as conn:
            conn.execute(meta.tables['alembic_version'].insert(),
                         {'version_num': revision})
    return engine


def insert(engine, table, *rows):
    """Rows into an Ironic-shaped table: dicts and lists become JSON text,
    booleans 0/1, as Ironic writes them on MySQL."""
    def ironic(value):
        if isinstance(value, (dict, list)):
            return json.dumps(value)
        if isinstance(value, bool):
            return int(value)
        return value
    meta = sa.MetaData()
    meta.reflect(bind=engine, only=[table])
    with engine.begin() as conn:
        for row in rows:  # one by one: the rows name different columns
            conn.execute(meta.tables[table].insert(),
                         {k: ironic(v) for k, v in row.items()})


N1 = '11111111-1111-1111-1111-111111111111'
N2 = '22222222-2222-2222-2222-222222222222'
N3 = '33333333-3333-3333-3333-333333333333'
WHEN = datetime.datetime(2026, 5, 4, 3, 2, 1)


def _node(id_, uuid, **values):
    row = {'id': id_, 'uuid': uuid, 'driver': 'fake-hardware',
           'provision_state': 'available', 'power_state': 'power off',
           'maintenance': False, 'console_enabled': False,
           'protected': False, 'retired': False, 'conductor_group': '',
           'properties': {}, 'instance_info': {}, 'driver_info': {},
           'driver_internal_info': {}, 'extra': {}, 'created_at': WHEN,
           'version': '1.44', 'disable_power_off': False}
    row.update(values)
    return row


def fleet(engine):
    """Three nodes and one of everything that hangs from them."""
    insert(engine, 'chassis', {
        'id': 4, 'uuid': 'cccccccc-0000-0000-0000-000000000004',
        'description': 'rack 4', 'extra': {'row': 'b'}, 'version': '1.4'})
    insert(
        engine, 'nodes',
        _node(7, N1, name='n-1', chassis_id=4, shard='s1', owner='p1',
              lessee='p2', conductor_group='cg1', provision_state='active',
              instance_uuid='99999999-9999-9999-9999-999999999999',
              instance_info={'image_source': 'http://i/img', 'n': 2 ** 70},
              properties={'cpus': 8, 'memory_mb': 4096},
              driver_info={'ipmi_address': '10.0.0.1'},
              reservation='ironic-conductor-1', conductor_affinity=3,
              deploy_interface='fake', resource_class='gold',
              firmware_interface='no-firmware', parent_node=N2,
              disable_power_off=True, health='Warning',
              service_step={'step': 'update'}, instance_name='vm-1',
              allocation_id=5),
        _node(8, N2, provision_state='deploy complete', driver='ipmi'),
        _node(9, N3, provision_state='deploying', maintenance=True,
              maintenance_reason='cable'))
    insert(engine, 'node_traits',
           {'node_id': 7, 'trait': 'CUSTOM_GOLD', 'version': '1.0'},
           {'node_id': 7, 'trait': 'HW_CPU_X86_VMX', 'version': '1.0'})
    insert(engine, 'portgroups', {
        'id': 2, 'uuid': 'a0000000-0000-0000-0000-000000000002',
        'name': 'bond0', 'node_id': 7, 'address': '52:54:00:00:00:10',
        'mode': 'active-backup', 'standalone_ports_supported': True,
        'properties': {}, 'extra': {}, 'internal_info': {},
        'version': '1.6'})
    insert(
        engine, 'ports',
        {'id': 3, 'uuid': 'b0000000-0000-0000-0000-000000000003',
         'address': '52:54:00:00:00:01', 'node_id': 7, 'portgroup_id': 2,
         'pxe_enabled': True, 'physical_network': 'physnet1',
         'local_link_connection': {'switch_id': '0a:1b:2c:3d:4e:5f',
                                   'port_id': 'Eth1/1'},
         'extra': {}, 'internal_info': {}, 'is_smartnic': False,
         'name': 'eth0', 'available_for_dynamic_portgroup': True,
         'version': '1.12'},
        {'id': 6, 'uuid': 'b0000000-0000-0000-0000-000000000006',
         'address': '52:54:00:00:00:02', 'node_id': 8, 'pxe_enabled': False,
         'extra': {}, 'internal_info': {}, 'local_link_connection': {},
         'available_for_dynamic_portgroup': False, 'version': '1.12'})
    insert(engine, 'allocations', {
        'id': 5, 'uuid': 'd0000000-0000-0000-0000-000000000005',
        'name': 'alloc-1', 'node_id': 7, 'state': 'active',
        'resource_class': 'gold', 'traits': ['CUSTOM_GOLD'],
        'candidate_nodes': [N1], 'extra': {}, 'conductor_affinity': 3,
        'version': '1.3'}, {
        'id': 6, 'uuid': 'd0000000-0000-0000-0000-000000000006',
        'state': 'allocating', 'resource_class': 'gold', 'traits': [],
        'candidate_nodes': [], 'extra': {}, 'conductor_affinity': 3,
        'version': '1.3'})
    insert(engine, 'deploy_templates', {
        'id': 1, 'uuid': 'e0000000-0000-0000-0000-000000000001',
        'name': 'CUSTOM_RAID', 'extra': {}, 'version': '1.2'})
    insert(engine, 'deploy_template_steps', {
        'id': 1, 'deploy_template_id': 1, 'interface': 'raid',
        'step': 'apply_configuration', 'args': {'raid_config': {}},
        'priority': 10, 'version': '1.2'})
    insert(engine, 'runbooks', {
        'id': 1, 'uuid': 'e1000000-0000-0000-0000-000000000001',
        'name': 'wipe.disks', 'description': 'erase', 'public': 1,
        'owner': None, 'disable_ramdisk': 0, 'extra': {}, 'version': '1.2'})
    insert(engine, 'runbook_steps', {
        'id': 1, 'runbook_id': 1, 'interface': 'deploy',
        'step': 'erase_devices', 'args': {}, 'order': 1, 'version': '1.2'})
    insert(engine, 'runbook_traits', {
        'runbook_id': 1, 'trait': 'CUSTOM_WIPE', 'version': '1.0'})
    insert(engine, 'volume_connectors', {
        'id': 1, 'uuid': 'f0000000-0000-0000-0000-000000000001',
        'node_id': 7, 'type': 'iqn', 'connector_id': 'iqn.2026-01.x:1',
        'extra': {}, 'version': '1.0'})
    insert(engine, 'volume_targets', {
        'id': 1, 'uuid': 'f1000000-0000-0000-0000-000000000001',
        'node_id': 7, 'volume_type': 'iscsi', 'properties': {},
        'boot_index': 0, 'volume_id': 'vol-1', 'extra': {},
        'version': '1.0'})
    insert(engine, 'node_history', {
        'id': 1, 'uuid': 'f2000000-0000-0000-0000-000000000001',
        'node_id': 7, 'conductor': 'c1', 'event_type': 'deploying',
        'severity': 'ERROR', 'event': 'boom', 'user': 'u1',
        'duration_seconds': 12, 'project': 'p1', 'state': 'active',
        'extra_ironic_field': 3, 'created_at': WHEN, 'version': '1.0'})
    insert(engine, 'bios_settings', {
        'node_id': 7, 'name': 'ProcVirtualization', 'value': 'Enabled',
        'allowable_values': ['Enabled', 'Disabled'], 'read_only': False,
        'version': '1.2'})
    insert(engine, 'node_inventory', {
        'id': 1, 'node_id': 7, 'inventory_data': {'cpu': {'count': 8}},
        'plugin_data': {}, 'version': '1.0'})
    insert(engine, 'inspection_rules', {
        'id': 1, 'uuid': 'f3000000-0000-0000-0000-000000000001',
        'priority': 5, 'description': 'arch', 'sensitive': False,
        'phase': 'main', 'scope': None,
        'conditions': [{'op': 'is-true', 'args': {'value': True}}],
        'actions': [{'op': 'add-trait', 'args': {'name': 'CUSTOM_A'}}],
        'version': '1.1'})
    insert(engine, 'firmware_information', {
        'id': 1, 'node_id': 7, 'component': 'bios', 'initial_version': '1.0',
        'current_version': '1.1', 'last_version_flashed': '1.1',
        'vendor': 'Contoso', 'created_at': WHEN, 'version': '1.2'})
    insert(engine, 'conductors', {'id': 3, 'hostname': 'c1'})
    insert(engine, 'node_tags', {'node_id': 7, 'tag': 'blue'})
