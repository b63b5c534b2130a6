"""``rpc_transport = json-rpc``: the API's RPC client (rpcapi) and a real
conductor (manager and JSON-RPC server of this process, on loopback),
talking over HTTP: Ironic's wire, the conductor's errors re-raised, the
version cap, kept-alive connections, and a conductor that cannot be
reached or does not answer turned into a retry-safe 503."""

import socket
import threading

import pytest

from ironic_lite.common import exception
from ironic_lite.common import json_rpc_client
from ironic_lite.common import json_rpc_server
from ironic_lite.common import rpc
from ironic_lite.conductor import rpcapi
from tests.functional import procs
from tests.unit.conductor import conftest as cond_conftest


@pytest.fixture
def json_rpc(config):
    """JSON-RPC on a free loopback port; the conductor's host name carries
    it, as set_conductor_host makes it."""
    port = procs.free_port()
    config.set_override('rpc_transport', 'json-rpc')
    config.set_override('host_ip', '127.0.0.1', group='json_rpc')
    config.set_override('port', port, group='json_rpc')
    config.set_override('host', '127.0.0.1')
    rpc.set_conductor_host()
    yield config.host
    rpc.cleanup()


@pytest.fixture
def json_conductor(json_rpc, database):
    cond = cond_conftest.Conductor(host=json_rpc).start()
    yield cond
    cond.stop()


@pytest.fixture
def wire(monkeypatch):
    """The JSON-RPC requests the conductor received, decoded."""
    received = []
    answer = json_rpc_server.Application.answer

    def spying_answer(self, body):
        received.append(body)
        return answer(self, body)
    monkeypatch.setattr(json_rpc_server.Application, 'answer',
                        spying_answer)
    return received


def test_the_host_carries_a_port_that_is_not_the_default(json_rpc, config):
    assert json_rpc == '127.0.0.1:%d' % config.json_rpc.port
    rpc.set_conductor_host()  # again: unchanged
    assert config.host == json_rpc


def test_a_call_is_ironic_s_json_rpc_2_request(json_conductor, wire,
                                               context, make_node):
    node = make_node(description='before')
    node.description = 'after'
    saved = rpcapi.ConductorAPI().update_node(context, node)
    assert saved.description == 'after'
    assert saved is not node
    [body] = wire
    assert body['jsonrpc'] == '2.0'
    assert body['method'] == 'update_node'
    assert body['id'] == context.request_id
    params = body['params']
    assert params['rpc.version'] == '1.1'
    assert params['context']['request_id'] == context.request_id
    assert params['node_obj']['ironic_object.name'] == 'Node'


def test_a_conductor_error_is_raised_as_itself(json_conductor, context,
                                               make_node):
    node = make_node(instance_uuid='1be26c0b-03f2-4d2e-ae87-c02d7f33c781')
    node.instance_uuid = '5f0e0a4c-6a7e-4d0b-9b33-7b1a4c1f4a2e'
    with pytest.raises(exception.NodeAssociated) as raised:
        rpcapi.ConductorAPI().update_node(context, node)
    assert raised.value.code == 409
    assert 'Traceback' not in str(raised.value)


def test_pinned_the_old_version_is_sent_and_newer_calls_refused(
        json_conductor, wire, config, context, make_node):
    node = make_node()
    config.set_override('pin_release_version', '1.0')
    api = rpcapi.ConductorAPI()
    node.description = 'pinned'
    assert api.update_node(context, node,
                           reset_interfaces=True).description == 'pinned'
    [body] = wire
    assert body['params']['rpc.version'] == '1.0'
    assert 'reset_interfaces' not in body['params']
    with pytest.raises(exception.PinnedRelease) as raised:
        api.set_indicator_state(context, node, 'system', 'led', 'ON')
    assert raised.value.code == 409
    assert len(wire) == 1  # nothing sent


def test_the_version_cap_refuses_before_sending(json_conductor, wire,
                                                context):
    client = rpc.get_client(json_rpc_client_target(), version_cap='1.0')
    with pytest.raises(Exception) as raised:
        client.prepare(server=json_conductor.manager.host, version='1.3').call(
            context, 'update_node')
    assert type(raised.value).__name__ == 'RPCVersionCapError'
    assert wire == []


def json_rpc_client_target():
    import oslo_messaging as messaging
    return messaging.Target(topic=rpc.conductor_topic(), version='1.0')


def _pool(host):
    client = json_rpc_client.Client(rpc.CONF, None, server=host)
    return json_rpc_client.POOLS.get(rpc.CONF).connection_from_url(
        client.url())


def test_calls_reuse_one_kept_alive_connection(json_conductor, context,
                                               make_node):
    api = rpcapi.ConductorAPI()
    node = make_node()
    for n in range(5):
        node.description = 'call %d' % n
        node = api.update_node(context, node)
    pool = _pool(json_conductor.manager.host)
    assert pool.num_connections == 1
    assert pool.num_requests == 5


def test_an_unreachable_conductor_is_a_retry_safe_503(json_rpc, context,
                                                      make_node):
    # Nothing listens on the conductor's port: the API's answer says the
    # request was not carried out.
    node = make_node()
    node.description = 'x'
    api = rpcapi.ConductorAPI()
    with pytest.raises(exception.ServiceUnavailable) as raised:
        api.call_new_method(context, '1.0', None, 'update_node',
                            host=json_rpc, node_obj=node)
    assert 'not carried out' in str(raised.value)
    assert raised.value.code == 503


def test_unreachable_is_the_class_rpc_errors_turns_into_503(
        json_rpc, context):
    client = rpc.get_client(json_rpc_client_target())
    with pytest.raises(json_rpc_client.ConductorUnreachable):
        client.prepare(server=json_rpc).call(context, 'update_node')


@pytest.fixture
def silent_conductor(json_rpc):
    """A port that accepts connections and never answers."""
    sock = socket.socket()
    sock.bind(('127.0.0.1', 0))
    sock.listen(8)
    yield '127.0.0.1:%d' % sock.getsockname()[1]
    sock.close()


def test_a_silent_conductor_is_a_503_after_the_timeout(
        silent_conductor, config, context, make_node):
    config.set_override('rpc_response_timeout', 1)
    node = make_node()
    api = rpcapi.ConductorAPI()
    with pytest.raises(exception.ServiceUnavailable) as raised:
        api.call_new_method(context, '1.0', None, 'destroy_node',
                            host=silent_conductor, node_id=node.uuid)
    assert 'did not answer in time' in str(raised.value)


def test_an_unexpected_conductor_error_is_a_503_without_its_text(
        json_conductor, monkeypatch, context, make_node):
    from ironic_lite.conductor import manager

    def broken(self, context, node_id):
        raise RuntimeError('SELECT secret FROM /etc/passwd')
    monkeypatch.setattr(manager.ConductorManager, 'destroy_node', broken)
    node = make_node()
    with pytest.raises(exception.ServiceUnavailable) as raised:
        rpcapi.ConductorAPI().destroy_node(context, node)
    assert 'RuntimeError' in str(raised.value)
    assert 'SELECT' not in str(raised.value)


def test_a_version_the_conductor_lacks_is_conductor_too_old(
        json_conductor, context, make_node, monkeypatch):
    node = make_node()
    api = rpcapi.ConductorAPI()
    monkeypatch.setattr(rpcapi.ConductorAPI, 'version_cap', '1.99')
    with pytest.raises(exception.ConductorTooOld):
        api.call_new_method(context, '1.99', None, 'destroy_node',
                            node=node, node_id=node.uuid)


def test_a_stop_finishes_the_call_in_flight(json_conductor, monkeypatch,
                                            context, make_node):
    from ironic_lite.conductor import manager
    entered, release = threading.Event(), threading.Event()

    def slow(self, context, node_id):
        entered.set()
        release.wait(30)
        return 'done'
    monkeypatch.setattr(manager.ConductorManager, 'destroy_node', slow)
    node = make_node()
    results = []
    caller = threading.Thread(target=lambda: results.append(
        rpcapi.ConductorAPI().destroy_node(context, node)))
    caller.start()
    assert entered.wait(30)
    server = json_conductor.service.rpcserver
    stopper = threading.Thread(target=server.stop)
    stopper.start()
    release.set()
    stopper.join(60)
    caller.join(60)
    assert results == ['done']
    # Stopped: the next call finds no conductor (nothing sent).
    with pytest.raises(exception.ServiceUnavailable):
        rpcapi.ConductorAPI().destroy_node(context, node)


def test_no_broker_is_probed(json_rpc, config):
    from ironic_lite.conductor import broker_probe
    # A transport_url left in the file is not used: nothing listens there.
    config.set_override('transport_url', 'rabbit://127.0.0.1:%d/'
                        % procs.free_port())
    broker_probe.check()
    config.set_override('rpc_transport', 'oslo')
    with pytest.raises(exception.ServiceUnavailable):
        broker_probe.check()  # the same URL, over oslo.messaging


@pytest.fixture
def dying_conductor(json_rpc):
    """A port whose server reads a request and closes the connection
    without an answer, as a conductor killed while it works."""
    sock = socket.socket()
    sock.bind(('127.0.0.1', 0))
    sock.listen(8)

    def serve():
        while True:
            try:
                conn, _addr = sock.accept()
            except OSError:
                return
            conn.recv(65536)
            conn.close()
    threading.Thread(target=serve, daemon=True).start()
    yield '127.0.0.1:%d' % sock.getsockname()[1]
    sock.close()


def test_a_connection_lost_mid_call_is_a_503_that_says_maybe(
        dying_conductor, context, make_node):
    node = make_node()
    with pytest.raises(exception.ServiceUnavailable) as raised:
        rpcapi.ConductorAPI().call_new_method(
            context, '1.0', None, 'destroy_node', host=dying_conductor,
            node_id=node.uuid)
    assert 'may or may not have been carried out' in str(raised.value)
