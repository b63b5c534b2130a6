"""``POST /v1/continue_inspection`` (1.84): the ramdisk's agent sends what
in-band inspection found, and the node's inspection goes on.

Public, as the lookup and heartbeat are (``baremetal:driver:
ipa_continue_inspection`` allows anyone by default): the node is found
by the inventory's MAC addresses (its ports) and BMC addresses (those
the ``agent`` inspect interface recorded when inspection started), or by
``?node_uuid=``, and must be in ``inspect wait``; any failure is the same
bare 404, which tells a caller nothing.  At 1.84 the answer is the
lookup's (the node with its agent token, and the agent's configuration);
at 1.1, kept for agents that predate the endpoint, ``{"uuid": ...}``
(as Ironic, which answers 1.2 to 1.83 with a 404).
"""

from oslo_log import log as logging
import pecan

from ironic_lite.api.controllers.v1 import node_render
from ironic_lite.api.controllers.v1 import ramdisk
from ironic_lite.api import microversions as mv
from ironic_lite.api import routes
from ironic_lite.api.schemas import ramdisk as schema
from ironic_lite.common import exception
from ironic_lite.common import policy
from ironic_lite.common import states
from ironic_lite import objects

LOG = logging.getLogger(__name__)

# Where the agent inspect interface keeps the node's BMC addresses
# (drivers/agent_inspect.py; Ironic's key).
LOOKUP_CACHE_FIELD = 'lookup_bmc_addresses'
_NEWER = 'API version 1.%d or newer is required' % (
    mv.MINOR_84_CONTINUE_INSPECTION)


def _by_macs(ctx, macs, known):
    """The node with ports of ``macs``, else ``known``; several: 404."""
    ids = objects.Node.ids_by_port_addresses(ctx, macs)
    if len(ids) > 1:
        LOG.error('Conflict on inspection lookup: multiple nodes match MAC '
                  'addresses %s', ', '.join(macs))
        raise exception.NotFound()
    if not ids:
        return known
    node = objects.Node.get_by_id(ctx, ids[0])
    if known is not None and node.uuid != known.uuid:
        LOG.error('Conflict on inspection lookup: node %s does not match '
                  'MAC addresses (%s), which belong to node %s',
                  known.uuid, ', '.join(macs), node.uuid)
        raise exception.NotFound()
    return node


def _by_bmc(ctx, bmcs, known):
    """The one node waiting in ``inspect wait`` whose BMC addresses
    include one of ``bmcs`` (if it agrees with ``known``), else
    ``known``."""
    found = {n.uuid for n in objects.Node.list(
        ctx, filters={'provision_state': states.INSPECTWAIT},
        fields=['uuid', 'driver_internal_info'])
        if set((n.driver_internal_info or {}).get(LOOKUP_CACHE_FIELD)
               or ()) & set(bmcs)}
    if known is not None:
        if found and known.uuid not in found:
            LOG.error('Conflict on inspection lookup: nodes %s and %s both '
                      'satisfy the addresses given', ', '.join(found),
                      known.uuid)
            raise exception.NotFound()
        return known
    if len(found) > 1:
        LOG.error('Several nodes %s satisfy BMC address(es) %s, but none '
                  'of them the MAC addresses', ', '.join(sorted(found)),
                  ', '.join(bmcs))
        raise exception.NotFound()
    return objects.Node.get_by_uuid(ctx, found.pop()) if found else None


def lookup_node(ctx, macs, bmcs, node_uuid=None):
    """Ironic's inspection lookup; every failure the same bare 404."""
    try:
        node = objects.Node.get_by_uuid(ctx, node_uuid) if node_uuid else None
        if macs:
            node = _by_macs(ctx, macs, node)
        if node is not None and node.provision_state != states.INSPECTWAIT:
            LOG.error('Node %s was found during inspection lookup, but it '
                      'is in provision state %s', node.uuid,
                      node.provision_state)
            raise exception.NotFound()
        if bmcs:
            node = _by_bmc(ctx, bmcs, node)
    except exception.NotFound:
        raise exception.NotFound()
    if node is None:
        # Ironic would enroll it with [auto_discovery]enabled: not here.
        LOG.error('No nodes satisfy MAC addresses (%s) and BMC address(es) '
                  '(%s) during inspection lookup', ', '.join(macs),
                  ', '.join(bmcs))
        raise exception.NotFound()
    return node


def _continue(body, node_uuid, new):
    ctx = pecan.request.context
    policy.authorize('baremetal:driver:ipa_continue_inspection', {}, ctx)
    data = dict(body)
    inventory = data.pop('inventory')
    macs = ramdisk.valid_macs([iface['mac_address']
                               for iface in inventory['interfaces']])
    bmcs = [a for a in (inventory.get('bmc_address'),
                        inventory.get('bmc_v6address')) if a]
    if not macs and not bmcs and not node_uuid:
        raise exception.InvalidParameterValue(
            err='No lookup information provided')
    node = lookup_node(ctx, macs, bmcs, node_uuid)
    rpcapi = pecan.request.rpcapi
    if new:
        # Before the data: processing it takes a while, and the token
        # needs the node's lock.
        node = rpcapi.get_node_with_token(ctx, node)
    rpcapi.continue_inspection(ctx, node, inventory, plugin_data=data)
    pecan.response.status = 202
    if not new:
        return {'uuid': node.uuid}
    token = node.driver_internal_info.get('agent_secret_token')
    return {'node': node_render.render(node, fields=ramdisk.LOOKUP_FIELDS),
            'config': ramdisk.agent_config(token, node)}


def continue_inspection(body, node_uuid=None):
    """1.84 and later."""
    return _continue(body, node_uuid, new=True)


def continue_inspection_compat(body, node_uuid=None):
    """Below 1.84: only 1.1, without ``node_uuid`` (Ironic's small lie:
    its 404 asks for 1.84)."""
    if pecan.request.version.minor != mv.MINOR_1_INITIAL_VERSION \
            or node_uuid:
        raise exception.NotFound(_NEWER)
    return _continue(body, None, new=False)


# Its place in the route table and the API reference (route_table.py).
API_REFERENCE_ORDER = 165
# The links of GET /v1 to it (from 1.84).
V1_RESOURCES = ('continue_inspection',)

_PATH = '/v1/continue_inspection'
_COMPAT = routes.Route(
    'POST', _PATH, continue_inspection_compat,
    body={1: schema.CONTINUE_INSPECTION}, what='data',
    query=schema.CONTINUE_INSPECTION_QUERY,
    doc='the same at 1.1 (agents that predate 1.84): answers the UUID')

ROUTES = [
    routes.Route('POST', _PATH, continue_inspection,
                 since=mv.MINOR_84_CONTINUE_INSPECTION,
                 older=routes.Gate(message=_NEWER, route=_COMPAT),
                 body={mv.MINOR_84_CONTINUE_INSPECTION:
                       schema.CONTINUE_INSPECTION},
                 what='data', query=schema.CONTINUE_INSPECTION_QUERY,
                 doc="the inspection data of the ramdisk's agent (public)"),
]
