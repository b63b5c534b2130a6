"""RPC 1.2 (release 3.0) through the real conductor on the fake transport:
traits, VIFs (flat and noop), validation and boot devices."""

import pytest

from ironic_lite.common import exception
from ironic_lite.conductor import rpcapi
from ironic_lite import objects


def _port(context, node, mac, **values):
    port = objects.Port(context, node_id=node.id, address=mac, **values)
    port.create()
    return port


def test_traits_add_replace_remove(rpc_api, context, make_node):
    node = make_node()
    rpc_api.add_node_traits(context, node, ['CUSTOM_B', 'HW_CPU_X86_AVX2'],
                            replace=True)
    rpc_api.add_node_traits(context, node, ['CUSTOM_A'])
    rpc_api.add_node_traits(context, node, ['CUSTOM_A'])   # no error
    names = objects.Node.get_by_uuid(context, node.uuid).traits
    assert names.get_trait_names() == ['CUSTOM_A', 'CUSTOM_B',
                                       'HW_CPU_X86_AVX2']
    rpc_api.remove_node_traits(context, node, ['CUSTOM_B'])
    with pytest.raises(exception.NodeTraitNotFound) as err:
        rpc_api.remove_node_traits(context, node, ['CUSTOM_B'])
    assert node.uuid in str(err.value)
    rpc_api.remove_node_traits(context, node)
    assert objects.Node.get_by_uuid(
        context, node.uuid).traits.get_trait_names() == []


def test_traits_limit_is_50_and_nothing_partial(rpc_api, context,
                                                make_node):
    node = make_node()
    rpc_api.add_node_traits(context, node, ['CUSTOM_KEEP'], replace=True)
    with pytest.raises(exception.InvalidParameterValue):
        rpc_api.add_node_traits(context, node,
                                ['CUSTOM_%d' % i for i in range(51)],
                                replace=True)
    assert objects.TraitList.get_by_node_id(
        context, node.id).get_trait_names() == ['CUSTOM_KEEP']


def test_traits_go_with_the_node(rpc_api, context, make_node):
    node = make_node(provision_state='manageable')
    rpc_api.add_node_traits(context, node, ['CUSTOM_A'], replace=True)
    rpc_api.destroy_node(context, node)
    assert objects.TraitList.get_by_node_id(context, node.id).objects == []


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


def test_validate_driver_interfaces(rpc_api, context, make_node):
    node = make_node(bios_interface='no-bios')
    result = rpc_api.validate_driver_interfaces(context, node)
    assert set(result) == {'bios', 'boot', 'console', 'deploy', 'inspect',
                           'management', 'network', 'power', 'raid',
                           'rescue', 'storage'}
    assert result['power'] == {'result': True}
    assert result['deploy'] == {'result': True}
    assert result['bios']['result'] is False
    assert 'does not support bios' in result['bios']['reason']


def test_boot_device_round_trip(rpc_api, context, make_node):
    node = make_node()
    assert rpc_api.get_supported_boot_devices(context, node) == ['pxe',
                                                                 'disk']
    assert rpc_api.get_boot_device(context, node) == {
        'boot_device': 'pxe', 'persistent': False}
    rpc_api.set_boot_device(context, node, 'disk', persistent=True)
    assert rpc_api.get_boot_device(context, node) == {
        'boot_device': 'disk', 'persistent': True}
    with pytest.raises(exception.InvalidParameterValue):
        rpc_api.set_boot_device(context, node, 'floppy')
    assert objects.Node.get_by_uuid(context, node.uuid).reservation is None


def test_a_pinned_conductor_refuses_to_write_traits(rpc_api, context,
                                                    make_node, config,
                                                    monkeypatch):
    """An API unpinned before the conductors (a wrong order) gets a 409,
    and nothing is written."""
    node = make_node()
    # API and conductor share this process's pin: the API side is made
    # unpinned through the cap its calls read.
    monkeypatch.setattr(rpcapi.ConductorAPI, 'version_cap',
                        rpcapi.RPC_API_VERSION)
    config.set_override('pin_release_version', '2.0')
    try:
        with pytest.raises(exception.InvalidState) as err:
            rpc_api.add_node_traits(context, node, ['CUSTOM_A'])
    finally:
        config.clear_override('pin_release_version')
    assert err.value.code == 409 and 'steps 6.1-6.2' in str(err.value)
    assert objects.TraitList.get_by_node_id(context, node.id).objects == []
