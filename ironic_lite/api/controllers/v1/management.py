"""``/v1/nodes/<n>/management/boot_device[/supported]``: the boot device
a node uses next, through the conductor (RPC 1.2; a pinned API refuses,
409); ``.../management/inject_nmi`` (1.29, RPC 1.6);
``.../management/indicators[/<indicator>@<component>]`` (RPC 1.8)."""

import pecan

from ironic_lite.api.controllers import link
from ironic_lite.api.controllers.v1 import node_lookup
from ironic_lite.api import body_schema
from ironic_lite.api import microversions as mv
from ironic_lite.api import routes
from ironic_lite.api.schemas import management as schema
from ironic_lite.common import exception


class NodeManagementController(object):
    def __init__(self, node_ident):
        self.node_ident = node_ident

    def get_boot_device(self):
        node = node_lookup.fetch_authorized('baremetal:node:get_boot_device',
                                            self.node_ident)
        return pecan.request.rpcapi.get_boot_device(pecan.request.context,
                                                    node)

    def set_boot_device(self, body):
        device = body['boot_device']
        persistent = body.get('persistent', False)
        node = node_lookup.fetch_authorized('baremetal:node:set_boot_device',
                                            self.node_ident)
        pecan.request.rpcapi.set_boot_device(pecan.request.context, node,
                                             device, persistent=persistent)
        pecan.response.status = 204
        return ''

    def supported(self):
        node = node_lookup.fetch_authorized('baremetal:node:get_boot_device',
                                            self.node_ident)
        return {'supported_boot_devices':
                pecan.request.rpcapi.get_supported_boot_devices(
                    pecan.request.context, node)}

    def inject_nmi(self, body=None):
        node = node_lookup.fetch_authorized('baremetal:node:inject_nmi',
                                            self.node_ident)
        pecan.request.rpcapi.inject_nmi(pecan.request.context, node)
        pecan.response.status = 204
        return ''


def _parse_indicator(unique_name):
    """(component, name) of ``<name>@<component>`` (Ironic's
    IndicatorAtComponent: split at the first ``@``)."""
    name, at, component = unique_name.partition('@')
    if not at:
        raise exception.InvalidParameterValue(
            err='Malformed indicator name "%s"' % unique_name)
    return component, name


class IndicatorsController(object):
    """A node's indicators (LEDs), read and set through the conductor.
    Ironic serves them at every microversion (its 1.63 is not checked)."""

    def __init__(self, node_ident):
        self.node_ident = node_ident

    def _node(self, rule):
        return node_lookup.fetch_authorized(rule, self.node_ident)

    def get_all(self):
        node = self._node('baremetal:node:get_indicator_state')
        supported = pecan.request.rpcapi.get_supported_indicators(
            pecan.request.context, node)
        return {'indicators': [
            _indicator_body(self.node_ident, component, name, fields)
            for component, names in supported.items()
            for name, fields in names.items()]}

    def get_one(self, indicator):
        node = self._node('baremetal:node:get_indicator_state')
        component, name = _parse_indicator(indicator)
        return {'state': pecan.request.rpcapi.get_indicator_state(
            pecan.request.context, node, component, name)}

    def put(self, indicator, body):
        state = body['state']
        if state is not None and not isinstance(state, str):
            # Ironic's args.string, before anything else.
            raise exception.InvalidParameterValue(
                err='Expected string for state: %s' % (state,))
        node = self._node('baremetal:node:set_indicator_state')
        component, name = _parse_indicator(indicator)
        pecan.request.rpcapi.set_indicator_state(
            pecan.request.context, node, component, name, state)
        pecan.response.status = 204
        return ''


def _indicator_body(node_ident, component, name, fields):
    unique = '%s@%s' % (name, component)
    return {'name': unique, 'component': component,
            'readonly': fields.get('readonly', True),
            'states': fields.get('states', []),
            'links': link.self_and_bookmark(
                'nodes', '%s/management/indicators/%s' % (node_ident,
                                                          unique))}


B = '/v1/nodes/{node_ident}/management/boot_device'
H = NodeManagementController
IND = '/v1/nodes/{node_ident}/management/indicators'

# Its place in the route table and the API reference (route_table.py).
API_REFERENCE_ORDER = 40

ROUTES = [
    routes.Route('GET', B, H.get_boot_device,
                 doc="a node's next boot device"),
    routes.Route('PUT', B, H.set_boot_device, body={1: schema.BOOT_DEVICE},
                 what=body_schema.ARGS, doc="set a node's next boot device"),
    routes.Route('GET', B + '/supported', H.supported,
                 doc='the boot devices it supports'),
    routes.Route('PUT', '/v1/nodes/{node_ident}/management/inject_nmi',
                 H.inject_nmi, since=mv.MINOR_29_INJECT_NMI,
                 body={mv.MINOR_29_INJECT_NMI: schema.INJECT_NMI},
                 what=body_schema.ARGS,
                 doc='inject a non-maskable interrupt (a crash dump)'),
    routes.Route('GET', IND, IndicatorsController.get_all,
                 doc="a node's indicators (LEDs), by component"),
    routes.Route('GET', IND + '/{indicator}', IndicatorsController.get_one,
                 doc='the state of an indicator (<indicator>@<component>)'),
    routes.Route('PUT', IND + '/{indicator}', IndicatorsController.put,
                 body={1: schema.INDICATOR_STATE}, what=body_schema.ARGS,
                 doc="set an indicator (state: one of its states)"),
]
