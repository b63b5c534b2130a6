"""Finding the node a path names, with the caller's policy checked, and
the words that can not name a node because Ironic routes them elsewhere.

A node is named by UUID, or by name from 1.5; a caller who may not see it
gets the same 404 as for a node that does not exist.
"""

from oslo_utils import uuidutils
import pecan

from ironic_lite.api.controllers.v1 import utils
from ironic_lite.api import microversions as mv
from ironic_lite.common import exception
from ironic_lite.common import policy
from ironic_lite import objects

# Ironic's NodesController reserved words: its sub-controller attributes
# (alphabetical) then its custom actions, in this order in the message.
RESERVED_NAMES = ('maintenance', 'management', 'states', 'vendor_passthru',
                  'detail', 'validate')
# Path segments Ironic routes to a node sub-controller: /v1/nodes/<one of
# these> is a plain 404 (never a node lookup).
SUBCONTROLLER_NAMES = ('ports', 'portgroups', 'vifs', 'volume', 'traits',
                       'bios', 'allocation', 'history', 'inventory',
                       'children', 'firmware')


def get_node(ident):
    """A node by UUID, or by name from 1.5; 404 when there is none."""
    ctx = pecan.request.context
    ident = utils.without_json_suffix(ident)
    if uuidutils.is_uuid_like(ident):
        return objects.Node.get_by_uuid(ctx, ident)
    if not utils.allows(mv.MINOR_5_NODE_NAME):
        raise exception.NodeNotFound(node=ident)
    if not utils.is_valid_logical_name(ident):
        raise exception.InvalidUuidOrName(name=ident)
    return objects.Node.get_by_name(ctx, ident)


def fetch_authorized(rule, ident):
    """The node, after checking ``rule`` for the caller.

    A caller who may not even see the node gets the same 404 as for a
    node that does not exist (as Ironic does); one who may see it but not
    do ``rule`` gets a 403.
    """
    ctx = pecan.request.context
    node = get_node(ident)
    target = policy.node_target(node, ctx)
    if not policy.check(rule, target, ctx):
        if not policy.check('baremetal:node:get', target, ctx):
            raise exception.NodeNotFound(node=ident)
        raise exception.HTTPForbidden(resource=rule)
    return node
