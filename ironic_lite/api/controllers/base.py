"""A tiny route table on top of pecan's object dispatch.

Each resource controller lists its routes as ``(method, pattern, name)``;
a pattern is a tuple of path segments where ``'{}'`` captures a segment
(passed to the handler positionally) and a final ``'...'`` hands the rest
of the path to the controller the handler returns (sub-resources).  A
path that matches no pattern is a 404, a path that matches with another
method a 405 -- both answered in Ironic's error shape by the error hook.
"""

import pecan
import webob.exc

ANY = '*'
CAPTURE = '{}'
REST = '...'


# The collection routes every CRUD resource has (nodes, ports, ...).
CRUD_ROUTES = (
    ('GET', (), 'get_all'),
    ('POST', (), 'post'),
    ('GET', ('detail',), 'detail'),
    ('GET', (CAPTURE,), 'get_one'),
    ('PATCH', (CAPTURE,), 'patch'),
    ('DELETE', (CAPTURE,), 'delete'),
)


def _match(pattern, args):
    """(captured values, rest of the path) or None."""
    rest = None
    if pattern and pattern[-1] == REST:
        pattern = pattern[:-1]
        if len(args) < len(pattern):
            return None
        args, rest = args[:len(pattern)], args[len(pattern):]
    if len(args) != len(pattern):
        return None
    captured = []
    for want, got in zip(pattern, args):
        if want == CAPTURE:
            captured.append(got)
        elif want != got:
            return None
    return captured, rest


class RoutedController(object):
    """Base of resource controllers; subclasses define ``ROUTES``."""

    ROUTES = ()

    def check_version(self):
        """Subclasses: raise (e.g. 404) when the resource is too new."""

    @pecan.expose()
    def _route(self, args, request=None):
        request = request or pecan.request
        self.check_version()
        args = [a for a in args if a != '']
        allowed = []
        for method, pattern, name in self.ROUTES:
            found = _match(pattern, args)
            if found is None:
                continue
            captured, rest = found
            if rest is not None:
                sub = getattr(self, name)(*captured)
                return sub._route(rest, request)
            if method in (ANY, request.method):
                return getattr(self, name), captured
            allowed.append(method)
        if allowed:
            raise webob.exc.HTTPMethodNotAllowed(
                detail='The method %s is not allowed for this resource.'
                       % request.method, allow=sorted(set(allowed)))
        raise webob.exc.HTTPNotFound()
