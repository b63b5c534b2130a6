"""Vendor passthru: ``/v1/nodes/<n>/vendor_passthru[/methods]`` and
``/v1/drivers/<d>/vendor_passthru[/methods]`` (RPC 1.9; a pinned API
refuses, 409).

The conductor lists the methods of the node's (or the hardware type's
default) vendor interface and calls one: ``?method=`` names it, the body
(a JSON object) is its keyword arguments, and any of GET, POST, PUT,
PATCH and DELETE may be used -- the method says which it accepts
(python-ironicclient names the method in the path instead:
``.../vendor_passthru/<method>``, which Ironic also serves).  An
asynchronous method answers 202 without a body, a synchronous one 200
with its return value, as Ironic.
"""

import json

import pecan

from ironic_lite.api.controllers.v1 import node_lookup
from ironic_lite.api.controllers.v1 import node_states
from ironic_lite.api import query as q
from ironic_lite.api import routes
from ironic_lite.common import exception
from ironic_lite.common import policy

# The body: the method's keyword arguments.
BODY = {'type': 'object',
        'description': "the vendor method's keyword arguments"}
METHOD_QUERY = (q.Param('method', doc='the vendor method to call'),)
HTTP_METHODS = ('GET', 'POST', 'PUT', 'PATCH', 'DELETE')


def _answer(response):
    """202 (no body) for an asynchronous method, else 200 and the value
    the method returned, as JSON."""
    if response['async']:
        return node_states._no_body_accepted()
    pecan.response.status = 200
    return json.dumps(response['return'])


def _method_given(method):
    if not method:
        raise exception.InvalidParameterValue(err='Method not specified')
    return method


class NodeVendorPassthruController(object):
    def __init__(self, node_ident):
        self.node_ident = node_ident

    def methods(self):
        node = node_lookup.fetch_authorized('baremetal:node:vendor_passthru',
                                            self.node_ident)
        return pecan.request.rpcapi.get_node_vendor_passthru_methods(
            pecan.request.context, node)

    def call(self, method=None, body=None):
        node = node_lookup.fetch_authorized('baremetal:node:vendor_passthru',
                                            self.node_ident)
        return _answer(pecan.request.rpcapi.vendor_passthru(
            pecan.request.context, node, _method_given(method),
            pecan.request.method, body or {}))


def _authorize_driver():
    ctx = pecan.request.context
    policy.authorize('baremetal:driver:vendor_passthru', {}, ctx)
    return ctx


class DriverVendorPassthruController(object):
    def methods(self, driver_name):
        ctx = _authorize_driver()
        return pecan.request.rpcapi.get_driver_vendor_passthru_methods(
            ctx, driver_name)

    def call(self, driver_name, method=None, body=None):
        ctx = _authorize_driver()
        return _answer(pecan.request.rpcapi.driver_vendor_passthru(
            ctx, driver_name, _method_given(method), pecan.request.method,
            body or {}))


N = '/v1/nodes/{node_ident}/vendor_passthru'
D = '/v1/drivers/{driver_name}/vendor_passthru'
R = routes.Route


def _calls(path, handler, what):
    """The method named by ``?method=`` (openstacksdk) or by the last
    segment of the path (python-ironicclient), as Ironic's ``_default``
    takes it; any of HTTP_METHODS."""
    return [R(verb, path, handler, query=METHOD_QUERY, body={1: BODY},
              empty=True, doc='call a vendor method of a ' + what)
            for verb in HTTP_METHODS] + [
        R(verb, path + '/{method}', handler, body={1: BODY}, empty=True,
          doc='call a vendor method of a %s (named in the path)' % what)
        for verb in HTTP_METHODS]


# Its place in the route table and the API reference (route_table.py).
API_REFERENCE_ORDER = 200

ROUTES = ([
    R('GET', N + '/methods', NodeVendorPassthruController.methods,
      doc="the vendor methods of a node's vendor interface"),
] + _calls(N, NodeVendorPassthruController.call, 'node') + [
    R('GET', D + '/methods', DriverVendorPassthruController.methods,
      doc="the vendor methods of a driver's default vendor interface"),
] + _calls(D, DriverVendorPassthruController.call, 'driver'))
