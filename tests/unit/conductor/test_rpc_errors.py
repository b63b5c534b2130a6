"""How the RPC client turns what goes wrong into the API's answer, without
a conductor: a broker that refuses connections (503, nothing sent), a
conductor's own error without its remote traceback, a conductor that
failed (503, "may or may not have been carried out"), an older conductor
(409 ConductorTooOld), and a request a pinned API may not send (409
PinnedRelease)."""

import socket
import sys
import threading
import uuid

from amqp import exceptions as amqp_exceptions
from kombu import exceptions as kombu_exceptions
import oslo_messaging as messaging
from oslo_messaging._drivers import common as rpc_common
import pytest

from ironic_lite.common import exception
from ironic_lite.common import rpc
from ironic_lite.conductor import broker_probe
from ironic_lite.conductor import rpc_errors
from ironic_lite.conductor import rpcapi
from tests.functional import procs


def _url(*hosts):
    # A new URL each time: broker_hosts caches per URL.
    vhost = uuid.uuid4().hex[:8]
    return 'rabbit://%s/%s' % (','.join('u:p@%s' % h for h in hosts), vhost)


@pytest.fixture(autouse=True)
def held(monkeypatch):
    """No connection held by an earlier test."""
    held = broker_probe._Held()
    monkeypatch.setattr(broker_probe, '_HELD', held)
    yield held
    if held._sock is not None:
        held._sock.close()


def _set_event():
    event = threading.Event()
    event.set()
    return event


@pytest.fixture
def connections(monkeypatch):
    """Fake TCP connections: the hosts in ``connections.up`` accept."""
    class Connections(list):
        up = set()

    tried = Connections()

    class Conn(object):
        """A broker that has answered this process already (the TCP
        check alone)."""

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def close(self):
            pass

    monkeypatch.setattr(broker_probe, '_REPLIES_OPEN', _set_event())

    def create_connection(address, timeout=None):
        tried.append((address, timeout))
        if address not in tried.up:
            raise ConnectionRefusedError(address)
        return Conn()
    monkeypatch.setattr(broker_probe.socket, 'create_connection',
                        create_connection)
    return tried


def test_every_broker_down_is_named(connections):
    url = _url('b1:5671', 'b2')
    assert broker_probe.unreachable(url) == 'b1:5671, b2:5672'
    # Each tried once, never waiting long (the default port is 5672).
    assert connections == [(('b1', 5671), 2), (('b2', 5672), 2)]


def test_one_broker_up_is_enough(connections):
    connections.up = {('b2', 5672)}
    assert broker_probe.unreachable(_url('b1', 'b2', 'b3')) is None
    assert [a for a, _t in connections] == [('b1', 5672), ('b2', 5672)]


def test_in_process_transports_have_no_broker(connections):
    assert broker_probe.broker_hosts('fake://') == ()
    assert broker_probe.unreachable('fake://') is None
    assert connections == []


class _Listener(object):
    """A local TCP listener: ``speaks`` answers what it is sent (as a
    RabbitMQ answers AMQP's header), otherwise it accepts and says
    nothing (a frozen broker, or a proxy whose far side is cut)."""

    def __init__(self, speaks):
        self.sock = socket.create_server(('127.0.0.1', 0))
        self.port = self.sock.getsockname()[1]
        self.speaks = speaks
        self.accepted = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.accepted.append(conn)
            if self.speaks:
                try:
                    conn.recv(8)
                    conn.sendall(b'\x01\x00\x00')
                except OSError:
                    return    # closed by the test meanwhile

    def close(self):
        # shutdown first: a close alone leaves the socket listening while
        # the thread's accept() still holds it.
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()
        for conn in self.accepted:
            conn.close()


@pytest.mark.parametrize('speaks', [True, False])
def test_before_its_first_answer_the_broker_must_speak(monkeypatch,
                                                       speaks):
    """Until a call of this process is answered, a broker that accepts a
    connection but says nothing is unreachable: the first call opens the
    reply connection with no bound, and would hang for as long as the
    broker stays silent.  Once answered, a TCP connection is enough."""
    monkeypatch.setattr(broker_probe, '_REPLIES_OPEN', threading.Event())
    monkeypatch.setattr(broker_probe, '_PROBE_TIMEOUT', 0.5)
    listener = _Listener(speaks)
    try:
        url = _url('127.0.0.1:%d' % listener.port)
        expected = None if speaks else '127.0.0.1:%d' % listener.port
        assert broker_probe.unreachable(url) == expected
        broker_probe.answered()
        assert broker_probe.unreachable(url) is None
    finally:
        listener.close()


@pytest.fixture
def opened(monkeypatch):
    """The sockets the checks open (really connected)."""
    socks = []
    real = socket.create_connection

    def create_connection(*args, **kwargs):
        sock = real(*args, **kwargs)
        socks.append(sock)
        return sock
    monkeypatch.setattr(broker_probe.socket, 'create_connection',
                        create_connection)
    return socks


def _checks(opened, times):
    for _ in range(times):
        broker_probe.check()
    return len(opened)


def test_once_answered_one_connection_stands_for_the_broker(
        monkeypatch, conf_fixture, opened):
    """After the first answer, the connection of a check is held: the
    next calls open none, until the broker closes it (it died) -- the
    next call probes anew and finds it gone: 503, nothing sent."""
    monkeypatch.setattr(broker_probe, '_REPLIES_OPEN', _set_event())
    listener = _Listener(speaks=False)
    try:
        conf_fixture.config(transport_url=_url(
            '127.0.0.1:%d' % listener.port))
        assert _checks(opened, 5) == 1
        # The broker closes its connections, then stops listening.
        procs.wait_for(lambda: listener.accepted, what='accepted')
        listener.close()
        with pytest.raises(exception.ServiceUnavailable) as exc:
            broker_probe.check()
        assert 'cannot be reached' in str(exc.value)
    finally:
        listener.close()


def test_a_held_connection_is_replaced_when_it_is_old(
        monkeypatch, conf_fixture, opened):
    """Before RabbitMQ drops a connection that never began the handshake,
    a new one takes its place; the old one is closed."""
    monkeypatch.setattr(broker_probe, '_REPLIES_OPEN', _set_event())
    monkeypatch.setattr(broker_probe, '_HOLD_SECONDS', -1)
    listener = _Listener(speaks=False)
    try:
        conf_fixture.config(transport_url=_url(
            '127.0.0.1:%d' % listener.port))
        assert _checks(opened, 3) == 3
        # The two replaced connections were closed by this side.
        assert [s.fileno() for s in opened] == [-1, -1, opened[2].fileno()]
        assert opened[2].fileno() != -1
    finally:
        listener.close()


def test_before_its_first_answer_nothing_is_held(monkeypatch,
                                                 conf_fixture, opened):
    monkeypatch.setattr(broker_probe, '_REPLIES_OPEN', threading.Event())
    listener = _Listener(speaks=True)
    try:
        conf_fixture.config(transport_url=_url(
            '127.0.0.1:%d' % listener.port))
        assert _checks(opened, 3) == 3
    finally:
        listener.close()


def test_a_call_while_the_broker_is_down_is_503_and_not_sent(
        connections, conf_fixture):
    conf_fixture.config(transport_url=_url('b1:5999'))
    sent = []

    class API(object):
        version_cap = '1.3'

        @rpc_errors.translated
        def call(self):
            sent.append(1)
    with pytest.raises(exception.ServiceUnavailable) as exc:
        API().call()
    assert str(exc.value) == (
        'The message broker (b1:5999) cannot be reached; the request was '
        'not carried out, please retry later.')
    assert sent == []


class _Client(object):
    """An API whose calls raise ``error``."""

    version_cap = '1.1'

    def __init__(self, error):
        self.error = error

    @rpc_errors.translated
    def call(self):
        raise self.error


def _raised(error, conf_fixture):
    conf_fixture.config(transport_url='fake://')
    with pytest.raises(Exception) as exc:
        _Client(error).call()
    return exc.value


AFTER = ('while carrying out the request; it may or may not have been '
         'carried out: please check the resource before you retry.')


@pytest.mark.parametrize('exc_type,what', [
    ('DBConnectionError', 'could not reach its database'),
    ('DBDeadlock', 'could not reach its database'),
    ('OperationalError', 'could not reach its database'),
    ('DBError', 'could not reach its database'),
    ('KeyError', 'failed (KeyError)'),
    ('IntegrityError', 'failed (IntegrityError)'),
])
def test_a_conductor_failure_is_503_without_its_message(
        conf_fixture, exc_type, what):
    err = _raised(messaging.RemoteError(exc_type, 'SELECT * FROM secret',
                                        ['trace']), conf_fixture)
    assert type(err) is exception.ServiceUnavailable
    assert str(err) == 'The conductor %s %s' % (what, AFTER)


@pytest.mark.parametrize('error', [
    messaging.RemoteError('UnsupportedVersion', 'x', []),
    messaging.RemoteError('IncompatibleObjectVersion', 'x', []),
    messaging.UnsupportedVersion('1.3'),
])
def test_an_older_conductor_is_409_conductor_too_old(conf_fixture, error):
    err = _raised(error, conf_fixture)
    assert type(err) is exception.ConductorTooOld
    assert err.code == 409
    assert '(RPC 1.1)' in str(err)


def test_transport_failures_are_503(conf_fixture):
    err = _raised(messaging.MessagingTimeout('late'), conf_fixture)
    assert str(err) == (
        'The conductor did not answer in time; the request may have been '
        'carried out: please check the resource before you retry.')
    err = _raised(messaging.MessageDeliveryFailure('no'), conf_fixture)
    assert str(err) == (
        'The message broker did not accept the request; please check the '
        'resource before you retry.')
    err = _raised(messaging.MessagingException('odd'), conf_fixture)
    assert str(err) == (
        'RPC to the conductor failed; the request may or may not have been '
        'carried out: please check the resource before you retry.')


class _Odd(exception.NodeLocked):
    """An error class two levels below an IronicException."""


def _remote(error):
    """``error`` as oslo.messaging re-raises a conductor's exception: a
    ``<Class>_Remote`` class whose message carries the traceback."""
    try:
        raise error
    except Exception:
        data = rpc_common.serialize_remote_exception(sys.exc_info())
    return rpc_common.deserialize_remote_exception(
        data, rpc.ALLOWED_EXMODS + [__name__])


def test_a_conductor_error_is_its_own_without_the_traceback(conf_fixture):
    remote = _remote(exception.NodeLocked(node='n1', host='c1'))
    assert type(remote).__name__ == 'NodeLocked_Remote'
    assert 'Traceback' in str(remote)
    err = _raised(remote, conf_fixture)
    assert type(err) is exception.NodeLocked
    assert str(err) == str(exception.NodeLocked(node='n1', host='c1'))
    assert err.code == 409
    assert err.remote_traceback.startswith(
        'Traceback (most recent call last):')
    assert 'raise error' in err.remote_traceback
    # A new exception, not the remote one with its class changed, and not
    # shown chained to it (whose message carries the traceback).
    assert err is not remote and type(remote).__name__ == 'NodeLocked_Remote'
    assert err.__suppress_context__ and err.kwargs == remote.kwargs


def test_the_class_is_the_one_raised_not_its_parent(conf_fixture):
    remote = _remote(_Odd(node='n1', host='c1'))
    err = _raised(remote, conf_fixture)
    assert type(err) is _Odd


def test_the_other_arguments_are_kept():
    class Remote_Remote(exception.IronicException):
        def __str__(self):
            return self.args[0]
    err = Remote_Remote('first\nTraceback (most recent call last):\nx')
    err.args = ('first\nTraceback (most recent call last):\nx', 'b', 'c')
    err = rpc_errors.without_remote_traceback(err)
    assert type(err) is exception.IronicException
    assert err.args == ('first', 'b', 'c')
    assert err.remote_traceback == 'Traceback (most recent call last):\nx'


@pytest.mark.parametrize('message,text,trace', [
    ('boom\n', 'boom', None),
    ('boom', 'boom', None),
    ('\nboom\n\n', '\nboom', None),
    ('boom \n', 'boom ', None),
    ('node X\n', 'node X', None),
    ('\nTraceback (most recent call last):\n  x\n', '',
     'Traceback (most recent call last):\n  x\n'),
])
def test_the_message_and_the_traceback_apart(message, text, trace):
    class Err_Remote(exception.IronicException):
        def __str__(self):
            return self.args[0]
    err = rpc_errors.without_remote_traceback(Err_Remote(message))
    assert (str(err), err.remote_traceback) == (text, trace)
    assert type(err) is exception.IronicException


def test_an_error_raised_here_is_left_alone():
    err = exception.NodeLocked(node='n1', host='c1')
    assert rpc_errors.without_remote_traceback(err) is err
    assert not hasattr(err, 'remote_traceback')


def test_a_pinned_api_refuses_rpc_1_2_requests(conf_fixture, monkeypatch):
    conf_fixture.config(transport_url='fake://', pin_release_version='2.0')
    monkeypatch.setattr(rpc, 'TRANSPORT', None)
    api = rpcapi.ConductorAPI(topic='test-%s' % uuid.uuid4().hex)
    try:
        assert api.version_cap == '1.1'
        node = type('Node', (), {'uuid': 'n1', 'driver': 'fake-hardware',
                                 'conductor_group': ''})()
        for call in (lambda: api.vif_list(None, node),
                     lambda: api.add_node_traits(None, node, ['CUSTOM_A'])):
            with pytest.raises(exception.PinnedRelease) as exc:
                call()
            assert exc.value.code == 409
            assert str(exc.value).startswith(
                'This request is not available while this API is pinned to '
                'release 2.0 (RPC 1.2): nothing was changed.')
    finally:
        rpc.cleanup()


def test_an_auto_pin_moves_the_cap_of_a_running_client(conf_fixture,
                                                       monkeypatch):
    """pin_release_version = auto: the client asks for the cap in force
    at each call, not the one at its construction."""
    from ironic_lite.common import release_pin
    conf_fixture.config(transport_url='fake://', pin_release_version='auto')
    monkeypatch.setattr(rpc, 'TRANSPORT', None)
    monkeypatch.setitem(release_pin._state, 'value', '2.0')
    api = rpcapi.ConductorAPI(topic='test-%s' % uuid.uuid4().hex)
    try:
        assert api.version_cap == '1.1'
        assert not api.can_send_version('1.2')
        monkeypatch.setitem(release_pin._state, 'value', None)
        assert api.version_cap == rpcapi.RPC_API_VERSION
        assert api.can_send_version(rpcapi.RPC_API_VERSION)
    finally:
        rpc.cleanup()


def test_a_cap_lowered_during_a_call_is_503_not_sent(conf_fixture):
    err = _raised(messaging.RPCVersionCapError(version='1.3',
                                               version_cap='1.1'),
                  conf_fixture)
    assert type(err) is exception.ServiceUnavailable
    assert 'it was not carried out, please retry' in str(err)


@pytest.mark.parametrize('error', [
    # A RabbitMQ partition: the queue's node is on the other side.
    amqp_exceptions.NotFound(
        'NOT_FOUND - home node of durable queue is down or inaccessible'),
    kombu_exceptions.OperationalError('[Errno 104] reset'),
    ConnectionResetError(104, 'Connection reset by peer'),
])
def test_a_broker_failing_mid_call_is_a_retry_safe_503(conf_fixture, error):
    err = _raised(error, conf_fixture)
    assert type(err) is exception.ServiceUnavailable
    assert err.code == 503
    assert str(err) == (
        'The message broker failed while the request was sent (%s); it '
        'may or may not have been carried out: please check the resource '
        'before you retry.' % type(error).__name__)
    assert err.__suppress_context__
