"""``/v1``: the version 1 document and its resources."""

import pecan

from ironic_lite.api.controllers import base
from ironic_lite.api.controllers import link
from ironic_lite.api import microversions as mv

# resource -> first minor version listing it in GET /v1
RESOURCE_MIN_VERSION = {
    'chassis': 1,
    'nodes': 1,
    'ports': 1,
    'portgroups': mv.PORTGROUP_MIN_VERSION,
    'conductors': mv.CONDUCTOR_MIN_VERSION,
    'shards': mv.SHARDS_MIN_VERSION,
    'drivers': 1,
}


class V1Controller(base.RoutedController):
    ROUTES = (
        ('GET', (), 'index'),
        (base.ANY, ('nodes', base.REST), 'nodes'),
        (base.ANY, ('ports', base.REST), 'ports'),
        (base.ANY, ('portgroups', base.REST), 'portgroups'),
        (base.ANY, ('chassis', base.REST), 'chassis'),
        (base.ANY, ('conductors', base.REST), 'conductors'),
        (base.ANY, ('shards', base.REST), 'shards'),
        (base.ANY, ('drivers', base.REST), 'drivers'),
    )

    @pecan.expose('json')
    def index(self):
        from ironic_lite.api.controllers import root
        from ironic_lite.api.controllers.v1 import utils
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
            'version': root.version_document(),
        }
        for name, since in RESOURCE_MIN_VERSION.items():
            if utils.allows(since):
                body[name] = link.self_and_bookmark(name, '')
        return body

    def nodes(self):
        from ironic_lite.api.controllers.v1 import node
        return node.NodesController()

    def ports(self):
        from ironic_lite.api.controllers.v1 import port
        return port.PortsController()

    def portgroups(self):
        from ironic_lite.api.controllers.v1 import portgroup
        return portgroup.PortgroupsController()

    def chassis(self):
        from ironic_lite.api.controllers.v1 import chassis
        return chassis.ChassisController()

    def conductors(self):
        from ironic_lite.api.controllers.v1 import conductor
        return conductor.ConductorsController()

    def shards(self):
        from ironic_lite.api.controllers.v1 import shard
        return shard.ShardsController()

    def drivers(self):
        from ironic_lite.api.controllers.v1 import driver
        return driver.DriversController()
