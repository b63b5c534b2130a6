"""Rows in a database migrated by alembic to head are readable by the
objects, on every backend -- both rows the objects wrote and minimal rows
inserted through the models' table (with only the model's own defaults,
as code of another release would write them)."""

from ironic_lite.common import context as ir_context
from ironic_lite.db import api as db_api
from ironic_lite.db import models
from ironic_lite import objects

objects.register_all()
NODE_UUID = '1be26c0b-03f2-4d2e-ae87-c02d7f33c123'


def test_objects_round_trip_on_head(any_db):
    ctx = ir_context.get_admin_context()
    chassis = objects.Chassis(ctx, description='rack 1', extra={'a': 1})
    chassis.create()
    node = objects.Node(ctx, driver='fake-hardware', name='n-1',
                        chassis_id=chassis.id, properties={'cpus': 4})
    node.create()
    port = objects.Port(ctx, node_id=node.id, address='52:54:00:00:00:01')
    port.create()
    group = objects.Portgroup(ctx, node_id=node.id, name='bond0')
    group.create()
    objects.Conductor.register(ctx, 'c-1', ['fake-hardware'], '')

    assert objects.Node.get(ctx, 'n-1').properties == {'cpus': 4}
    assert objects.Chassis.get(ctx, chassis.uuid).extra == {'a': 1}
    assert objects.Port.get(ctx, port.uuid).node_id == node.id
    assert objects.Portgroup.get(ctx, 'bond0').node_id == node.id
    assert objects.Conductor.get_by_hostname(ctx, 'c-1').drivers == [
        'fake-hardware']


def test_minimal_row_is_readable(any_db):
    with db_api.get_engine().begin() as conn:
        conn.execute(models.Node.__table__.insert().values(
            uuid=NODE_UUID, driver='fake-hardware',
            version=objects.Node.VERSION))
    node = objects.Node.get(ir_context.get_admin_context(), NODE_UUID)
    assert node.driver == 'fake-hardware'
    assert node.VERSION == objects.Node.VERSION
    assert not node.obj_what_changed()
