"""``db/ironic_import.py``: an Ironic-shaped database copied into
ironic-lite's, on every target backend (the source is SQLite, in the DDL
of tests/ironic_db.py).  The rows are read back with ironic-lite's own
objects and ``ironic-dbsync upgrade``'s version check: what the services
will read.  ``tox -e ironic-import`` does the same from a database that
real Ironic 39 made and filled through its API.
"""

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

N1, N3 = ironic_db.N1, ironic_db.N3
WHEN = ironic_db.WHEN
fleet = ironic_db.fleet


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
    rule = objects.InspectionRule.get_by_uuid(
        ctx, 'f3000000-0000-0000-0000-000000000001')
    assert (rule.priority, rule.sensitive, rule.actions) == (
        5, False, [{'op': 'add-trait', 'args': {'name': 'CUSTOM_A'}}])
    [event] = objects.NodeHistory.list_by_node_id(ctx, 7)
    assert (event.event, event.severity, event.user) == ('boom', 'ERROR',
                                                         'u1')
    assert (event.project, event.state, event.duration_seconds) == (
        'p1', 'active', 12)
    runbook = objects.Runbook.get_by_name(ctx, 'wipe.disks')
    assert (runbook.public, runbook.disable_ramdisk, runbook.traits,
            runbook.steps) == (True, False, ['CUSTOM_WIPE'], [
                {'interface': 'deploy', 'step': 'erase_devices',
                 'args': {}, 'order': 1}])
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
    assert versions == {
        'nodes': {objects.Node.VERSION}, 'ports': {objects.Port.VERSION},
        'allocations': {objects.Allocation.VERSION},
        'bios_settings': {objects.BIOSSetting.VERSION}}
    assert port_shard == 's1'
    # A column both have (parent_node, from 1.83; the columns of release
    # 6.0) is carried as it was.
    ctx = ir_context.get_admin_context()
    node = objects.Node.get_by_id(ctx, 7)
    assert (node.parent_node, node.firmware_interface,
            node.disable_power_off, node.health, node.service_step,
            node.instance_name) == (
        ironic_db.N2, 'no-firmware', True, 'Warning', {'step': 'update'},
        'vm-1')
    # So are a port's name and dynamic port group flag (1.88, 1.111).
    port, other = (objects.Port.get(ctx, i) for i in (3, 6))
    assert (port.name, port.available_for_dynamic_portgroup) == (
        'eth0', True)
    assert (other.name, other.available_for_dynamic_portgroup) == (
        None, False)


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
    # Columns both have from 6.0.
    for column in (('nodes', 'firmware_interface'),
                   ('nodes', 'disable_power_off'), ('nodes', 'health'),
                   ('nodes', 'service_step'), ('nodes', 'instance_name'),
                   ('ports', 'name'),
                   ('ports', 'available_for_dynamic_portgroup'),
                   ('node_history', 'duration_seconds')):
        assert column not in report.dropped
    assert report.dropped[('node_history', 'extra_ironic_field')] == 1
    assert report.not_copied == {'alembic_version': 1, 'conductors': 1,
                                 'node_tags': 1}
    assert report.cleared == {'nodes.reservation': 1,
                              'nodes.conductor_affinity': 1,
                              'allocations.conductor_affinity': 2}
    assert report.allocating == 1
    assert report.unknown_states == {'deploy complete': 1}
    assert report.unstable_states == {'deploying': 1}
    assert report.not_enabled == {('driver', 'ipmi'): 1}
    assert report.source_versions['nodes'] == {'1.44': 3}
    text = '\n'.join(report.lines())
    assert 'node_history.extra_ironic_field: 1' in text
    assert 'node_tags: 1' in text
    assert 'nodes: 1.44 x3' in text
    assert 'conductors: 1 (registered again' in text
    assert 'deploy complete: 1' in text
    assert 'driver=ipmi: 1' in text
    assert '  allocating: 1' in text


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


def test_counts_that_do_not_match_write_nothing(sqlite_db, source,
                                                monkeypatch):
    url, engine = source
    fleet(engine)
    # As if a trigger or a constraint of the target had dropped a row.
    real = ironic_import._count
    monkeypatch.setattr(ironic_import, '_count', lambda conn, table: real(
        conn, table) + (table.name == 'ports' and conn.engine.url.database
                        != engine.url.database))
    with pytest.raises(ironic_import.Failed,
                       match='ports: 2 in the source, 3 imported'):
        ironic_import.import_database(url, ENABLED, io.StringIO())
    with db_api.get_engine().connect() as conn:
        assert conn.execute(sa.text('SELECT count(*) FROM nodes')).scalar() \
            == 0


def test_a_failure_half_way_writes_nothing(any_db, source):
    url, engine = source
    fleet(engine)
    with engine.begin() as conn:
        conn.execute(sa.text(
            "UPDATE ports SET extra = 'not json' WHERE id = 6"))
    with pytest.raises(ironic_import.Failed,
                       match='JSONDecodeError: Expecting value'):
        ironic_import.import_database(url, ENABLED, io.StringIO())
    with db_api.get_engine().connect() as conn:
        counts = [conn.execute(sa.text('SELECT count(*) FROM %s' % t))
                  .scalar() for t in ('chassis', 'nodes', 'portgroups',
                                      'ports')]
    assert counts == [0, 0, 0, 0]
