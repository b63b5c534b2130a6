"""The route table: every controller's ``ROUTES``, in the order of the API
reference, and the ``Router`` built from them.

It sits above the controllers: it imports each of them, and only the
root controller (``controllers/root.py``), the API reference and tests
import it.  The vocabulary the controllers declare their routes with is
``api/routes.py``, which imports no controller.

``GET /v1`` is declared here: its document lists the resources whose
collection route exists at the request's microversion, a question to the
table itself.
"""

import pecan
import webob.exc

from ironic_lite.api.controllers import link
from ironic_lite.api.controllers.v1 import allocation
from ironic_lite.api.controllers.v1 import bios
from ironic_lite.api.controllers.v1 import chassis
from ironic_lite.api.controllers.v1 import conductor
from ironic_lite.api.controllers.v1 import deploy_template
from ironic_lite.api.controllers.v1 import driver
from ironic_lite.api.controllers.v1 import management
from ironic_lite.api.controllers.v1 import node
from ironic_lite.api.controllers.v1 import node_history
from ironic_lite.api.controllers.v1 import node_inventory
from ironic_lite.api.controllers.v1 import node_lookup
from ironic_lite.api.controllers.v1 import port
from ironic_lite.api.controllers.v1 import portgroup
from ironic_lite.api.controllers.v1 import ramdisk
from ironic_lite.api.controllers.v1 import shard
from ironic_lite.api.controllers.v1 import trait
from ironic_lite.api.controllers.v1 import vendor_passthru
from ironic_lite.api.controllers.v1 import vif
from ironic_lite.api.controllers.v1 import volume
from ironic_lite.api.controllers.v1 import volume_connector
from ironic_lite.api.controllers.v1 import volume_target
from ironic_lite.api.controllers import versions_index
from ironic_lite.api import query as q
from ironic_lite.api import routes
from ironic_lite.common import exception

# The resources GET /v1 lists, in Ironic's order.
RESOURCES = ('chassis', 'nodes', 'ports', 'portgroups', 'volume',
             'lookup', 'heartbeat', 'conductors', 'shards', 'drivers',
             'allocations', 'deploy_templates')


def v1_index():
    """The version 1 document: the resources of the request's
    microversion (those whose collection route exists at it)."""
    url = pecan.request.public_url
    body = {
        'id': 'v1',
        'links': [
            link.make_link('self', url, 'v1', '', bookmark=True),
            link.make_link('describedby',
                           'https://docs.openstack.org',
                           '/ironic/latest/contributor/', 'webapi.html',
                           bookmark=True, type='text/html')],
        # One object, not a list (as Ironic).
        'media_types': {
            'base': 'application/json',
            'type': 'application/vnd.openstack.ironic.v1+json'},
        'version': versions_index.version_document(),
    }
    minor = pecan.request.version.minor
    for name in RESOURCES:
        # The agent's heartbeat is only POSTed.
        route = (find('GET', '/v1/' + name)
                 or find('POST', '/v1/' + name))
        if route.since <= minor:
            body[name] = link.self_and_bookmark(name, '')
    return body


V1_ROUTES = [
    routes.Route('GET', '/v1', v1_index, query=q.ANY_QUERY,
                 doc='version 1: its resources and microversion range'),
]

# Every route, in the order of the API reference.
ROUTES = (versions_index.ROUTES + V1_ROUTES + node.ROUTES + trait.ROUTES
          + vif.ROUTES + management.ROUTES + port.ROUTES
          + portgroup.ROUTES + chassis.ROUTES + conductor.ROUTES
          + shard.ROUTES + driver.ROUTES + allocation.ROUTES
          + volume.ROUTES + volume_connector.ROUTES + volume_target.ROUTES
          + deploy_template.ROUTES + ramdisk.ROUTES + bios.ROUTES
          + node_history.ROUTES + node_inventory.ROUTES
          + vendor_passthru.ROUTES)

ROUTER = routes.Router(ROUTES, excluded={
    'node_ident': node_lookup.SUBCONTROLLER_NAMES})


def find(method, path, minor=10 ** 6):
    """The route of ``method`` on ``path`` (None when there is none)."""
    try:
        return ROUTER.match(method, routes.path_segments(path.split('/')),
                            minor)[0]
    except (webob.exc.HTTPException, exception.IronicException):
        return None
