"""fake://: calls to a conductor of this process are dispatched in place,
through the same serializer, version cap and dispatcher as over the wire."""

from oslo_messaging.rpc import dispatcher as rpc_dispatcher
import pytest

from ironic_lite.common import exception
from ironic_lite.common import rpc


@pytest.fixture
def wire(conductor, monkeypatch):
    """Record what the local dispatcher receives; fail if the fake
    driver's queues (polled every 50 ms) are used instead."""
    driver = rpc.TRANSPORT._driver
    assert isinstance(driver, rpc._LocalFirstDriver)
    received = []

    def not_the_queues(*args, **kwargs):
        raise AssertionError('the call went through the fake queues')
    monkeypatch.setattr(driver._driver, 'send', not_the_queues)
    dispatch = rpc_dispatcher.RPCDispatcher.dispatch

    def spying_dispatch(self, incoming):
        received.append(incoming.message)
        return dispatch(self, incoming)
    monkeypatch.setattr(rpc_dispatcher.RPCDispatcher, 'dispatch',
                        spying_dispatch)
    return received


def test_call_is_dispatched_in_place_with_serialized_objects(
        rpc_api, wire, context, make_node):
    node = make_node(description='before')
    node.description = 'after'
    saved = rpc_api.update_node(context, node)
    assert saved is not node  # deserialized from the reply, not shared
    assert saved.description == 'after'
    [message] = wire
    assert message['method'] == 'update_node'
    assert message['version'] == '1.1'
    primitive = message['args']['node_obj']
    assert primitive['ironic_object.name'] == 'Node'  # a primitive


def test_pinned_call_in_place_sends_the_old_version(
        config, conductor, wire, context, make_node):
    from ironic_lite.conductor import rpcapi
    node = make_node(shard='s1')
    config.set_override('pin_release_version', '1.0')
    try:
        pinned = rpcapi.ConductorAPI()
        node.description = 'pinned'
        saved = pinned.update_node(context, node, reset_interfaces=True)
    finally:
        config.clear_override('pin_release_version')
    [message] = wire
    assert message['version'] == '1.0'
    assert 'reset_interfaces' not in message['args']
    primitive = message['args']['node_obj']
    assert primitive['ironic_object.version'] == '1.0'
    assert 'shard' not in primitive['ironic_object.data']
    assert saved.description == 'pinned'
    # The 1.0 node did not carry the shard: the stored one is untouched.
    from ironic_lite import objects
    assert objects.Node.get_by_uuid(context, node.uuid).shard == 's1'


def test_expected_exception_reaches_the_caller_as_itself(
        rpc_api, wire, context, make_node):
    node = make_node(instance_uuid='1be26c0b-03f2-4d2e-ae87-c02d7f33c781')
    node.instance_uuid = '5f0e0a4c-6a7e-4d0b-9b33-7b1a4c1f4a2e'
    with pytest.raises(exception.NodeAssociated):
        rpc_api.update_node(context, node)
    assert [m['method'] for m in wire] == ['update_node']


def test_a_stopped_conductor_is_no_longer_served_in_place(conductor):
    driver = rpc.TRANSPORT._driver
    assert driver._local
    conductor.stop()
    assert not driver._local
