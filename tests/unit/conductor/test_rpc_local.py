"""fake://: calls to a conductor of this process are dispatched in place,
through the same serializer, version cap and dispatcher as over the wire;
casts, fanouts and calls to other servers go through the transport."""

import queue
import threading

import oslo_messaging as messaging
from oslo_messaging.rpc import dispatcher as rpc_dispatcher
import pytest

from ironic_lite.common import context as ir_context
from ironic_lite.common import exception
from ironic_lite.common import rpc
from tests import timeouts


@pytest.fixture
def wire(conductor, monkeypatch):
    """(message, thread) of each dispatch.  In place, the thread is the
    caller's; through the fake driver's queues (polled every 50 ms), one
    of the RPC server's."""
    received = []
    dispatch = rpc_dispatcher.RPCDispatcher.dispatch

    def spying_dispatch(self, incoming):
        received.append((incoming.message, threading.get_ident()))
        return dispatch(self, incoming)
    monkeypatch.setattr(rpc_dispatcher.RPCDispatcher, 'dispatch',
                        spying_dispatch)
    return received


def _messages_dispatched_here(wire):
    assert all(thread == threading.get_ident() for _, thread in wire)
    return [message for message, _ in wire]


def test_call_is_dispatched_in_place_with_serialized_objects(
        rpc_api, wire, context, make_node):
    node = make_node(description='before')
    node.description = 'after'
    saved = rpc_api.update_node(context, node)
    assert saved is not node  # deserialized from the reply, not shared
    assert saved.description == 'after'
    [message] = _messages_dispatched_here(wire)
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
    [message] = _messages_dispatched_here(wire)
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
    assert [m['method'] for m in _messages_dispatched_here(wire)] == [
        'update_node']


def test_a_stopped_conductor_is_no_longer_served_in_place(conductor):
    assert rpc._SERVED
    conductor.stop()
    assert not rpc._SERVED


class _Echo(object):
    """An endpoint that reports the thread each of its calls ran in."""

    def __init__(self, name):
        self.name = name
        self.seen = queue.Queue()

    def echo(self, context, value):
        self.seen.put((value, threading.get_ident()))
        return '%s:%s' % (self.name, value)


@pytest.fixture
def two_servers(config):
    """Servers "here" (served in place) and "there" (not) on one topic."""
    endpoints = {}
    servers = []
    for name in ('here', 'there'):
        target = messaging.Target(topic='echo', server=name)
        endpoints[name] = _Echo(name)
        server = rpc.get_server(target, [endpoints[name]])
        server.start()
        servers.append(server)
        if name == 'here':
            rpc.serve_locally(target, server)
    yield endpoints
    for server in servers:
        server.stop()
        server.wait()
    rpc.cleanup()


def _thread_of(endpoint, value):
    seen, thread = endpoint.seen.get(timeout=timeouts.HANG)
    assert seen == value
    return thread


def test_only_a_call_to_a_server_served_here_skips_the_transport(
        two_servers):
    client = rpc.get_client(messaging.Target(topic='echo', version='1.0'))
    ctxt = ir_context.RequestContext()
    me = threading.get_ident()
    here, there = two_servers['here'], two_servers['there']

    assert client.prepare(server='here').call(ctxt, 'echo', value=1) == \
        'here:1'
    assert _thread_of(here, 1) == me
    assert client.prepare(server='there').call(ctxt, 'echo', value=2) == \
        'there:2'
    assert _thread_of(there, 2) != me

    client.prepare(server='here').cast(ctxt, 'echo', value=3)
    assert _thread_of(here, 3) != me
    client.prepare(fanout=True).cast(ctxt, 'echo', value=4)
    assert _thread_of(here, 4) != me
    assert _thread_of(there, 4) != me


def test_a_call_in_place_keeps_the_version_cap(two_servers):
    client = rpc.get_client(messaging.Target(topic='echo', version='1.0'),
                            version_cap='1.0')
    with pytest.raises(messaging.RPCVersionCapError):
        client.prepare(server='here', version='1.1').call(
            ir_context.RequestContext(), 'echo', value=5)
    assert two_servers['here'].seen.empty()
