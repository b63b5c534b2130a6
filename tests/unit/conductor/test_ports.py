"""The conductor's port writes keep the ports of a port group on one
physical network (Ironic's validate_port_physnet), in the write's
transaction."""

from oslo_utils import uuidutils
import pytest

from ironic_lite.common import exception
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
