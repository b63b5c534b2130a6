"""``/v1/drivers``: the hardware types the alive conductors registered.

Each conductor records the hardware types it enables in the conductors
table; a type is listed with the hosts of the alive conductors that have
it.  Its interfaces (``default_*_interface``, ``enabled_*_interfaces``)
and properties (those of the type's default interfaces) come from this
code's definition of the type: ironic-lite has no per-conductor interface
table (see doc/source/api/differences.rst).  No RPC for these: the
answers are the same pinned or not.  The RAID logical disk properties
(1.12) come from a conductor (RPC 1.9), as the vendor passthru methods
(``vendor_passthru.py``).
"""

import pecan

from ironic_lite.api.controllers import link
from ironic_lite.api.controllers.v1 import utils
from ironic_lite.api import microversions as mv
from ironic_lite.api import query as q
from ironic_lite.api import routes
from ironic_lite.api.schemas import driver as schema
from ironic_lite.common import exception
from ironic_lite.common import policy
from ironic_lite import conf
from ironic_lite.drivers import base as drivers_base
from ironic_lite.drivers import factory
from ironic_lite import objects

CONF = conf.CONF
_TYPES = (None, 'classic', 'dynamic')


def active_hardware_types(ctx):
    """{hardware type name: sorted hosts of alive conductors}."""
    found = {}
    for cond in objects.Conductor.list_active(
            ctx, CONF.conductor.heartbeat_timeout):
        for name in cond.drivers or []:
            found.setdefault(name, set()).add(cond.hostname)
    return {name: sorted(hosts) for name, hosts in sorted(found.items())}


def _interfaces(name):
    """The type's interfaces: those it supports that are enabled and the
    defaults a node gets (with this service's [DEFAULT] options, as the
    conductors')."""
    hw_type = factory.HARDWARE_TYPES.get(name)
    hw_type = hw_type() if hw_type else None
    body = {}
    for iface in drivers_base.ALL_INTERFACES:
        if mv.DRIVER_INTERFACE_MIN_VERSION.get(iface, 30) > utils.minor():
            continue
        enabled = factory.enabled_interfaces(iface)
        names = ([n for n in hw_type.supported.get(iface, ())
                  if n in enabled] if hw_type else [])
        body['default_%s_interface' % iface] = (
            hw_type.default_interface(iface) if hw_type else None)
        body['enabled_%s_interfaces' % iface] = names
    return body


def render(name, hosts, detail=False, fields=None):
    body = {'name': name, 'hosts': hosts,
            'links': link.self_and_bookmark('drivers', name)}
    if utils.allows(mv.DRIVER_FIELD_MIN_VERSION['properties']):
        body['properties'] = link.self_and_bookmark(
            'drivers', name + '/properties')
    if utils.allows(mv.DRIVER_FIELD_MIN_VERSION['type']):
        body['type'] = 'dynamic'
        if detail:
            body.update(_interfaces(name))
    if fields is not None:
        body = utils.select_fields(body, fields)
    return body


def _check_query(kind=None, detail=None, fields=None):
    """The query checks the route (names, types, versions) cannot make;
    returns (type, detail, fields)."""
    if fields is not None:
        fields = [f.strip() for f in fields if f.strip()]
    if fields and detail:
        raise exception.InvalidParameterValue(
            err='Can not specify ?detail=True and fields in the same '
                'request.')
    policy.authorize('baremetal:driver:get', {}, pecan.request.context)
    if fields:
        known = set(mv.DRIVER_FIELD_MIN_VERSION) | set(_interfaces(None))
        unknown = [f for f in fields if f not in known]
        if unknown:
            raise exception.InvalidParameterValue(
                err='Field(s) "%s" are not valid' % ', '.join(unknown))
    if kind not in _TYPES:
        raise exception.Invalid('"type" filter must be one of "classic" or '
                                '"dynamic", if specified.')
    return kind, detail, fields


class DriversController(object):
    def get_all(self, type=None, detail=None, fields=None):
        kind, detail, fields = _check_query(type, detail, fields)
        types = ({} if kind == 'classic'
                 else active_hardware_types(pecan.request.context))
        return {'drivers': [render(name, hosts, detail, fields)
                            for name, hosts in types.items()]}

    def get_one(self, name, fields=None):
        _kind, _detail, fields = _check_query(fields=fields)
        hosts = active_hardware_types(pecan.request.context).get(name)
        if hosts is None:
            raise exception.DriverNotFound(driver_name=name, code=404)
        return render(name, hosts, detail=True, fields=fields)

    def properties(self, name):
        ctx = pecan.request.context
        policy.authorize('baremetal:driver:get_properties', {}, ctx)
        if name not in active_hardware_types(ctx):
            raise exception.DriverNotFound(driver_name=name, code=404)
        hw_type = factory.HARDWARE_TYPES.get(name)
        return hw_type().get_properties() if hw_type else {}

    def raid_logical_disk_properties(self, name):
        """(1.12) What a logical disk of a target RAID configuration may
        say, from the RAID interface of the driver (RPC 1.9)."""
        ctx = pecan.request.context
        policy.authorize('baremetal:driver:get_raid_logical_disk_properties',
                         {}, ctx)
        try:
            return pecan.request.rpcapi.get_raid_logical_disk_properties(
                ctx, name)
        except exception.UnsupportedDriverExtension as err:
            err.code = 404  # as Ironic: not every driver has RAID
            raise


D = '/v1/drivers/{driver_name}'

# Its place in the route table and the API reference (route_table.py).
API_REFERENCE_ORDER = 100
# The links of GET /v1 to it.
V1_RESOURCES = ('drivers',)

ROUTES = [
    routes.Route('GET', '/v1/drivers', DriversController.get_all,
                 query=schema.LIST_QUERY, unknown=q.UNKNOWN_SCHEMA,
                 doc='list drivers'),
    routes.Route('GET', D, DriversController.get_one,
                 query=schema.SHOW_QUERY, unknown=q.UNKNOWN_SCHEMA,
                 doc='show a driver'),
    routes.Route('GET', D + '/properties', DriversController.properties,
                 doc="a driver's properties"),
    routes.Route('GET', D + '/raid/logical_disk_properties',
                 DriversController.raid_logical_disk_properties,
                 since=mv.MINOR_12_RAID_CONFIG, older=routes.Gate(406),
                 doc='the properties of a logical disk of a target RAID '
                     'configuration'),
]
