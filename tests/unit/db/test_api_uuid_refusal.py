"""A row's UUID is never overwritten: every resource's update refuses it
(db/api.py update_row), before anything is read or written."""

import pytest

from ironic_lite.common import exception
from ironic_lite.db import chassis as db_chassis
from ironic_lite.db import node as db_node
from ironic_lite.db import port as db_port
from ironic_lite.db import portgroup as db_portgroup


def test_every_update_refuses_a_new_uuid(sqlite_db):
    node = db_node.create_node({'driver': 'fake-hardware'})
    chassis = db_chassis.create_chassis({})
    port = db_port.create_port({'node_id': node.id,
                                'address': '52:54:00:00:00:01'})
    group = db_portgroup.create_portgroup({'node_id': node.id})
    new = '11111111-2222-3333-4444-555555555555'
    for update, row, kind in (
            (db_node.update_node, node, 'node'),
            (db_chassis.update_chassis, chassis, 'chassis'),
            (db_port.update_port, port, 'port'),
            (db_portgroup.update_portgroup, group, 'portgroup')):
        with pytest.raises(exception.InvalidParameterValue) as refused:
            update(row.id, {'uuid': new, 'extra': {'x': 1}})
        assert str(refused.value) == (
            'Cannot overwrite UUID for an existing %s.' % kind)
    assert db_node.get_node_and_traits('id', node.id)[0].uuid == node.uuid
    assert db_node.get_node_and_traits('id', node.id)[0].extra in (None, {})
