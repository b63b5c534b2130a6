"""A node's traits through the real RPC client and conductor on the fake
transport (conductor/traits.py, RPC 1.2): add, replace and remove, the
limit of 50, and a conductor pinned to a release without traits."""

import pytest

from ironic_lite.common import exception
from ironic_lite.conductor import rpcapi
from ironic_lite import objects


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
