"""``/v1/nodes/<n>/vifs`` (1.28): list, attach, detach -- all through the
conductor (RPC 1.2), which records a VIF on a free port or port group of
the node (``flat``) or accepts it and records nothing (``noop``).  A
pinned API refuses them (409).
"""

from oslo_utils import uuidutils
import pecan

from ironic_lite.api.controllers import base
from ironic_lite.api.controllers.v1 import node_lookup
from ironic_lite.api.controllers.v1 import utils
from ironic_lite.api import microversions as mv
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


class NodeVifsController(base.RoutedController):
    ROUTES = (
        ('GET', (), 'get_all'),
        ('POST', (), 'post'),
        ('DELETE', (base.CAPTURE,), 'delete'),
    )

    def __init__(self, node_ident):
        self.node_ident = node_ident

    def check_version(self):
        if not utils.allows(mv.NODE_VIFS_MIN_VERSION):
            raise exception.NotFound()

    @pecan.expose('json')
    def get_all(self, **kwargs):
        node = node_lookup.fetch_authorized('baremetal:node:vif:list',
                                            self.node_ident)
        return {'vifs': pecan.request.rpcapi.vif_list(
            pecan.request.context, node)}

    @pecan.expose(content_type='application/json')
    def post(self, **kwargs):
        vif = _check_vif(utils.json_body())
        node = node_lookup.fetch_authorized('baremetal:node:vif:attach',
                                            self.node_ident)
        pecan.request.rpcapi.vif_attach(pecan.request.context, node, vif)
        pecan.response.status = 204
        return ''

    @pecan.expose(content_type='application/json')
    def delete(self, vif_id, **kwargs):
        node = node_lookup.fetch_authorized('baremetal:node:vif:detach',
                                            self.node_ident)
        pecan.request.rpcapi.vif_detach(pecan.request.context, node, vif_id)
        pecan.response.status = 204
        return ''
