"""The JSON-RPC client of ``[DEFAULT]rpc_transport = json-rpc``: what the
API (conductor/rpcapi.py) calls the conductors with when there is no
message broker.

It has the interface rpcapi uses of oslo.messaging's RPCClient --
``prepare``, ``call``, ``cast``, ``can_send_version`` -- and fails the way
it does, so that conductor/rpc_errors.py turns what goes wrong into the
same answers: a call above the version cap is refused before anything is
sent (RPCVersionCapError), a conductor that does not answer in time is a
MessagingTimeout, a conductor's own error is re-raised here with its
class, message and code.  Two failures oslo.messaging has no class for
get one: ``ConductorUnreachable`` (no connection: nothing was sent) and
``ConnectionLost`` (the connection broke after the request was sent).

The wire is Ironic's (ironic/common/json_rpc/client.py): a JSON-RPC 2.0
POST to ``http(s)://<host>:<[json_rpc]port>/`` where ``<host>`` is the
conductor's host name, which may carry its own ``:<port>``; ``params``
are the serialized keyword arguments, the request context (``context``)
and the RPC version (``rpc.version``).  Connections are kept alive, in a
pool per conductor shared by the threads of the process.  With
``auth_strategy = keystone`` each request carries a token
(json_rpc_keystone.py); a conductor that refuses it with 401 gets the
request once more with a new token (nothing ran the first time).
"""

import threading

from oslo_log import log as logging
import oslo_messaging as messaging
from oslo_serialization import jsonutils
from oslo_utils import importutils
from oslo_utils import netutils
from oslo_utils import uuidutils
import urllib3

from ironic_lite.common import json_rpc_keystone
from ironic_lite.conf import json_rpc as json_rpc_conf

LOG = logging.getLogger(__name__)

# The conductor's exceptions re-raised with their own class (as
# oslo.messaging's allowed_remote_exmods); any other is a RemoteError.
ALLOWED_MODULES = ('ironic_lite.common.exception',)
# Connections kept alive per conductor, at least (as many as the API's
# request threads, [api]threads, when more; a call beyond them opens
# a connection closed after use).
POOL_SIZE = 16
# Seconds to open a connection: a conductor that does not accept one by
# then is not there.
CONNECT_TIMEOUT = 5


class ConductorUnreachable(messaging.MessageDeliveryFailure):
    """No connection to the conductor: the request was not sent."""


class ConnectionLost(messaging.MessagingException):
    """The connection broke after the request was sent: it may or may not
    have been carried out."""


def can_send_version(version, version_cap):
    """Whether ``version`` is within ``version_cap`` (same major, minor
    not above), as oslo.messaging's RPCClient decides."""
    if version is None or version_cap is None:
        return True
    major, minor = (int(x) for x in version.split('.', 1))
    cap_major, cap_minor = (int(x) for x in version_cap.split('.', 1))
    return major == cap_major and minor <= cap_minor


class _Pools(object):
    """One urllib3 PoolManager per process: a pool of kept-alive
    connections per conductor, built from the options at first use; and,
    with Keystone, the source of the calls' tokens."""

    def __init__(self):
        self._lock = threading.Lock()
        self._manager = None
        self._tokens = None

    def get(self, conf):
        with self._lock:
            if self._manager is None:
                self._manager = self._build(conf)
            return self._manager

    def tokens(self, conf, timeout):
        """The Keystone token source, or None (another strategy).  One
        that cannot be built is not kept: every call says why."""
        if json_rpc_conf.auth_strategy(conf) != 'keystone':
            return None
        with self._lock:
            if self._tokens is None:
                self._tokens = json_rpc_keystone.Tokens(conf, timeout)
            return self._tokens

    @staticmethod
    def _build(conf):
        group = conf.json_rpc
        headers = {'Content-Type': 'application/json'}
        if json_rpc_conf.auth_strategy(conf) == 'http_basic':
            headers.update(urllib3.make_headers(
                basic_auth='%s:%s' % (group.username or '',
                                      group.password or '')))
        kwargs = {'headers': headers}
        if group.insecure:
            kwargs['cert_reqs'] = 'CERT_NONE'
        else:
            kwargs['cert_reqs'] = 'CERT_REQUIRED'
            if group.cafile:
                kwargs['ca_certs'] = group.cafile
        if group.certfile:
            kwargs['cert_file'] = group.certfile
            kwargs['key_file'] = group.keyfile
        # Only a connection that could not be opened is retried (nothing
        # was sent); a request is never sent twice.
        retries = urllib3.Retry(total=1, connect=1, read=0, redirect=0,
                                status=0, other=0)
        return urllib3.PoolManager(num_pools=64,
                                   maxsize=max(POOL_SIZE, conf.api.threads),
                                   retries=retries, **kwargs)

    def clear(self):
        with self._lock:
            if self._manager is not None:
                self._manager.clear()
            self._manager = None
            self._tokens = None


POOLS = _Pools()


class Client(object):
    """An RPC client over JSON-RPC; ``prepare(server=<conductor host>)``
    chooses the conductor.  ``serializer`` is rpc.py's
    RequestContextSerializer; ``timeout`` the seconds to wait for an
    answer."""

    def __init__(self, conf, serializer, version_cap=None, server=None,
                 version=None, timeout=None):
        self.conf = conf
        self.serializer = serializer
        self.version_cap = version_cap
        self.server = server
        self.version = version
        self.timeout = timeout

    def prepare(self, server=None, version=None, version_cap=None,
                timeout=None, **_ignored):
        """A client for ``server`` at ``version``; what else RPCClient's
        prepare takes (topic, retry...) means nothing without a broker."""
        return Client(self.conf, self.serializer,
                      version_cap=version_cap or self.version_cap,
                      server=server or self.server,
                      version=version or self.version,
                      timeout=timeout or self.timeout)

    def can_send_version(self, version=None):
        return can_send_version(version or self.version, self.version_cap)

    def call(self, ctxt, method, **kwargs):
        result = self._send(ctxt, method, kwargs, notify=False)
        return self.serializer.deserialize_entity(ctxt, result)

    def cast(self, ctxt, method, **kwargs):
        """A JSON-RPC notification: sent, no answer read but the status."""
        self._send(ctxt, method, kwargs, notify=True)

    def url(self):
        """The conductor's URL: its host name, with the port it carries
        or ``[json_rpc]port``."""
        group = self.conf.json_rpc
        host, port = netutils.parse_host_port(self.server,
                                              default_port=group.port)
        scheme = ('https' if group.use_ssl or group.client_use_ssl
                  else 'http')
        return '%s://%s:%d/' % (scheme, netutils.escape_ipv6(host),
                                int(port))

    def _body(self, ctxt, method, kwargs, notify):
        if not self.can_send_version(self.version):
            raise messaging.RPCVersionCapError(
                version=self.version, version_cap=self.version_cap)
        params = {name: self.serializer.serialize_entity(ctxt, value)
                  for name, value in kwargs.items()}
        params['context'] = self.serializer.serialize_context(ctxt)
        if self.version is not None:
            params['rpc.version'] = self.version
        body = {'jsonrpc': '2.0', 'method': method, 'params': params}
        if not notify:
            body['id'] = (getattr(ctxt, 'request_id', None)
                          or uuidutils.generate_uuid())
        return jsonutils.dump_as_bytes(body)

    def _send(self, ctxt, method, kwargs, notify):
        body = self._body(ctxt, method, kwargs, notify)
        tokens = POOLS.tokens(self.conf, self.timeout)
        response = self._post(method, body, tokens)
        if tokens is not None and response.status == 401:
            # auth_token refused the token (revoked, or expired early):
            # nothing ran; once more with a new one.
            tokens.invalidate()
            response = self._post(method, body, tokens)
        if tokens is not None and response.status == 503:
            # auth_token's answer when it cannot reach Keystone (the
            # conductor's own errors are JSON-RPC errors in a 200).
            LOG.warning('Conductor %s cannot validate the token of %s: '
                        'Keystone is unreachable from there',
                        self.server, method)
            raise json_rpc_keystone.IdentityUnavailable(
                'Conductor %s cannot reach Keystone' % self.server)
        return _answer(self.server, method, response, notify)

    def _post(self, method, body, tokens):
        """The conductor's HTTP response to ``body``."""
        pool = POOLS.get(self.conf)
        headers = None
        if tokens is not None:
            headers = dict(pool.headers, **tokens.headers())
        timeout = urllib3.Timeout(connect=CONNECT_TIMEOUT,
                                  read=self.timeout)
        try:
            return pool.request('POST', self.url(), body=body,
                                headers=headers, timeout=timeout)
        except urllib3.exceptions.HTTPError as err:
            raise _transport_error(self.server, method, err) from None


def _transport_error(server, method, err):
    """The messaging error for what urllib3 raised: whether the request
    was sent decides between ConductorUnreachable and the others."""
    if isinstance(err, urllib3.exceptions.MaxRetryError):
        err = err.reason or err
    if isinstance(err, (urllib3.exceptions.NewConnectionError,
                        urllib3.exceptions.ConnectTimeoutError)):
        return ConductorUnreachable(
            'Conductor %s cannot be reached: %s' % (server, err))
    if isinstance(err, urllib3.exceptions.ReadTimeoutError):
        return messaging.MessagingTimeout(
            'Timed out waiting for a reply from conductor %s to %s'
            % (server, method))
    return ConnectionLost('The connection to conductor %s broke during %s: '
                          '%s' % (server, method, err))


def _answer(server, method, response, notify):
    """The ``result`` of a JSON-RPC response; its ``error`` raised."""
    if response.status in (401, 403):
        LOG.error('Conductor %s refused the credentials of %s (HTTP %s): '
                  'check the [json_rpc] auth options here (auth_strategy, '
                  'username, password, auth_type...) and the conductor\'s '
                  '(allowed_roles, http_basic_auth_user_file)', server,
                  method, response.status)
        raise json_rpc_keystone.AuthMisconfigured(
            'Conductor %s refused the credentials (HTTP %s)'
            % (server, response.status))
    if notify and response.status in (200, 204):
        return None
    try:
        answer = jsonutils.loads(response.data)
        if not isinstance(answer, dict):
            raise ValueError('not an object')
    except ValueError:
        LOG.error('Conductor %s answered %s with HTTP %s and no JSON-RPC '
                  'response', server, method, response.status)
        raise messaging.RemoteError('InvalidResponse',
                                    'HTTP %s' % response.status)
    if answer.get('error') is not None:
        raise remote_error(answer['error'])
    return answer.get('result')


def remote_error(error):
    """The exception a JSON-RPC ``error`` stands for: the conductor's own
    class (``data.class``) when it is one of ALLOWED_MODULES, rebuilt
    from its message, code and keyword arguments; else a RemoteError
    naming the class (its message may quote SQL or paths: rpc_errors.py
    keeps it out of the API's answer)."""
    data = error.get('data') if isinstance(error, dict) else None
    qualified = data.get('class', '') if isinstance(data, dict) else ''
    message = error.get('message') if isinstance(error, dict) else None
    module, _dot, name = qualified.rpartition('.')
    if module in ALLOWED_MODULES:
        kwargs = dict(data.get('kwargs') or {})
        kwargs['code'] = error.get('code', 500)
        try:
            return importutils.import_class(qualified)(message, **kwargs)
        except (ImportError, TypeError, ValueError):
            LOG.warning('Cannot rebuild the conductor error %s', qualified)
    return messaging.RemoteError(name or 'UnknownError', message)
