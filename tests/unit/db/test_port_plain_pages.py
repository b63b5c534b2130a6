"""A port page read as Core rows, and a page's parents as (id, uuid)
pairs: the same objects as before, on every backend, without ORM
instances (issue 24: the networking-baremetal agent's port list)."""

import pytest

from ironic_lite.common import context as ir_context
from ironic_lite.db import api as db_api
from ironic_lite.db import models
from ironic_lite.db import node as db_node
from ironic_lite.db import port as db_port
from ironic_lite.db import portgroup as db_portgroup
from ironic_lite import objects

objects.register_all()


@pytest.fixture
def context():
    return ir_context.get_admin_context()


def _fleet():
    node = db_node.create_node({'driver': 'fake-hardware', 'shard': 's1'})
    pg = db_portgroup.create_portgroup({'node_id': node.id,
                                        'address': '52:54:00:00:01:00'})
    ports = [db_port.create_port({
        'address': '52:54:00:00:00:%02x' % i, 'node_id': node.id,
        'portgroup_id': pg.id if i % 2 else None,
        'extra': {'i': i}, 'local_link_connection': {'port_id': 'p%d' % i},
        'physical_network': 'physnet1', 'pxe_enabled': bool(i % 2)})
        for i in range(4)]
    return node, pg, ports


def _fields(obj):
    return {name: getattr(obj, name) for name in obj.fields
            if obj.obj_attr_is_set(name)}


def test_a_port_page_is_core_rows_making_the_same_objects(any_db, context):
    node, pg, ports = _fleet()
    rows = db_port.get_port_list(limit=3)
    assert [r.id for r in rows] == [p.id for p in ports[:3]]
    assert not any(isinstance(r, models.Port) for r in rows)
    page = objects.Port.list(context, limit=3)
    for port, orm_row in zip(page, ports):
        same = objects.Port._from_db_object(context, objects.Port(),
                                            db_port.get_port_by_id(
                                                orm_row.id))
        assert _fields(port) == _fields(same)
        assert port.obj_what_changed() == set()
    assert page[1].extra == {'i': 1}
    assert page[1].portgroup_id == pg.id
    # The marker and the sort still page.
    rest = objects.Port.list(context, marker=page[-1].uuid)
    assert [p.id for p in rest] == [ports[3].id]
    desc = objects.Port.list(context, sort_key='address', sort_dir='desc',
                             limit=2)
    assert [p.address for p in desc] == ['52:54:00:00:00:03',
                                         '52:54:00:00:00:02']


def test_a_port_read_from_a_core_row_saves(any_db, context):
    _fleet()
    port = objects.Port.list(context, limit=1)[0]
    port.extra = {'saved': True}
    port.save()
    assert db_port.get_port_by_id(port.id).extra == {'saved': True}


def test_uuids_by_id(any_db, context):
    node, pg, _ = _fleet()
    assert objects.Node.uuids_by_id(context, {node.id, 99999}) == {
        node.id: node.uuid}
    assert objects.Portgroup.uuids_by_id(context, [pg.id]) == {
        pg.id: pg.uuid}
    assert db_api.uuids_by_id(models.Node, []) == {}


def test_a_port_group_page_is_core_rows_that_save(any_db, context):
    """Port groups, listed as ports are: Core rows, the same objects as a
    read by id, and one read from a page saves (the conductor's VIF
    attachment writes a listed group's internal_info)."""
    node, pg, _ = _fleet()
    rows = db_portgroup.get_portgroup_list()
    assert [r.id for r in rows] == [pg.id]
    assert not any(isinstance(r, models.Portgroup) for r in rows)
    listed = objects.Portgroup.list_by_node_id(context, node.id)[0]
    read = objects.Portgroup.get(context, pg.id)
    assert _fields(listed) == _fields(read)
    assert listed.obj_what_changed() == set()
    listed.internal_info = {'tenant_vif_port_id': 'vif-1'}
    listed.save()
    assert db_portgroup.get_portgroup_by_id(pg.id).internal_info == {
        'tenant_vif_port_id': 'vif-1'}
