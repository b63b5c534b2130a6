"""ironic-api and ironic-conductor poll RabbitMQ from ``rpc.POLL_START``
after each message, not from oslo.messaging's 1 ms (``rpc.poll_lazily``):
the polls only run the tasks other threads queue for a connection's
thread, and with RPC alone there are none -- the library acknowledges a
call in the callback that receives it, and a reply in the reply
waiter's.  These tests hold the library to that."""

from unittest import mock

from oslo_messaging._drivers import amqpdriver
import pytest

from ironic_lite.common import rpc
from ironic_lite.conductor import base_manager


@pytest.fixture
def library_start(monkeypatch):
    """The library's value, restored after the test."""
    monkeypatch.setattr(amqpdriver, 'ACK_REQUEUE_EVERY_SECONDS_MIN',
                        amqpdriver.ACK_REQUEUE_EVERY_SECONDS_MIN)
    return amqpdriver.ACK_REQUEUE_EVERY_SECONDS_MIN


def _names(func):
    """The global names ``func`` reads, and those of the functions it
    wraps (a decorator's closure)."""
    names = set(func.__code__.co_names)
    for cell in func.__closure__ or ():
        if callable(cell.cell_contents) and hasattr(cell.cell_contents,
                                                    '__code__'):
            names |= _names(cell.cell_contents)
    return names


def test_the_library_polls_by_the_value_changed():
    """Both of oslo.messaging's poll loops read the module's value when
    they run: were it renamed, the change would silently do nothing."""
    assert isinstance(amqpdriver.ACK_REQUEUE_EVERY_SECONDS_MIN, float)
    for poll in (amqpdriver.ReplyWaiter.poll, amqpdriver.AMQPListener.poll):
        assert 'ACK_REQUEUE_EVERY_SECONDS_MIN' in _names(poll)


def test_the_library_acknowledges_a_call_as_it_receives_it():
    """An RPC server's listener acknowledges a call in its consumer
    callback, before the executor has it; what the executor's thread
    asks of the message later queues nothing for the polls to run."""
    order = []
    raw = mock.Mock()
    raw.acknowledge.side_effect = lambda: order.append('ack')
    listener = amqpdriver.RpcAMQPListener.__new__(
        amqpdriver.RpcAMQPListener)
    with mock.patch.object(amqpdriver.AMQPListener, '__call__',
                           lambda self, message: order.append('taken')):
        listener(raw)
    assert order == ['ack', 'taken']
    incoming = amqpdriver.AMQPIncomingMessage.__new__(
        amqpdriver.AMQPIncomingMessage)
    incoming.message = raw
    incoming._message_operations_handler = handler = mock.Mock()
    incoming.acknowledge()
    incoming.requeue()
    assert not handler.do.called
    assert order == ['ack', 'taken']


def test_api_and_conductor_poll_lazily(conf_fixture, library_start):
    conf_fixture.config(rpc_transport='oslo')
    rpc.poll_lazily()
    assert amqpdriver.ACK_REQUEUE_EVERY_SECONDS_MIN == rpc.POLL_START
    assert library_start < rpc.POLL_START
    # Twice is once.
    rpc.poll_lazily()
    assert amqpdriver.ACK_REQUEUE_EVERY_SECONDS_MIN == rpc.POLL_START


def test_serving_rpc_keeps_the_lazy_polls(conf_fixture, library_start):
    rpc._register_transport_opts()
    conf_fixture.config(rpc_transport='oslo', transport_url='fake://')
    rpc.poll_lazily()
    base_manager.BaseConductorManager(host='h')
    rpc.get_server(rpc.messaging.Target(topic='t', server='h'), [])
    assert amqpdriver.ACK_REQUEUE_EVERY_SECONDS_MIN == rpc.POLL_START
    rpc.cleanup()


def test_json_rpc_leaves_the_library_alone(conf_fixture, library_start):
    conf_fixture.config(rpc_transport='json-rpc')
    rpc.poll_lazily()
    assert amqpdriver.ACK_REQUEUE_EVERY_SECONDS_MIN == library_start
