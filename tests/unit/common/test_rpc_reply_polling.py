"""An API's reply waiter polls RabbitMQ less often than an RPC server's
listener (``rpc.poll_for_replies_only``): only in a process serving no
RPC over the broker, and undone when one starts serving."""

from oslo_messaging._drivers import amqpdriver
import pytest

from ironic_lite.common import rpc
from ironic_lite.conductor import base_manager


@pytest.fixture
def library_start(monkeypatch):
    """The library's value, restored after the test."""
    monkeypatch.setattr(amqpdriver, 'ACK_REQUEUE_EVERY_SECONDS_MIN',
                        amqpdriver.ACK_REQUEUE_EVERY_SECONDS_MIN)
    monkeypatch.setattr(rpc, '_LIBRARY_POLL_START', [])
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


def test_an_api_polls_for_replies_only(conf_fixture, library_start):
    conf_fixture.config(rpc_transport='oslo')
    rpc.poll_for_replies_only()
    assert amqpdriver.ACK_REQUEUE_EVERY_SECONDS_MIN == rpc.REPLY_POLL_START
    assert library_start < rpc.REPLY_POLL_START
    # Twice is once.
    rpc.poll_for_replies_only()
    assert amqpdriver.ACK_REQUEUE_EVERY_SECONDS_MIN == rpc.REPLY_POLL_START


def test_serving_rpc_polls_as_the_library(conf_fixture, library_start):
    """A process that starts an RPC server after all (its listener sends
    the acknowledgements its executor queues) polls at the library's
    pace again."""
    rpc._register_transport_opts()
    conf_fixture.config(rpc_transport='oslo', transport_url='fake://')
    rpc.poll_for_replies_only()
    base_manager.BaseConductorManager(host='h')
    rpc.get_server(rpc.messaging.Target(topic='t', server='h'), [])
    assert amqpdriver.ACK_REQUEUE_EVERY_SECONDS_MIN == library_start
    rpc.cleanup()


def test_json_rpc_leaves_the_library_alone(conf_fixture, library_start):
    conf_fixture.config(rpc_transport='json-rpc')
    rpc.poll_for_replies_only()
    assert amqpdriver.ACK_REQUEUE_EVERY_SECONDS_MIN == library_start
