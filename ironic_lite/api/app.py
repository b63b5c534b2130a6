"""The ironic-lite API WSGI application."""

from oslo_middleware import http_proxy_to_wsgi
import pecan
from pecan.middleware import recursive

from ironic_lite.api import auth
from ironic_lite.api.controllers import root
from ironic_lite.api import hooks
from ironic_lite.api import json_out
from ironic_lite.api import lanes
from ironic_lite.api import large_pages
from ironic_lite.api import metrics
from ironic_lite.api import middleware
from ironic_lite import conf
from ironic_lite import objects

CONF = conf.CONF

# Paths that need no credentials: regular expressions matching the whole
# path, without a trailing slash (Ironic's public_api_routes).  The
# ramdisk's agent has no credentials: it proves itself with its token.
PUBLIC_PATHS = ('', '/v1', '/v1/lookup', '/v1/heartbeat(/[^/]+)?',
                '/v1/continue_inspection')


# A handler without a ``renders`` attribute is left to pecan.
_UNMARKED = object()


def _default_rpcapi():
    from ironic_lite.conductor import rpcapi
    return rpcapi.ConductorAPI()


class Application(pecan.Pecan):
    """pecan's application, dispatching by the root controller's route
    table directly.

    pecan's own lookup (``Pecan.route``) would find the root's ``_route``
    and, before calling it, inspect its signature to choose between two
    conventions: ``pecan.util.getargspec`` builds a new ``namedtuple``
    class for that on every request, about a tenth of a small request's
    time (doc/source/admin/performance.rst).  ``route`` is the documented
    method of ``pecan.core.Pecan`` that finds a path's controller; the
    root's ``_route`` takes (path segments, request), as pecan calls it.
    pecan's lookup adds nothing here: no ``pecan.secure`` controllers,
    and canonical paths are not enforced.
    """

    def __call__(self, environ, start_response):
        """pecan's answer, without its last reference cycle.

        pecan keeps the request and the response in the environ
        (``pecan.locals``, read only by its debug middleware) while the
        request refers to the environ: the cycle kept every response --
        a page's body among it -- until a full collection, which the
        service's tuned collector runs rarely.  Four agents walking the
        ports' pages left 50 bodies of 640 KB alive and an API process
        at 400 MB.  Without the cycle a response is freed once sent."""
        try:
            return super().__call__(environ, start_response)
        finally:
            environ.pop('pecan.locals', None)

    def route(self, req, node, path):
        route = getattr(node, '_route', None)
        if route is None:
            return super().route(req, node, path)
        return route(path.split('/')[1:], req)

    def invoke_controller(self, controller, args, kwargs, state):
        """Call a root handler that declares how its answer is rendered.

        ``Pecan.invoke_controller`` (the documented method that calls the
        controller ``find_controller`` chose) first reads the handler's
        signature with ``pecan.util.getargspec``, which builds a new
        ``namedtuple`` class on every call (about 50 us), to drop query
        arguments the handler does not take.  The root's two handlers take
        none (the route table has checked the query, and pecan passes
        them nothing), so a handler marked ``renders`` (``'json'``, or
        ``None`` for no body) is called here with pecan's own rendering
        (``Pecan.render``) and its negotiated content type; any other
        goes to pecan.
        """
        renders = getattr(controller, 'renders', _UNMARKED)
        if renders is _UNMARKED:
            return super().invoke_controller(controller, args, kwargs,
                                             state)
        result = controller(*args, **kwargs)
        negotiated = state.request.pecan
        if renders:
            state.response.body = json_out.json_bytes(
                result, lambda: self.render(renders, result))
            negotiated['content_type'] = 'application/json'
        elif result:
            state.response.text = result
        # None when the handler wants no Content-Type (a 202 without body).
        if negotiated['content_type']:
            state.response.content_type = negotiated['content_type']


def setup_app(conf=None, rpcapi_factory=None):
    """The API as a WSGI application.

    :param conf: optional dict of pecan application settings.
    :param rpcapi_factory: callable making the conductor RPC client (tests
        give a fake); by default ``ConductorAPI``, made on first use.
    """
    objects.register_all()
    settings = dict(conf or {})
    # pecan.make_app with our Application: the same wrapping, less
    # debug mode (never on here).
    app = Application(
        root.RootController(),
        hooks=[hooks.RequestInfoHook(), hooks.ContextHook(),
               hooks.RPCHook(rpcapi_factory or _default_rpcapi),
               hooks.ErrorHook()],
        force_canonical=False,
        guess_content_type_from_ext=False,
        **settings)
    return _wrap(recursive.RecursiveMiddleware(app))


def _wrap(app):
    """The middleware around the pecan application, innermost first."""
    if CONF.auth_strategy == 'http_basic':
        app = auth.BasicAuthMiddleware(
            app, CONF.http_basic_auth_user_file, PUBLIC_PATHS)
    elif CONF.auth_strategy == 'keystone':
        from ironic_lite.api import keystone
        app = keystone.KeystoneAuthMiddleware(app, CONF, PUBLIC_PATHS)
    # Inside the error middleware: a body over
    # [oslo_middleware]max_request_body_size is a 413 with Ironic's error
    # body, refused before it is read (or as soon as a chunked body is).
    # Reads and checks the JSON body: inside the size limit.
    app = middleware.RequestMiddleware(app)
    # A request that waited in the server's lane too long: 503, before it
    # is read or authenticated (nothing is done for it).
    app = lanes.ExpiredRequests(app)
    app = middleware.SizeLimit(app)
    app = middleware.ParsableErrorMiddleware(app)
    app = middleware.VersionMiddleware(app)
    # Installed only when enabled (the option is read at start, not on a
    # reload): otherwise it would look at the option for every request
    # and do nothing, at 7% of a small request's time.
    CONF.register_opts(http_proxy_to_wsgi.OPTS, group='oslo_middleware')
    if CONF.oslo_middleware.enable_proxy_headers_parsing:
        app = http_proxy_to_wsgi.HTTPProxyToWSGI(app)
    # In the application, not the server: ironic-api, ironic-lite and any
    # WSGI server (uwsgi, gunicorn ...) log each request once, with the
    # request id RequestId gives it.
    app = middleware.AccessLog(app)
    # Outside the access log: its line is written before memory is
    # given back after a large page.
    app = large_pages.ReturnMemory(app)
    # [metrics]prometheus_api_enabled: /metrics, and each request's
    # latency (outside the access log: its time is the client's).
    app = metrics.wrap(app)
    if CONF.healthcheck.enabled:
        # Before the API's own checks and authentication, as in Ironic.
        from ironic_lite.api import healthcheck
        app = healthcheck.HealthcheckRouter(app, CONF)
    app = middleware.RequestId(app)
    return app
