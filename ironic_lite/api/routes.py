"""The vocabulary of the route table: ``Route``, ``Gate``, the ``Router``.

Every method on every path the API serves is one ``Route``, declared
beside its handler (the ``ROUTES`` list at the end of each controller
module)::

    Route('GET', '/v1/nodes/{node_ident}', NodesController.get_one,
          query=schema.SHOW_QUERY, doc='show a node')

with the microversion it appears at and how an older request is answered
(``Gate``), its query parameters (typed: ``query.Param``), its body JSON
schema per microversion, the read-only fields of a PATCH and one line
for the API reference.  ``api/route_table.py`` lists every controller's
``ROUTES`` and builds the ``Router`` of them (this module imports no
controller: the controllers import it); the root controller's ``_route``
asks that router for the route of a request: a path without a route
is a 404 and a known path with another method a 405, by construction;
then the request's query and body are checked once, against that route,
and the handler is called with the values parsed: the path's captured
segments, the query parameters as keyword arguments (ints, booleans,
lists) and ``body=``.

A placeholder named like an argument of the handler's class constructor
(``node_ident`` of ``PortsController``) goes to the constructor: it names
the parent of a sub-resource; the others go to the handler, in the order
of the path.
"""

import inspect
import sys
from urllib import parse

import webob.exc

from ironic_lite.api import body_schema
from ironic_lite.api import json_body
from ironic_lite.api import query as q
from ironic_lite.common import exception

ANY_METHOD = '*'


class Gate(object):
    """How a route answers a request older than its microversion.

    :param status: 404 (the path does not exist yet), 405 or 406.
    :param message: the fault string (None: the status's default).
    :param other_methods: the status of a method the path does not
        declare while none of its routes exists at the request's version
        (405 for ``/v1/shards``, as Ironic; 404 elsewhere).
    :param allow: the ``Allow`` of a 405 (default: the route's method),
        when Ironic names the methods of the resource it routes the older
        request to.
    :param route: a ``Route`` that serves the older request instead (its
        path captures the same segments): Ironic routes the path
        elsewhere below the version (``GET /v1/nodes/<n>/traits`` is the
        node's ``?fields=traits`` there).
    """

    def __init__(self, status=404, message=None, other_methods=404,
                 allow=None, route=None):
        self.status, self.message = status, message
        self.other_methods = other_methods
        self.allow, self.route = allow, route

    def error(self, status, method, allow):
        if status == 405:
            return webob.exc.HTTPMethodNotAllowed(
                detail=self.message or not_allowed(method),
                allow=list(self.allow or allow))
        if status == 406:
            return exception.NotAcceptable(self.message)
        return webob.exc.HTTPNotFound(detail=self.message)


NOT_FOUND = Gate()


def not_allowed(method):
    return 'The method %s is not allowed for this resource.' % method


def _owner_of(handler):
    """The class a handler function is defined in (None: a function)."""
    owner = sys.modules[handler.__module__]
    parts = handler.__qualname__.split('.')[:-1]
    for part in parts:
        owner = getattr(owner, part)
    return owner if parts else None


class Route(object):
    """One method on one path: its handler and what its request may hold.

    :param path: ``/v1/nodes/{node_ident}/states/power`` ({x}: a segment).
    :param handler: the function serving it (a method of ``owner``).
    :param owner: the handler's class, when it inherits the handler.
    :param query: the ``query.Param`` of the route (none: any query
        parameter is refused; ``query.ANY_QUERY``: ignored).
    :param body: {since_minor: JSON schema} of the body, or None; the
        schema of the highest ``since`` not above the request applies.
    :param what: the noun of Ironic's schema messages ("Schema error for
        node: ..."); None for "Schema error: ..."; ``body_schema.ARGS``.
    :param read_only: fields of the resource a PATCH may not change.
    :param unknown: how an unknown query parameter is worded.
    :param since: the minor microversion the route appears at; ``older``
        answers an older request.
    :param empty: the answer has no body (default: PUT and DELETE).
    :param listed: shown in the API reference.
    :param any_method: served whatever the method (``/``, as Ironic).
    :param path_args: {placeholder: check(value)} of the path segments
        Ironic validates before anything else (400 with its message).
    """

    def __init__(self, method, path, handler, owner=None, query=(),
                 body=None, what=None, read_only=(), unknown=q.UNKNOWN_ARGS,
                 since=1, older=NOT_FOUND, empty=None, listed=True,
                 any_method=False, path_args=None, doc=''):
        self.method, self.path, self.handler = method, path, handler
        self.path_args = path_args or {}
        self.query = (None if query is q.ANY_QUERY
                      else {p.name: p for p in query})
        self.body, self.what = body, what
        self.read_only, self.unknown = tuple(read_only), unknown
        self.since, self.older, self.doc = since, older, doc
        self.empty = method in ('PUT', 'DELETE') if empty is None else empty
        self.listed, self.any_method = listed, any_method
        self.segments = tuple(s for s in path.split('/') if s)
        self.owner = owner or _owner_of(handler)
        captures = [s[1:-1] for s in self.segments if s.startswith('{')]
        init = (inspect.signature(self.owner.__init__).parameters
                if self.owner else {})
        self.captures = captures
        # (index, name) of the captures the owner's constructor takes,
        # indexes of those the handler takes.
        self.owner_args = [(i, n) for i, n in enumerate(captures)
                           if n in init]
        self.handler_args = [i for i, n in enumerate(captures)
                             if n not in init]

    def body_schema(self, minor):
        """The body schema at ``minor`` (None: no body expected)."""
        found = None
        for since in sorted(self.body or ()):
            if since <= minor:
                found = self.body[since]
        return found

    def call(self, captured, kwargs):
        """The handler's answer, given the checked values."""
        args = [captured[i] for i in self.handler_args]
        if self.owner is None:
            return self.handler(*args, **kwargs)
        owner = self.owner(**{n: captured[i] for i, n in self.owner_args})
        return self.handler(owner, *args, **kwargs)

    def checked_values(self, request, minor):
        """The handler's keyword arguments: the query's typed values and
        ``body``, after the checks of this route (400/406/415): the path
        segments first, as Ironic's ``args.validate`` does."""
        if self.path_args:
            for name, value in zip(self.captures, request.route_captured):
                if name in self.path_args:
                    self.path_args[name](value)
        items = parse.parse_qsl(request.query_string,
                                keep_blank_values=True, errors='strict')
        values = q.check_query(self, items, minor)
        if self.query is q.ANY_QUERY:
            values = {}     # ignored, as Ironic's version documents do
        if self.body:
            document = request.environ.get(json_body.ENVIRON_KEY, {})
            values['body'] = body_schema.check(
                self.body_schema(minor), document, self.what)
        return values


class _Node(object):
    """One segment of the index: literal children, one capture child."""

    __slots__ = ('literals', 'capture', 'name', 'routes')

    def __init__(self):
        self.literals, self.capture, self.name = {}, None, None
        self.routes = {}


class Router(object):
    """The routes indexed by path segment (a literal segment wins over a
    capture; another match is tried when it leads nowhere).

    :param excluded: {placeholder: words it never captures}: Ironic
        routes ``/v1/nodes/ports`` to no node (a plain 404).
    """

    def __init__(self, routes, excluded=None):
        self._root = _Node()
        self._excluded = excluded or {}
        for route in routes:
            self._add(route)

    def _add(self, route):
        node = self._root
        for segment in route.segments:
            if segment.startswith('{'):
                if node.capture is None:
                    node.capture = _Node()
                    node.capture.name = segment[1:-1]
                elif node.capture.name != segment[1:-1]:
                    # One name per place, for ``excluded``.
                    raise ValueError('%s: {%s} is also named {%s}' % (
                        route.path, segment[1:-1], node.capture.name))
                node = node.capture
            else:
                node = node.literals.setdefault(segment, _Node())
        key = ANY_METHOD if route.any_method else route.method
        if key in node.routes:
            raise ValueError('Two routes for %s %s' % (key, route.path))
        node.routes[key] = route

    def _matches(self, node, segments, i, captured):
        """(node, captured) of each route path that ``segments`` match,
        the literal ones first."""
        if i == len(segments):
            if node.routes:
                yield node, captured
            return
        segment = segments[i]
        child = node.literals.get(segment)
        if child is not None:
            yield from self._matches(child, segments, i + 1, captured)
        child = node.capture
        if child is not None and segment not in self._excluded.get(
                child.name, ()):
            yield from self._matches(child, segments, i + 1,
                                     captured + [segment])

    def match(self, method, segments, minor):
        """(route, captured segments) of a request, or the 404/405/406
        Ironic gives."""
        allowed = {}
        for node, captured in self._matches(self._root, segments, 0, []):
            route = (node.routes.get(method)
                     or node.routes.get(ANY_METHOD))
            if route is not None:
                if route.since <= minor:
                    return route, captured
                if route.older.route is not None:
                    return route.older.route, captured
                raise route.older.error(route.older.status, method,
                                        [route.method])
            allowed.update(node.routes)
        if not allowed:
            raise webob.exc.HTTPNotFound()
        present = sorted(m for m, r in allowed.items() if r.since <= minor)
        if present:
            raise webob.exc.HTTPMethodNotAllowed(
                detail=not_allowed(method), allow=present)
        gate = min(allowed.values(), key=lambda r: r.since).older
        raise gate.error(gate.other_methods, method, sorted(allowed))


def path_segments(parts):
    """The segments of a request path (split at ``/``); ``/nodes`` is
    ``/v1/nodes``, as in Ironic."""
    segments = [s for s in parts if s]
    if segments and segments[0] != 'v1':
        segments.insert(0, 'v1')
    return segments
