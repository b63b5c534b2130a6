"""Pecan hooks: request context, RPC client, version, errors (the
request's route and its checks: ``api/routes.py``)."""

import threading

from oslo_log import log as logging
from pecan import hooks

from ironic_lite.api import errors
from ironic_lite.api import versions
from ironic_lite.common import context
from ironic_lite import conf

CONF = conf.CONF
LOG = logging.getLogger(__name__)


class ContextHook(hooks.PecanHook):
    """Builds ``pecan.request.context`` from the identity of the request.

    With ``noauth`` every request acts as a system administrator; with
    ``http_basic`` and ``keystone`` the identity comes from the
    authentication middleware (``X-User-Id``, ``X-Roles``,
    ``X-Project-Id``, ``X-Project-Name``, ``OpenStack-System-Scope``; for
    ``keystone``, those keystonemiddleware's auth_token sets from the
    validated token), read by oslo.context's ``from_environ``.
    """

    def before(self, state):
        environ = state.request.environ
        if CONF.auth_strategy == 'noauth':
            ctx = context.RequestContext.from_environ(
                environ, is_admin=True, roles=['admin'], system_scope='all')
        else:
            ctx = context.RequestContext.from_environ(environ)
        state.request.context = ctx


class RPCHook(hooks.PecanHook):
    """Gives each request ``pecan.request.rpcapi``, one shared client.

    The client is made on first use (so the API starts without a broker)
    by ``factory``, normally ``ConductorAPI``.
    """

    def __init__(self, factory):
        self._factory = factory
        self._rpcapi = None
        self._lock = threading.Lock()
        self._lazy = _Lazy(self)

    def get(self):
        if self._rpcapi is None:
            with self._lock:
                if self._rpcapi is None:
                    self._rpcapi = self._factory()
        return self._rpcapi

    def before(self, state):
        state.request.rpcapi = self._lazy


class _Lazy(object):
    """The hook's client, made when a controller first uses it (one
    object for every request, where a class made per request cost a
    hundredth of a small GET)."""

    def __init__(self, hook):
        self._hook = hook

    def __getattr__(self, name):
        return getattr(self._hook.get(), name)


class RequestInfoHook(hooks.PecanHook):
    """``pecan.request.version`` and ``pecan.request.public_url``.

    Set before routing, which already needs the version (resources that
    are too new for the request are 404s).
    """

    def on_route(self, state):
        request = state.request
        request.version = request.environ.get(versions.ENVIRON_KEY,
                                              versions.MIN_VERSION)
        public = CONF.api.public_endpoint or request.application_url
        request.public_url = public.rstrip('/')


class ErrorHook(hooks.PecanHook):
    """Turns any exception raised in a controller into Ironic's error."""

    def on_error(self, state, exc):
        return errors.from_exception(exc)
