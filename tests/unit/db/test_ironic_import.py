"""``db/ironic_import.py``: an Ironic-shaped database copied into
ironic-lite's, on every target backend (the source is SQLite, in the DDL
of tests/ironic_db.py).  The rows are read back with ironic-lite's own
objects and ``ironic-dbsync upgrade``'s version check: what the services
will read.  ``tox -e ironic-import`` does the same from a database that
real Ironic 39 made and filled through its API.
"""

import datetime
import io
import re

import pytest
import sqlalchemy as sa

from ironic_lite.common import context as ir_context
from ironic_lite.db import api as db_api
from ironic_lite.db import ironic_import
from ironic_lite.db import models
from ironic_lite import objects
from ironic_lite.objects import migrations as obj_migrations
from tests import ironic_db

objects.register_all()

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
    ironic_db.insert(engine, 'chassis', {
        'id': 4, 'uuid': 'cccccccc-0000-0000-0000-000000000004',
        'description': 'rack 4', 'extra': {'row': 'b'}, 'version': '1.4'})
    ironic_db.insert(
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
              disable_power_off=True, allocation_id=5),
        _node(8, N2, provision_state='service wait', driver='ipmi'),
        _node(9, N3, provision_state='deploying', maintenance=True,
              maintenance_reason='cable'))
    ironic_db.insert(engine, 'node_traits',
                     {'node_id': 7, 'trait': 'CUSTOM_GOLD', 'version': '1.0'},
                     {'node_id': 7, 'trait': 'HW_CPU_X86_VMX',
                      'version': '1.0'})
    ironic_db.insert(engine, 'portgroups', {
        'id': 2, 'uuid': 'a0000000-0000-0000-0000-000000000002',
        'name': 'bond0', 'node_id': 7, 'address': '52:54:00:00:00:10',
        'mode': 'active-backup', 'standalone_ports_supported': True,
        'properties': {}, 'extra': {}, 'internal_info': {},
        'version': '1.6'})
    ironic_db.insert(
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
    ironic_db.insert(engine, 'allocations', {
        'id': 5, 'uuid': 'd0000000-0000-0000-0000-000000000005',
        'name': 'alloc-1', 'node_id': 7, 'state': 'active',
        'resource_class': 'gold', 'traits': ['CUSTOM_GOLD'],
        'candidate_nodes': [N1], 'extra': {}, 'conductor_affinity': 3,
        'version': '1.3'})
    ironic_db.insert(engine, 'deploy_templates', {
        'id': 1, 'uuid': 'e0000000-0000-0000-0000-000000000001',
        'name': 'CUSTOM_RAID', 'extra': {}, 'version': '1.2'})
    ironic_db.insert(engine, 'deploy_template_steps', {
        'id': 1, 'deploy_template_id': 1, 'interface': 'raid',
        'step': 'apply_configuration', 'args': {'raid_config': {}},
        'priority': 10, 'version': '1.2'})
    ironic_db.insert(engine, 'volume_connectors', {
        'id': 1, 'uuid': 'f0000000-0000-0000-0000-000000000001',
        'node_id': 7, 'type': 'iqn', 'connector_id': 'iqn.2026-01.x:1',
        'extra': {}, 'version': '1.0'})
    ironic_db.insert(engine, 'volume_targets', {
        'id': 1, 'uuid': 'f1000000-0000-0000-0000-000000000001',
        'node_id': 7, 'volume_type': 'iscsi', 'properties': {},
        'boot_index': 0, 'volume_id': 'vol-1', 'extra': {},
        'version': '1.0'})
    ironic_db.insert(engine, 'node_history', {
        'id': 1, 'uuid': 'f2000000-0000-0000-0000-000000000001',
        'node_id': 7, 'conductor': 'c1', 'event_type': 'deploying',
        'severity': 'ERROR', 'event': 'boom', 'user': 'u1',
        'duration_seconds': 12, 'created_at': WHEN, 'version': '1.0'})
    ironic_db.insert(engine, 'bios_settings', {
        'node_id': 7, 'name': 'ProcVirtualization', 'value': 'Enabled',
        'allowable_values': ['Enabled', 'Disabled'], 'read_only': False,
        'version': '1.2'})
    ironic_db.insert(engine, 'node_inventory', {
        'id': 1, 'node_id': 7, 'inventory_data': {'cpu': {'count': 8}},
        'plugin_data': {}, 'version': '1.0'})
    ironic_db.insert(engine, 'conductors', {'id': 3, 'hostname': 'c1'})
    ironic_db.insert(engine, 'node_tags', {'node_id': 7, 'tag': 'blue'})


@pytest.fixture
def source(tmp_path):
    url = 'sqlite:///%s' % (tmp_path / 'ironic.sqlite')
    engine = ironic_db.create(url)
    yield url, engine
    engine.dispose()


ENABLED = {'driver': {'fake-hardware'}, 'deploy_interface': {'fake'}}


def test_every_row_is_read_by_ironic_lite_as_ironic_had_it(any_db, source):
    url, engine = source
    fleet(engine)
    report = ironic_import.import_database(url, ENABLED, io.StringIO())
    assert obj_migrations.check_versions() == []
    ctx = ir_context.get_admin_context()
    node = objects.Node.get_by_uuid(ctx, N1)
    assert (node.id, node.name, node.chassis_id, node.shard, node.owner,
            node.lessee, node.conductor_group, node.provision_state,
            node.resource_class, node.allocation_id) == (
        7, 'n-1', 4, 's1', 'p1', 'p2', 'cg1', 'active', 'gold', 5)
    assert node.instance_info == {'image_source': 'http://i/img',
                                  'n': 2 ** 70}
    assert node.properties == {'cpus': 8, 'memory_mb': 4096}
    assert node.created_at.replace(tzinfo=None) == WHEN
    # Conductor-owned: cleared, as on a takeover.
    assert (node.reservation, node.conductor_affinity) == (None, None)
    assert objects.Node.get_by_uuid(ctx, N3).maintenance is True
    assert sorted(node.traits.get_trait_names()) == ['CUSTOM_GOLD',
                                                     'HW_CPU_X86_VMX']
    port = objects.Port.get_by_uuid(ctx,
                                    'b0000000-0000-0000-0000-000000000003')
    assert (port.node_id, port.portgroup_id, port.pxe_enabled,
            port.physical_network, port.local_link_connection['port_id']) \
        == (7, 2, True, 'physnet1', 'Eth1/1')
    alloc = objects.Allocation.get_by_uuid(
        ctx, 'd0000000-0000-0000-0000-000000000005')
    assert (alloc.node_id, alloc.traits, alloc.conductor_affinity) == (
        7, ['CUSTOM_GOLD'], None)
    template = objects.DeployTemplate.get_by_name(ctx, 'CUSTOM_RAID')
    assert [(s['interface'], s['step'], s['priority'])
            for s in template.steps] == [('raid', 'apply_configuration', 10)]
    [event] = objects.NodeHistory.list_by_node_id(ctx, 7)
    assert (event.event, event.severity, event.user) == ('boom', 'ERROR',
                                                         'u1')
    assert report.tables['nodes'] == [3, 3]
    assert report.tables['ports'] == [2, 2]
    assert all(source_rows == written
               for source_rows, written in report.tables.values())


def test_versions_are_ironic_lite_s_and_the_shard_reaches_the_ports(
        any_db, source):
    url, engine = source
    fleet(engine)
    ironic_import.import_database(url, ENABLED, io.StringIO())
    with db_api.get_engine().connect() as conn:
        versions = {t: set(r[0] for r in conn.execute(
            sa.select(models.Base.metadata.tables[t].c.version)))
            for t in ('nodes', 'ports', 'allocations', 'bios_settings')}
        port_shard = conn.execute(sa.text(
            'SELECT shard FROM ports WHERE id = 3')).scalar()
    assert versions == {'nodes': {'1.2'}, 'ports': {'1.0'},
                        'allocations': {'1.0'}, 'bios_settings': {'1.0'}}
    assert port_shard == 's1'


def test_new_rows_get_ids_past_the_imported_ones(any_db, source):
    url, engine = source
    fleet(engine)
    ironic_import.import_database(url, ENABLED, io.StringIO())
    ctx = ir_context.get_admin_context()
    node = objects.Node(ctx, uuid='44444444-4444-4444-4444-444444444444',
                        driver='fake-hardware')
    node.create()
    assert node.id == 10


def test_the_report_says_what_was_left_behind(any_db, source):
    url, engine = source
    fleet(engine)
    report = ironic_import.import_database(url, ENABLED, io.StringIO())
    assert report.revision == ironic_db.REVISION
    assert report.dropped[('nodes', 'firmware_interface')] == 1
    assert report.dropped[('nodes', 'disable_power_off')] == 1
    assert report.dropped[('ports', 'name')] == 1
    assert report.dropped[('ports', 'available_for_dynamic_portgroup')] == 1
    assert report.dropped[('node_history', 'duration_seconds')] == 1
    assert report.not_copied == {'alembic_version': 1, 'conductors': 1,
                                 'node_tags': 1}
    assert report.cleared == {'nodes.reservation': 1,
                              'nodes.conductor_affinity': 1,
                              'allocations.conductor_affinity': 1}
    assert report.unknown_states == {'service wait': 1}
    assert report.unstable_states == {'deploying': 1}
    assert report.not_enabled == {('driver', 'ipmi'): 1}
    assert report.source_versions['nodes'] == {'1.44': 3}
    text = '\n'.join(report.lines())
    assert 'nodes.firmware_interface: 1' in text
    assert 'node_tags: 1' in text
    assert 'conductors: 1 (registered again' in text
    assert 'service wait: 1' in text
    assert 'driver=ipmi: 1' in text


def test_a_target_with_rows_is_refused_and_left_alone(any_db, source):
    url, engine = source
    fleet(engine)
    ironic_import.import_database(url, ENABLED, io.StringIO())
    with pytest.raises(ironic_import.Refused, match='not empty'):
        ironic_import.import_database(url, ENABLED, io.StringIO())
    ctx = ir_context.get_admin_context()
    assert len(objects.Node.list(ctx)) == 3


def test_a_target_not_upgraded_is_refused(sqlite_url, use_db, source):
    use_db(sqlite_url, migrate=False)
    with pytest.raises(ironic_import.Refused,
                       match='run "ironic-dbsync upgrade" first'):
        ironic_import.import_database(source[0], ENABLED, io.StringIO())


@pytest.mark.parametrize('revision,message', [
    ('0123456789ab', 'revision 0123456789ab; this importer knows '
                     '9fb44677ef15 (Ironic 39.0) only'),
    (None, 'no alembic_version table'),
])
def test_an_unknown_source_schema_is_refused(sqlite_db, tmp_path, revision,
                                             message):
    url = 'sqlite:///%s' % (tmp_path / 'other.sqlite')
    engine = ironic_db.create(url, revision=revision)
    if revision is None:
        with engine.begin() as conn:
            conn.execute(sa.text('DROP TABLE alembic_version'))
    with pytest.raises(ironic_import.Refused, match=re.escape(message)):
        ironic_import.import_database(url, ENABLED, io.StringIO())
    engine.dispose()


def test_a_source_without_a_known_column_is_refused(sqlite_db, tmp_path):
    url = 'sqlite:///%s' % (tmp_path / 'other.sqlite')
    engine = ironic_db.create(url)
    with engine.begin() as conn:
        conn.execute(sa.text('ALTER TABLE nodes DROP COLUMN lessee'))
    with pytest.raises(ironic_import.Refused, match='lacks nodes.lessee'):
        ironic_import.import_database(url, ENABLED, io.StringIO())
    engine.dispose()


def test_a_failure_half_way_writes_nothing(any_db, source):
    url, engine = source
    fleet(engine)
    with engine.begin() as conn:
        conn.execute(sa.text(
            "UPDATE ports SET extra = 'not json' WHERE id = 6"))
    with pytest.raises(ValueError):
        ironic_import.import_database(url, ENABLED, io.StringIO())
    with db_api.get_engine().connect() as conn:
        counts = [conn.execute(sa.text('SELECT count(*) FROM %s' % t))
                  .scalar() for t in ('chassis', 'nodes', 'portgroups',
                                      'ports')]
    assert counts == [0, 0, 0, 0]
