"""The conductor's JSON-RPC server (``[DEFAULT]rpc_transport = json-rpc``).

Ironic's wire (ironic/common/json_rpc/server.py): a JSON-RPC 2.0 request
POSTed to ``/``, keyword ``params`` only, with the request context in
``params.context`` and the RPC version in ``params["rpc.version"]``; the
answer is ``result``, or ``error`` with the exception's ``code``,
``message`` and, in ``data.class``, its module and class, so that the
caller re-raises it (``data.kwargs`` carries its keyword arguments too,
as oslo.messaging does).  A request without ``id`` is a notification
(a cast): answered 204, no body.

A call is dispatched through oslo.messaging's RPCDispatcher, the one an
oslo.messaging server would use (common/rpc.py builds it): the same
version check, access policy (no private method) and serializer.  The
HTTP server is the API's (common/wsgi.py): a bounded pool of threads
(``[DEFAULT]executor_thread_pool_size``, as oslo.messaging's threading
executor), kept-alive connections, and a stop that finishes the calls in
flight.  Authentication: ``noauth``, ``http_basic`` (an htpasswd file
of bcrypt hashes, ``[json_rpc]http_basic_auth_user_file``) or
``keystone`` (a token and one of ``[json_rpc]allowed_roles``:
json_rpc_keystone.py).
"""

import hashlib
import os
import threading

from oslo_log import log as logging
from oslo_middleware import basic_auth
from oslo_serialization import jsonutils
import webob
import webob.exc

from ironic_lite.common import json_rpc_keystone
from ironic_lite.common import wsgi
from ironic_lite.conf import json_rpc as json_rpc_conf

LOG = logging.getLogger(__name__)

# The conductor manager's life cycle: public methods, never called over
# RPC (Ironic's deny list, with ironic-lite's names).
DENIED = frozenset(['init_host', 'register', 'drain', 'del_host', 'target'])
# JSON-RPC 2.0's codes for requests it cannot read.
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
# Seconds an idle kept-alive connection stays open.
IDLE_TIMEOUT = 120


def _error(request_id, code, message, exc=None):
    """A JSON-RPC error response; ``exc`` names its class and arguments
    in ``data`` so that the client re-raises it."""
    error = {'code': code, 'message': message}
    if exc is not None:
        cls = type(exc)
        error['data'] = {
            'class': '%s.%s' % (cls.__module__, cls.__name__),
            'kwargs': jsonutils.to_primitive(getattr(exc, 'kwargs', {}),
                                             convert_instances=False,
                                             fallback=str)}
    return {'jsonrpc': '2.0', 'id': request_id, 'error': error}


def _json(status, body, headers=()):
    response = webob.Response(status=status, headerlist=list(headers),
                              content_type='application/json',
                              charset='UTF-8')
    response.body = jsonutils.dump_as_bytes(body)
    return response


class BasicAuth(object):
    """HTTP basic authentication against an htpasswd file.  A checked
    Authorization header is remembered (its SHA-256) while the file is
    unchanged: bcrypt costs a fraction of a second, paid once per
    caller, not once per call."""

    def __init__(self, auth_file):
        basic_auth.validate_auth_file(auth_file)
        self.auth_file = auth_file
        self._known = set()
        self._stamp = None
        self._lock = threading.Lock()

    def check(self, environ):
        """None, or the 401/400 response of a request not allowed."""
        header = environ.get('HTTP_AUTHORIZATION', '')
        digest = hashlib.sha256(header.encode('utf-8')).digest()
        stamp = self._file_stamp()
        with self._lock:
            if stamp != self._stamp:
                self._known.clear()
                self._stamp = stamp
            if digest in self._known:
                return None
        try:
            token = basic_auth.parse_header(dict(environ))
            username, password = basic_auth.parse_token(token)
            basic_auth.authenticate(self.auth_file, username, password)
        except webob.exc.HTTPException as exc:
            headers = []
            if exc.code == 401:
                headers.append(('WWW-Authenticate',
                                'Basic realm="ironic-lite JSON-RPC"'))
            return _json(exc.code, _error(None, exc.code, exc.title),
                         headers)
        with self._lock:
            self._known.add(digest)
        return None

    def _file_stamp(self):
        try:
            st = os.stat(self.auth_file)
        except OSError:
            return None
        return (st.st_mtime_ns, st.st_size, st.st_ino)


class Application(object):
    """The WSGI application: one JSON-RPC request per POST.

    ``dispatch(ctxt, message)`` is rpc.py's: it runs the message
    (``{'method', 'args', 'version'}``) through the RPC dispatcher and
    returns the serialized result, or raises the conductor's exception.
    """

    def __init__(self, dispatch, auth=None):
        self.dispatch = dispatch
        self.auth = auth

    def __call__(self, environ, start_response):
        return self.respond(environ)(environ, start_response)

    def respond(self, environ):
        if self.auth is not None:
            refused = self.auth.check(environ)
            if refused is not None:
                return refused
        request = webob.Request(environ)
        if request.method != 'POST':
            return _json(405, _error(None, 405,
                                     'Only POST method can be used'),
                         [('Allow', 'POST')])
        try:
            body = jsonutils.loads(request.body)
        except (ValueError, RecursionError):  # not JSON, or nested too deep
            return _json(200, _error(None, PARSE_ERROR,
                                     'Invalid JSON received by RPC server'))
        answer = self.answer(body)
        if answer is None:
            return webob.Response(status=204)
        return _json(200, answer)

    def answer(self, body):
        """The response to a decoded request; None for a notification
        that was carried out or failed (JSON-RPC answers neither)."""
        request_id = body.get('id') if isinstance(body, dict) else None
        params = body.get('params', {}) if isinstance(body, dict) else None
        method = body.get('method') if isinstance(body, dict) else None
        if (not isinstance(body, dict) or body.get('jsonrpc') != '2.0'
                or not isinstance(method, str) or not method
                or not isinstance(params, dict)
                or not isinstance(params.get('context', {}), dict)):
            return _error(request_id, INVALID_REQUEST,
                          'Invalid request object received by RPC server')
        if method in DENIED:
            return _error(request_id, METHOD_NOT_FOUND,
                          'Method %s was not found' % method)
        params = dict(params)
        ctxt = params.pop('context', {})
        message = {'method': method, 'args': params}
        version = params.pop('rpc.version', None)
        if version is not None:
            message['version'] = version
        try:
            result = self.dispatch(ctxt, message)
        except Exception as exc:
            if request_id is None:
                return None
            return _error(request_id, getattr(exc, 'code', 500) or 500,
                          str(exc), exc)
        if request_id is None:
            return None
        return {'jsonrpc': '2.0', 'id': request_id, 'result': result}


def _auth(conf):
    """The HTTP basic check, for ``http_basic``; Keystone is a
    middleware around the application (``Server``)."""
    if json_rpc_conf.auth_strategy(conf) == 'http_basic':
        return BasicAuth(conf.json_rpc.http_basic_auth_user_file)
    return None


class Server(object):
    """What RPCService starts and stops: ``start``, ``stop``, ``wait``,
    as an oslo.messaging RPC server."""

    def __init__(self, conf, dispatch, dispatcher=None):
        if conf.json_rpc.use_ssl:
            raise ValueError(
                '[json_rpc]use_ssl: the conductor does not terminate TLS; '
                'put a TLS proxy in front of it and set '
                '[json_rpc]client_use_ssl on the API services')
        self.dispatcher = dispatcher
        self.app = Application(dispatch, _auth(conf))
        if json_rpc_conf.auth_strategy(conf) == 'keystone':
            self.app = json_rpc_keystone.protect(self.app, conf)
        self.service = wsgi.WSGIService(
            'ironic-lite JSON-RPC', self.app, conf.json_rpc.host_ip,
            conf.json_rpc.port, threads=conf.executor_thread_pool_size,
            shutdown_timeout=conf.graceful_shutdown_timeout or 60,
            client_socket_timeout=IDLE_TIMEOUT, request_read_timeout=30,
            max_connections=1000)

    @property
    def port(self):
        return self.service.server.effective_port

    def start(self):
        self.service.start()

    def stop(self):
        """Stop listening, finish the calls in flight."""
        self.service.stop()

    def wait(self):
        self.service.wait()
