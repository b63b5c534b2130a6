"""Pecan hooks: request context, RPC client, version, errors."""

import threading

from oslo_log import log as logging
from pecan import hooks

from urllib import parse

from ironic_lite.api import errors
from ironic_lite.api import middleware
from ironic_lite.api import schemas
from ironic_lite.api import validation
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

    def get(self):
        if self._rpcapi is None:
            with self._lock:
                if self._rpcapi is None:
                    self._rpcapi = self._factory()
        return self._rpcapi

    def before(self, state):
        hook = self

        class _Lazy(object):
            """Creates the client only when a controller first uses it."""

            def __getattr__(self, name):
                return getattr(hook.get(), name)

        state.request.rpcapi = _Lazy()


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


class ContractHook(hooks.PecanHook):
    """Checks a request against the contract of its route.

    Runs after routing (an unknown path or a resource too new for the
    request is already a 404/405) and before the controller, so before any
    lookup, lock or RPC: the query parameters (unknown, repeated, too new,
    malformed UUIDs), and the body (parsed and checked as JSON by
    ``middleware.RequestMiddleware``) against the route's JSON schema for
    the request's version.  The controller reads the results as
    ``request.contract_query`` and ``request.contract_body``.
    """

    BODY_METHODS = ('POST', 'PUT', 'PATCH')

    def before(self, state):
        request = state.request
        route = schemas.find(request.method, request.path)
        request.contract_route = route
        items = parse.parse_qsl(request.query_string,
                                keep_blank_values=True, errors='strict')
        if route is None:
            request.contract_query = dict(items)
            return
        minor = request.version.minor
        request.contract_query = validation.check_query(route, items, minor)
        if request.method not in self.BODY_METHODS:
            return
        document = request.environ.get(middleware.JSON_BODY_KEY, {})
        request.contract_body = document
        schema = route.body_schema(minor)
        if schema is schemas.PATCH:
            # Before the schema, whose cost grows with the length.
            validation.check_patch_length(document,
                                          CONF.api.max_patch_operations)
        if schema is not None:
            validation.check_schema(schema, document, route.what)


class ErrorHook(hooks.PecanHook):
    """Turns any exception raised in a controller into Ironic's error."""

    def on_error(self, state, exc):
        return errors.from_exception(exc)
