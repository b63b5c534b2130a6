"""``/v1/nodes/<n>/vifs`` (1.28): list, attach, detach -- all through the
conductor (RPC 1.2), which records a VIF on a free port or port group of
the node (``flat``) or accepts it and records nothing (``noop``).  A
pinned API refuses them (409).
"""

from oslo_utils import uuidutils
import pecan

from ironic_lite.api.controllers.v1 import node_lookup
from ironic_lite.api.controllers.v1 import utils
from ironic_lite.api import microversions as mv
from ironic_lite.api import routes
from ironic_lite.api.schemas import vif as schema
from ironic_lite.common import exception


def _check_vif(vif):
    """What the contract (``api/schemas/vif.py``: an object with a string
    ``id``) cannot say: the id is a UUID or a logical name, and not both
    port keys; other keys are passed on."""
    if not (uuidutils.is_uuid_like(vif['id'])
            or utils.is_valid_logical_name(vif['id'])):
        raise exception.InvalidUuidOrName(name=vif['id'])
    if utils.allows(mv.MINOR_67_NODE_VIF_ATTACH_PORT):
        if 'port_uuid' in vif and 'portgroup_uuid' in vif:
            raise exception.Invalid(
                'Cannot specify both port_uuid and portgroup_uuid')
    else:
        vif = {k: v for k, v in vif.items()
               if k not in ('port_uuid', 'portgroup_uuid')}
    return vif


class NodeVifsController(object):
    def __init__(self, node_ident):
        self.node_ident = node_ident

    def get_all(self):
        node = node_lookup.fetch_authorized('baremetal:node:vif:list',
                                            self.node_ident)
        return {'vifs': pecan.request.rpcapi.vif_list(
            pecan.request.context, node)}

    def post(self, body):
        vif = _check_vif(body)
        node = node_lookup.fetch_authorized('baremetal:node:vif:attach',
                                            self.node_ident)
        pecan.request.rpcapi.vif_attach(pecan.request.context, node, vif)
        pecan.response.status = 204
        return ''

    def delete(self, vif_id):
        node = node_lookup.fetch_authorized('baremetal:node:vif:detach',
                                            self.node_ident)
        pecan.request.rpcapi.vif_detach(pecan.request.context, node, vif_id)
        pecan.response.status = 204
        return ''


V = '/v1/nodes/{node_ident}/vifs'
SINCE = mv.MINOR_28_VIFS_SUBCONTROLLER

# Its place in the route table and the API reference (route_table.py).
API_REFERENCE_ORDER = 30

ROUTES = [
    routes.Route('GET', V, NodeVifsController.get_all, since=SINCE,
                 doc="a node's VIFs"),
    routes.Route('POST', V, NodeVifsController.post,
                 body={SINCE: schema.VIF,
                       mv.MINOR_67_NODE_VIF_ATTACH_PORT: schema.VIF_PORT},
                 what='vif', since=SINCE, empty=True, doc='attach a VIF'),
    routes.Route('DELETE', V + '/{vif_id}', NodeVifsController.delete,
                 since=SINCE, doc='detach a VIF'),
]
