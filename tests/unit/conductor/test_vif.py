"""VIFs through the real RPC client and conductor on the fake transport
(conductor/vif.py, RPC 1.2): the flat and noop network interfaces."""

import pytest

from ironic_lite.common import exception
from ironic_lite import objects


def _port(context, node, mac, **values):
    port = objects.Port(context, node_id=node.id, address=mac, **values)
    port.create()
    return port


def test_flat_vif_on_free_ports_then_none_left(rpc_api, context, make_node):
    node = make_node(network_interface='flat')
    p1 = _port(context, node, '52:54:00:00:00:01', pxe_enabled=False)
    p2 = _port(context, node, '52:54:00:00:00:02', pxe_enabled=True)
    rpc_api.vif_attach(context, node, {'id': 'vif-1'})
    # The PXE-enabled port is taken first, as in Ironic.
    assert objects.Port.get(context, p2.uuid).internal_info == {
        'tenant_vif_port_id': 'vif-1'}
    with pytest.raises(exception.VifAlreadyAttached) as err:
        rpc_api.vif_attach(context, node, {'id': 'vif-1'})
    assert err.value.code == 409
    rpc_api.vif_attach(context, node, {'id': 'vif-2'})
    assert objects.Port.get(context, p1.uuid).internal_info == {
        'tenant_vif_port_id': 'vif-2'}
    with pytest.raises(exception.NoFreePhysicalPorts):
        rpc_api.vif_attach(context, node, {'id': 'vif-3'})
    assert sorted(v['id'] for v in rpc_api.vif_list(context, node)) == [
        'vif-1', 'vif-2']
    rpc_api.vif_detach(context, node, 'vif-1')
    assert rpc_api.vif_list(context, node) == [{'id': 'vif-2'}]
    with pytest.raises(exception.VifNotAttached):
        rpc_api.vif_detach(context, node, 'vif-1')


def test_flat_vif_prefers_a_port_group(rpc_api, context, make_node):
    node = make_node(network_interface='flat')
    group = objects.Portgroup(context, node_id=node.id, name='bond0',
                              address='52:54:00:00:01:00')
    group.create()
    _port(context, node, '52:54:00:00:01:01', portgroup_id=group.id)
    rpc_api.vif_attach(context, node, {'id': 'vif-g'})
    assert objects.Portgroup.get(context, group.uuid).internal_info == {
        'tenant_vif_port_id': 'vif-g'}


def test_noop_vif_accepts_and_records_nothing(rpc_api, context, make_node):
    node = make_node(network_interface='noop')
    port = _port(context, node, '52:54:00:00:02:01')
    rpc_api.vif_attach(context, node, {'id': 'vif-n'})
    assert rpc_api.vif_list(context, node) == []
    assert objects.Port.get(context, port.uuid).internal_info == {}
    rpc_api.vif_detach(context, node, 'vif-n')


def test_a_dynamic_port_group_goes_with_its_vif(rpc_api, context,
                                                make_node):
    """1.111: a dynamic port group (made for one VIF by Ironic's trait
    based networking; here only imported or written by hand) is deleted
    when its VIF is detached, its ports freed; a plain group stays."""
    node = make_node(network_interface='flat')
    dynamic = objects.Portgroup(context, node_id=node.id, name='dyn',
                                dynamic_portgroup=True,
                                internal_info={'tenant_vif_port_id': 'v1'})
    dynamic.create()
    port = _port(context, node, '52:54:00:00:03:01',
                 portgroup_id=dynamic.id)
    plain = objects.Portgroup(context, node_id=node.id, name='plain',
                              internal_info={'tenant_vif_port_id': 'v2'})
    plain.create()
    rpc_api.vif_detach(context, node, 'v1')
    with pytest.raises(exception.PortgroupNotFound):
        objects.Portgroup.get(context, dynamic.uuid)
    assert objects.Port.get(context, port.uuid).portgroup_id is None
    rpc_api.vif_detach(context, node, 'v2')
    assert objects.Portgroup.get(context, plain.uuid).internal_info == {}
