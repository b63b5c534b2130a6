"""Child nodes (1.83): ``GET /v1/nodes/<ident>/children``, and the checks
of a node's ``parent_node`` when it is written.

A child node is a component of another node that Ironic manages as a
node of its own (a DPU, a SmartNIC): its ``parent_node`` holds the
parent's UUID.  Node lists leave child nodes out unless asked for
(``?include_children=`` or ``?parent_node=``, ``node_list.py``); this
path lists the UUIDs of one node's children, as Ironic's
``NodeChildrenController`` does.
"""

import pecan

from ironic_lite.api.controllers import link
from ironic_lite.api.controllers.v1 import node_lookup
from ironic_lite.api import microversions as mv
from ironic_lite.api import routes
from ironic_lite.common import exception
from ironic_lite.common import policy
from ironic_lite import objects


def _invalid_parent(ident):
    """Ironic's one answer for a parent that can not be linked, whatever
    the reason: it never tells whether the node exists."""
    return exception.Invalid(
        "Unable to apply the requested parent_node '%s'. Requested value "
        "was invalid." % ident)


def resolve_parent(owner, ident, child_uuid=None):
    """The UUID to store as ``parent_node`` for a node owned by ``owner``
    given ``ident`` (a UUID or a name), or None when ``ident`` is empty.

    As Ironic's ``authorize_node_link``: the caller must be able to see
    the parent (``baremetal:node:get``), and the parent must have the same
    owner as the child node (as it is before the change); otherwise 400,
    the same as for a parent that does not exist.  Unlike Ironic, a node
    can not be its own parent (Ironic stores that as given, which hides
    the node from every node list).
    """
    if not ident:
        return None
    try:
        parent = node_lookup.fetch_authorized('baremetal:node:get', ident)
    except (exception.NotFound, exception.HTTPForbidden, exception.Invalid):
        raise _invalid_parent(ident)
    if parent.owner != owner or parent.uuid == child_uuid:
        raise _invalid_parent(ident)
    return parent.uuid


class NodeChildrenController(object):
    """The UUIDs of a node's children."""

    def __init__(self, node_ident):
        self.node_ident = node_ident

    def get(self):
        """``{"children": [UUID...], "links": {"href", "rel"}}``: every
        child the caller may list (a project-scoped caller: its project's
        own or leased ones), unpaged, as Ironic; ``links`` is one link,
        to the node list of these children.  A parent the caller may not
        see is a 404."""
        ctx = pecan.request.context
        parent = node_lookup.fetch_authorized('baremetal:node:get',
                                              self.node_ident)
        filters = {'parent_node': parent.uuid}
        project = policy.list_project_filter('node', ctx)
        if project is not None:
            filters['project'] = project
        children = objects.Node.list(ctx, filters=filters, fields=['uuid'])
        return {'children': [child.uuid for child in children],
                'links': link.make_link(
                    'children', pecan.request.public_url, 'nodes',
                    '?parent_node=%s' % parent.uuid)}


# Its place in the route table and the API reference (route_table.py).
API_REFERENCE_ORDER = 195

ROUTES = [
    routes.Route('GET', '/v1/nodes/{node_ident}/children',
                 NodeChildrenController.get,
                 since=mv.MINOR_83_PARENT_CHILD_NODES,
                 doc="the UUIDs of the node's child nodes"),
]
