"""Saving while pinned writes the pinned version and omits newer fields.

Cases come from every released entry of the release mapping, so they grow
with each release; ``test_simulated_release_cut`` runs the same check now
against a release entry equal to master (what cutting 1.0 will add).
"""

import pytest
import sqlalchemy as sa

from ironic_lite.common import context as ir_context
from ironic_lite.db import api as db_api
from ironic_lite.db import migration as db_migration
from ironic_lite import objects
from tests.unit.objects import utils

objects.register_all()
OBJECT_NAMES = sorted(db_migration.object_tables())


def _node(ctx):
    node = objects.Node(ctx, driver='fake-hardware', name='pinned-node')
    node.create()
    return node


def _make(name, ctx):
    """A saved object of each kind, written unpinned."""
    if name == 'Conductor':
        return objects.Conductor.register(ctx, 'pinned-host',
                                          ['fake-hardware'], '')
    if name == 'Service':
        return objects.Service.report(ctx, 'api', 'pinned-host:6385',
                                      'pinned-host')
    if name == 'Chassis':
        obj = objects.Chassis(ctx, description='pinned')
    elif name == 'Node':
        return _node(ctx)
    elif name == 'Port':
        obj = objects.Port(ctx, node_id=_node(ctx).id,
                           address='52:54:00:aa:bb:cc')
    elif name == 'VolumeConnector':
        obj = objects.VolumeConnector(ctx, node_id=_node(ctx).id,
                                      type='iqn', connector_id='iqn.p')
    elif name == 'VolumeTarget':
        obj = objects.VolumeTarget(ctx, node_id=_node(ctx).id,
                                   volume_type='iscsi', boot_index=0,
                                   volume_id='v-p')
    else:
        obj = objects.Portgroup(ctx, node_id=_node(ctx).id, name='pinned')
    obj.create()
    return obj


def _save_pinned(name, obj, ctx):
    """Change a field every version has, plus every newer one; save."""
    if name == 'Conductor':
        return objects.Conductor.register(ctx, obj.hostname, ['other'], '',
                                          update_existing=True)
    if name == 'Service':
        return objects.Service.report(ctx, obj.service_type, obj.name,
                                      'other-host')
    obj.extra = {'changed': 'while pinned'}
    obj.save()
    return obj


def _raw_row(name, obj):
    model = db_migration.object_tables()[name]
    key = {'Conductor': 'hostname', 'Service': 'name'}.get(name, 'uuid')
    with db_api.get_engine().connect() as conn:
        return conn.execute(sa.select(model.__table__).where(
            model.__table__.c[key] == getattr(obj, key))).mappings().one()


def check_pinned_save(release, name):
    ctx = ir_context.get_admin_context()
    cls = getattr(objects, name)
    pinned_version = utils.release_mappings.RELEASE_MAPPING[
        release]['objects'][name][0]
    obj = _make(name, ctx)
    before = _raw_row(name, obj)
    newer = cls.fields_at(cls.VERSION) - cls.fields_at(pinned_version)
    for field in newer:
        setattr(obj, field, utils.sample_value(cls.fields[field]))
    anyway = newer & set(cls.WRITTEN_AT_ANY_VERSION)
    newer -= anyway
    with utils.pinned(release):
        assert obj.do_version_changes_for_db()['version'] == pinned_version
        assert not newer & set(obj.do_version_changes_for_db())
        saved = _save_pinned(name, obj, ctx)
    after = _raw_row(name, obj)
    assert after['version'] == pinned_version
    for field in anyway:
        # A column the older release does not map: written all the same
        # (tests/unit/common/test_release_pin.py: Service.auto_pin).
        assert after[field] == getattr(saved, field), field
    for field in newer:
        if field in after:
            assert after[field] == before[field], field
        else:
            # Not a column (Node.traits: rows of their own): saving the
            # object must not have written them.
            assert name == 'Node' and field == 'traits', field
            assert objects.TraitList.get_by_node_id(
                ctx, obj.id).get_trait_names() == []


CASES = utils.released_object_cases(OBJECT_NAMES) or [
    pytest.param(None, None, marks=pytest.mark.skip(
        reason='no released entry in the release mapping yet; these cases '
               'appear when release 1.0 is cut'))]


@pytest.mark.parametrize('release,name', CASES)
def test_pinned_save_writes_pinned_version(sqlite_db, release, name):
    check_pinned_save(release, name)


@pytest.mark.parametrize('name', OBJECT_NAMES)
def test_simulated_release_cut(sqlite_db, name):
    with utils.fake_release('0.9'):
        check_pinned_save('0.9', name)
