"""Whether the message broker can take a call, checked before each RPC
call of the API (conductor/rpcapi.py): a call made while the broker is
down or silent would hang in oslo.messaging, which retries for ever to
open the connections it needs.  A broker that cannot take it makes the
call a 503 at once, nothing sent.

Once this process's calls are answered, the TCP connection of the last
check is held open rather than opened anew for every call (a connect and
a close cost a call 0.6 ms, a twentieth of the API's work on a write): a
broker that dies or is stopped closes it, which a zero-wait ``select``
sees at the next call, and that call probes afresh.  The held connection
is replaced every few seconds, before RabbitMQ drops a connection that
never began AMQP's handshake (``handshake_timeout``, 10 s).
"""

import functools
import os
import select
import socket
import threading
import time

import oslo_messaging as messaging

from ironic_lite.common import exception
from ironic_lite.common import rpc
from ironic_lite import conf

CONF = conf.CONF

# AMQP 0-9-1's protocol header: a RabbitMQ answers it at once (its
# Connection.Start), whatever the credentials.
_AMQP_HEADER = b'AMQP\x00\x00\x09\x01'
_PROBE_TIMEOUT = 2
# Set once a call of this process has been answered: its reply connection
# to the broker is open (see unreachable).
_REPLIES_OPEN = threading.Event()
# How long one held connection stands for the broker (see the module's
# docstring); well under RabbitMQ's default handshake_timeout of 10 s.
_HOLD_SECONDS = 4


class _Held(object):
    """The TCP connection to the broker of this process's last check."""

    def __init__(self):
        self._lock = threading.Lock()
        self._sock = self._url = None
        self._since = self._pid = 0

    def standing(self, transport_url):
        """True while the held connection to this URL's broker is open:
        nothing has arrived on it (a broker says nothing before the
        client's header, so anything readable is its close) and it is
        fresh.  Held by this process: a forked API worker opens its
        own."""
        with self._lock:
            if (self._sock is None or self._url != transport_url
                    or self._pid != os.getpid()
                    or time.monotonic() - self._since > _HOLD_SECONDS):
                return False
            try:
                readable, _w, _x = select.select([self._sock], [], [], 0)
            except (OSError, ValueError):
                return False
            return not readable

    def hold(self, transport_url, sock):
        """Hold ``sock`` (just connected) in place of the last one."""
        with self._lock:
            old, self._sock = self._sock, sock
            self._url, self._pid = transport_url, os.getpid()
            self._since = time.monotonic()
        if old is not None:
            old.close()


_HELD = _Held()


def unreachable(transport_url):
    """The broker hosts of a URL that refuse a TCP connection (or None).

    oslo.messaging retries forever to open a connection to the broker
    (the one on which replies arrive, and a new one for its pool), so a
    call made while the broker is down would hang: each call first checks
    that the broker accepts a TCP connection at all.  The first call after
    an outage began is the one that would hang, so the check cannot wait
    for a failure to be seen first.

    Until a call of this process has been answered, the check also asks
    the broker to speak (AMQP's protocol header, answered at once): the
    first call opens the reply connection with no bound at all, and a
    broker that accepts connections but says nothing -- frozen, or
    behind a proxy whose far side is cut -- would hang it for as long as
    that lasts.  Later calls send on connections with a bound
    (``[conductor]rpc_send_retries``) and wait for a reply within
    ``rpc_response_timeout``: the TCP check, a third of the cost, is
    enough for them.
    """
    hosts = broker_hosts(transport_url)
    speak = (not _REPLIES_OPEN.is_set()
             and transport_url.split(':', 1)[0].startswith('rabbit'))
    for host, port in hosts:
        try:
            sock = socket.create_connection((host, port),
                                            timeout=_PROBE_TIMEOUT)
        except OSError:
            continue
        if speak:
            # A connection that spoke AMQP is not held: the broker would
            # answer on it and wait for the handshake to go on.
            with sock:
                try:
                    sock.sendall(_AMQP_HEADER)
                    if not sock.recv(1):
                        continue
                except OSError:
                    continue
        else:
            _HELD.hold(transport_url, sock)
        return None
    return ', '.join('%s:%s' % hp for hp in hosts) or None


@functools.lru_cache(maxsize=8)
def broker_hosts(transport_url):
    """(host, port) of each broker of a URL; () for in-process transports."""
    url = messaging.TransportURL.parse(CONF, transport_url)
    if url.transport in ('fake', 'kafka'):
        return ()
    return tuple((h.hostname, h.port or 5672) for h in url.hosts
                 if h.hostname)


def answered():
    """A call of this process was answered: its reply connection is
    open."""
    _REPLIES_OPEN.set()


def check():
    """503 when the broker refuses a TCP connection, or does not speak
    before this process's first answer: nothing was sent (see
    ``unreachable``)."""
    if rpc.transport() != 'oslo' or not broker_hosts(CONF.transport_url):
        return  # JSON-RPC has no broker
    if _REPLIES_OPEN.is_set() and _HELD.standing(CONF.transport_url):
        return
    down = unreachable(CONF.transport_url)
    if down:
        raise exception.ServiceUnavailable(
            reason='The message broker (%s) cannot be reached; the '
                   'request was not carried out, please retry '
                   'later.' % down)
