"""The conductor's port writes keep the ports of a port group on one
physical network (Ironic's validate_port_physnet), in the write's
transaction."""

import threading

import oslo_messaging as messaging
from oslo_utils import uuidutils
import pytest
import sqlalchemy as sa

from ironic_lite.common import exception
from ironic_lite.db import api as db_api
from ironic_lite.db import prepared
from ironic_lite import objects


@pytest.fixture
def group(context, make_node):
    node = make_node()
    pg = objects.Portgroup(context, uuid=uuidutils.generate_uuid(),
                           node_id=node.id, address=None, extra={},
                           internal_info={}, properties={},
                           standalone_ports_supported=True, mode=None)
    pg.create(context)
    return node, pg


def _port(context, node, mac, physnet, pg=None):
    return objects.Port(context, uuid=uuidutils.generate_uuid(),
                        node_id=node.id, address=mac, pxe_enabled=True,
                        portgroup_id=pg.id if pg else None,
                        physical_network=physnet)


def test_create_in_a_group_of_another_network_is_409(context, rpc_api,
                                                     group):
    node, pg = group
    rpc_api.create_port(context, _port(context, node, '52:54:00:00:00:01',
                                       'a', pg), node)
    with pytest.raises(exception.Conflict) as err:
        rpc_api.create_port(context, _port(
            context, node, '52:54:00:00:00:02', 'b', pg), node)
    assert err.value.code == 409
    assert 'which has ports in physical network a.' in str(err.value)
    assert len(objects.Port.list(context)) == 1


def test_a_group_already_inconsistent_is_409(context, rpc_api, group):
    # Rows written before the rule: a 409 naming them, never a 500.
    node, pg = group
    _port(context, node, '52:54:00:00:00:01', 'a', pg).create(context)
    _port(context, node, '52:54:00:00:00:02', 'b', pg).create(context)
    with pytest.raises(exception.Conflict) as err:
        rpc_api.create_port(context, _port(
            context, node, '52:54:00:00:00:03', 'a', pg), node)
    assert str(err.value) == (
        'Port group %s has member ports with inconsistent physical '
        'networks (a, b). All ports in a port group must have the same '
        'physical network.' % pg.uuid)


def test_unchanged_group_and_network_are_not_checked(context, rpc_api,
                                                     group):
    node, pg = group
    _port(context, node, '52:54:00:00:00:01', 'a', pg).create(context)
    port = _port(context, node, '52:54:00:00:00:02', 'b', pg)
    port.create(context)
    port.extra = {'x': 1}
    assert rpc_api.update_port(context, port, node).extra == {'x': 1}


def test_a_group_s_new_network_reaches_its_ports(context, rpc_api, group):
    """API 1.102: the conductor's port group update gives the group's
    physical network to its ports, in the same write (Ironic's
    update_portgroup_physical_network)."""
    node, pg = group
    ports = [_port(context, node, mac, 'a', pg)
             for mac in ('52:54:00:00:00:01', '52:54:00:00:00:02')]
    for port in ports:
        port.create(context)
    other = _port(context, node, '52:54:00:00:00:03', 'a')
    other.create(context)
    pg.physical_network = 'b'
    assert rpc_api.update_portgroup(context, pg, node).physical_network \
        == 'b'
    assert [objects.Port.get(context, p.uuid).physical_network
            for p in ports] == ['b', 'b']
    assert objects.Port.get(context, other.uuid).physical_network == 'a'
    # Another change of the group leaves the ports' networks alone (a
    # port written apart keeps its own).
    port = objects.Port.get(context, ports[1].uuid)
    port.physical_network = 'c'
    port.save(context)
    pg = objects.Portgroup.get(context, pg.uuid)
    pg.extra = {'x': 1}
    rpc_api.update_portgroup(context, pg, node)
    assert objects.Port.get(context, ports[1].uuid).physical_network == 'c'


def test_a_lone_port_joins_on_its_group_s_network(context, rpc_api, group):
    node, pg = group
    pg.physical_network = 'a'
    pg.save(context)
    with pytest.raises(exception.Conflict) as err:
        rpc_api.create_port(context, _port(
            context, node, '52:54:00:00:00:01', 'b', pg), node)
    assert 'which has ports in physical network a.' in str(err.value)
    assert objects.Port.list(context) == []


def test_on_postgresql_a_port_is_one_statement_a_locked_node_still_409(
        postgresql_url, use_db, conf_fixture, conductor, context):
    """A port outside a group is created by one INSERT that reads its
    node FOR SHARE (``child_writes.created_in_one_statement``); on a node
    a task holds, nothing is inserted and the locking write says why."""
    use_db(postgresql_url)
    conf_fixture.config(node_locked_retry_attempts=0, group='conductor')
    node = objects.Node(context, driver='fake-hardware',
                        provision_state='enroll')
    node.create(context)
    engine = db_api.get_engine()
    seen, mine = [], threading.get_ident()

    def record(conn, cursor, statement, params, ctx, many):
        if threading.get_ident() != mine:  # the conductor's heartbeat
            return
        words = statement.split()
        if words[0] == 'EXECUTE':  # prepared: what it runs
            name = words[1].split('(')[0]
            words = next(prepare for known, prepare, _run
                         in prepared._PREPARABLE.values()
                         if known == name).split(' AS ', 1)[1].split()
        if words[0] != 'PREPARE':
            seen.append(words[0].upper())
    sa.event.listen(engine, 'before_cursor_execute', record)
    try:
        port = conductor.manager.create_port(
            context, _port(context, node, '52:54:00:00:01:01', 'a'))
    finally:
        sa.event.remove(engine, 'before_cursor_execute', record)
    assert seen == ['INSERT'], seen
    assert objects.Port.get(context, port.uuid).physical_network == 'a'
    objects.Node.reserve(context, 'host-b', node.id)
    with pytest.raises(messaging.ExpectedException) as err:
        conductor.manager.create_port(
            context, _port(context, node, '52:54:00:00:01:02', 'a'))
    assert isinstance(err.value.exc_info[1], exception.NodeLocked)
    assert [p.address for p in objects.Port.list(context)] == [
        '52:54:00:00:01:01']
