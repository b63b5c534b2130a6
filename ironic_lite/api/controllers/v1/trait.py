"""``/v1/nodes/<n>/traits`` (1.37): list, set all, add one, remove.

Ironic's trait rules: a standard os-traits name or ``CUSTOM_`` followed by
upper-case letters, digits and ``_``; at most 255 characters; at most 50
traits per node (checked by the conductor, in the write's transaction).
Writes go through the conductor under the node's lock (RPC 1.2); a pinned
API refuses them (409).  The body is checked by the request contract
(``api/schemas/trait.py``); the trait of ``PUT .../traits/<trait>`` is a
path segment, checked here against the contract's ``TRAIT``.
"""

import pecan

from ironic_lite.api.controllers import link
from ironic_lite.api.controllers.v1 import node_lookup
from ironic_lite.api.controllers.v1 import utils
from ironic_lite.api import body_schema
from ironic_lite.api import microversions as mv
from ironic_lite.api import routes
from ironic_lite.api.schemas import trait as trait_schema
from ironic_lite.common import exception

_ONE_OR_ALL = ('A single node trait may be added via PUT /v1/nodes/<node '
               'identifier>/traits/<trait> with no body, or all node traits '
               'may be replaced via PUT /v1/nodes/<node identifier>/traits '
               'with the list of traits specified in the request body.')


def _check_trait(trait):
    """400 unless the path segment ``trait`` is a valid trait name, with
    Ironic's message (its ``args.schema`` of the ``trait`` argument)."""
    body_schema.check_schema(trait_schema.TRAIT, trait, 'trait')


class NodeTraitsController(object):
    def __init__(self, node_ident):
        self.node_ident = node_ident

    def get_all(self):
        node = node_lookup.fetch_authorized('baremetal:node:traits:list',
                                            self.node_ident)
        return {'traits': node.traits.get_trait_names()
                if node.traits is not None else []}

    def _write(self, rule, send):
        """``send(rpcapi, context, node)`` once ``rule`` allows it."""
        node = node_lookup.fetch_authorized(rule, self.node_ident)
        send(pecan.request.rpcapi, pecan.request.context, node)
        pecan.response.status = 204
        return node

    def put_all(self, body):
        if 'traits' not in body:
            raise exception.Invalid(_ONE_OR_ALL)
        traits = sorted(set(body['traits']))
        self._write('baremetal:node:traits:set',
                    lambda rpcapi, ctx, node: rpcapi.add_node_traits(
                        ctx, node, traits, replace=True))
        return ''

    def put_one(self, trait):
        if pecan.request.body and utils.json_body():
            raise exception.Invalid(
                'No body should be provided when adding a trait')
        _check_trait(trait)
        node = self._write('baremetal:node:traits:set',
                           lambda rpcapi, ctx, node: rpcapi.add_node_traits(
                               ctx, node, [trait], replace=False))
        pecan.response.headers['Location'] = link.build_url(
            'nodes', '%s/traits/%s' % (node.uuid, trait))
        return ''

    def delete_all(self):
        self._write('baremetal:node:traits:delete',
                    lambda rpcapi, ctx, node: rpcapi.remove_node_traits(
                        ctx, node, None))
        return ''

    def delete_one(self, trait):
        self._write('baremetal:node:traits:delete',
                    lambda rpcapi, ctx, node: rpcapi.remove_node_traits(
                        ctx, node, [trait]))
        return ''


def traits_as_node_field(node_ident):
    """``GET /v1/nodes/<n>/traits`` below 1.37: Ironic routes it to the
    node's ``get_one`` with ``fields='traits'`` (the path did not exist),
    so the node's 404 or 403 comes first, then the 406 of a field newer
    than the request."""
    node_lookup.fetch_authorized('baremetal:node:get', node_ident)
    raise exception.NotAcceptable()


T = '/v1/nodes/{node_ident}/traits'
SINCE = mv.MINOR_37_NODE_TRAITS
R = routes.Route
H = NodeTraitsController
# Below 1.37 Ironic's NodesController serves the path as if it did not
# exist: GET is the node's ?fields=traits (406), PUT has no handler there
# (405, Allow: its methods), DELETE gets its NotFound.
_OLD_GET = routes.Gate(route=R('GET', T, traits_as_node_field))
_OLD_PUT = routes.Gate(405, allow=('DELETE', 'GET', 'PATCH', 'POST'))
_OLD_DELETE = routes.Gate(404, 'Resource could not be found.')

# Its place in the route table and the API reference (route_table.py).
API_REFERENCE_ORDER = 20

ROUTES = [
    R('GET', T, H.get_all, since=SINCE, older=_OLD_GET,
      doc="a node's traits"),
    R('PUT', T, H.put_all, body={SINCE: trait_schema.TRAITS},
      # Ironic's argument is named "body": "Schema error for body: ...".
      what='body', since=SINCE, older=_OLD_PUT,
      doc="replace a node's traits"),
    R('DELETE', T, H.delete_all, since=SINCE, older=_OLD_DELETE,
      doc="remove all of a node's traits"),
    R('PUT', T + '/{trait}', H.put_one, since=SINCE, older=_OLD_PUT,
      doc='add one trait (no body)'),
    R('DELETE', T + '/{trait}', H.delete_one, since=SINCE,
      older=_OLD_DELETE, doc='remove one trait'),
]
