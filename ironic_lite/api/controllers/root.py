"""pecan's root: the dispatch of every request through the route table
(``api/route_table.py``); as in Ironic, ``/nodes`` is ``/v1/nodes``."""

import pecan

from ironic_lite.api import metrics
from ironic_lite.api import route_table
from ironic_lite.api import routes


class RootController(object):
    """pecan's root: ``_route`` finds the route of the request in the
    table (404/405/version gate), and one of two exposed methods checks
    the request against it and calls the handler -- with a JSON body, or
    without one (202/204)."""

    @pecan.expose()
    def _route(self, args, request=None):
        request = request or pecan.request
        route, captured = route_table.ROUTER.match(
            request.method, routes.path_segments(args),
            request.version.minor)
        request.route, request.route_captured = route, captured
        request.environ[metrics.ROUTE_KEY] = route.path
        return (self.serve_empty if route.empty else self.serve_json), []

    # ``renders``: how ``app.Application.invoke_controller`` renders the
    # answer without pecan's per-request signature inspection; the
    # ``expose`` arguments still give pecan its content negotiation.
    @pecan.expose('json')
    def serve_json(self):
        return _serve(pecan.request)
    serve_json.renders = 'json'

    @pecan.expose(content_type='application/json')
    def serve_empty(self):
        return _serve(pecan.request)
    serve_empty.renders = None


def _serve(request):
    route = request.route
    values = route.checked_values(request, request.version.minor)
    return route.call(request.route_captured, values)
