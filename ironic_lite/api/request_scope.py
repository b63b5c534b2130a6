"""What one API request remembers while it is served.

A node list asks the same questions of every node it renders (the
caller's policy on each masked field, the body's plan at the request's
version), and a port write needs its node three times (policy target,
RPC topic, the body's ``node_uuid``): each is worked out once per request
and kept here, in one object stored in the request's WSGI environ.  It
goes with the request: nothing is shared between requests or threads.
"""

# The WSGI environ key of a request's scope.
ENVIRON_KEY = 'ironic_lite.request_scope'


class RequestScope(object):
    """The per-request caches, by name."""

    __slots__ = ('nodes_by_id', 'node_facts', 'node_plans', 'large_page')

    def __init__(self):
        # {id: Node} read by this request (resource.request_node).
        self.nodes_by_id = {}
        # What node bodies depend on: context, version, policy answers
        # (node_render); None until the first body.
        self.node_facts = None
        # {(fields, sub links): the plan of a node body} (node_render).
        self.node_plans = {}
        # Whether the request renders a large page (large_pages: memory
        # is given back once it is answered).
        self.large_page = False


def of(environ):
    """The scope of the request whose WSGI environ is ``environ``."""
    scope = environ.get(ENVIRON_KEY)
    if scope is None:
        scope = environ[ENVIRON_KEY] = RequestScope()
    return scope
