"""Vendor passthru (RPC 1.9): the methods a vendor interface offers on a
node (``@passthru``) and on its hardware type (``@driver_passthru``),
listed and called as Ironic does.  A call is checked here (the method,
its HTTP method, the interface's ``validate``), then run at once (a
synchronous method: its return value goes back) or in a worker (202)."""

import inspect

from oslo_log import log as logging
import oslo_messaging as messaging

from ironic_lite.common import exception
from ironic_lite.conductor import hardware_calls
from ironic_lite.conductor import task_manager
from ironic_lite.drivers import base as drivers_base
from ironic_lite.drivers import factory

LOG = logging.getLogger(__name__)

_EXPECTED = (exception.NodeLocked, exception.NodeNotFound,
             exception.DriverNotFound, exception.InvalidParameterValue,
             exception.UnsupportedDriverExtension,
             exception.NoFreeConductorWorker)


def _node_vendor(task):
    """The node's vendor interface; None for ``no-vendor`` (no methods)."""
    iface = task.driver.interface(task.node, 'vendor')
    return iface if isinstance(iface, drivers_base.VendorInterface) else None


def _driver_vendor(driver_name):
    """The vendor interface a hardware type gives a node by default."""
    hw_type = factory.get_hardware_type(driver_name)
    name = hw_type.default_interface('vendor') or ''
    iface = getattr(hw_type, 'vendor', None)
    if name.startswith('no-') or not isinstance(
            iface, drivers_base.VendorInterface):
        return None
    return iface


def _route(routes, method, http_method):
    """The metadata of ``method``, after Ironic's checks (400)."""
    meta = routes.get(method)
    if meta is None:
        raise exception.InvalidParameterValue(
            err='No handler for method %s' % method)
    if http_method.upper() not in meta['http_methods']:
        raise exception.InvalidParameterValue(
            err='The method %s does not support HTTP %s'
                % (method, http_method.upper()))
    return meta


def _body(info):
    """The method's keyword arguments given in the request body (not
    ``method``/``http_method``, which the conductor passes)."""
    return {k: v for k, v in (info or {}).items()
            if k not in ('method', 'http_method')}


def _check_arguments(meta, first, info):
    """A body the method cannot take is a 400, before anything runs."""
    try:
        inspect.signature(meta['func']).bind(first, http_method='', **info)
    except TypeError as err:
        raise exception.InvalidParameterValue(
            err='Invalid arguments for vendor method %s: %s'
                % (meta['name'], err))


def _guarded(meta, call, *args, **kwargs):
    """``call``; an error that is not the API's (a bug of the driver, or
    a body ``validate`` cannot take) is a 400 naming the method, never a
    5xx (Ironic: 500)."""
    try:
        return call(*args, **kwargs)
    except exception.IronicException:
        raise
    except Exception as err:
        LOG.exception('Vendor passthru method %s failed', meta['name'])
        raise exception.InvalidParameterValue(
            err='Vendor passthru method %s failed: %s'
                % (meta['name'], err))


def _answer(meta, value=None):
    return {'return': value, 'async': meta['async'],
            'attach': meta['attach']}


def node_route(task, method, http_method):
    """(the node's vendor interface, the metadata of its ``method``)."""
    iface = _node_vendor(task)
    return iface, _route(iface.vendor_routes if iface else {}, method,
                         http_method)


def call_node_method(pool, task, iface, meta, http_method, info):
    """Check and run a node's vendor method: in a worker of ``pool`` once
    the task's block exits (asynchronous), or now."""
    info = _body(info)
    _guarded(meta, iface.validate, task, method=meta['name'],
             http_method=http_method, **info)
    _check_arguments(meta, task, info)
    info['http_method'] = http_method
    if meta['async']:
        task.spawn_after(pool, meta['func'], task, **info)
        return _answer(meta)
    return _answer(meta, _guarded(meta, meta['func'], task, **info))


def call_driver_method(pool, context, driver_name, method, http_method,
                       info):
    """Check and run a hardware type's vendor method (a worker of
    ``pool`` for an asynchronous one)."""
    iface = _driver_vendor(driver_name)
    meta = _route(iface.driver_routes if iface else {}, method, http_method)
    info = _body(info)
    _guarded(meta, iface.driver_validate, method=method, **info)
    _check_arguments(meta, context, info)
    info['http_method'] = http_method
    if meta['async']:
        pool.claim().submit(meta['func'], context, **info)
        return _answer(meta)
    return _answer(meta, _guarded(meta, meta['func'], context, **info))


def node_methods(task):
    iface = _node_vendor(task)
    return drivers_base.passthru_metadata(
        iface.vendor_routes if iface else {})


def driver_methods(driver_name):
    iface = _driver_vendor(driver_name)
    return drivers_base.passthru_metadata(
        iface.driver_routes if iface else {})


class VendorMixin(object):
    """The RPC 1.9 endpoints of vendor passthru."""

    @messaging.expected_exceptions(*_EXPECTED)
    @hardware_calls.bounded
    def vendor_passthru(self, context, node_id, driver_method, http_method,
                        info):
        """Call a node's vendor method: {'return', 'async', 'attach'}.
        Only a method that asks for it gets the node's lock."""
        LOG.debug('RPC vendor_passthru called for node %s', node_id)
        http_method = http_method.upper()
        with task_manager.acquire(context, node_id, shared=True,
                                  purpose='calling vendor passthru') as task:
            iface, meta = node_route(task, driver_method, http_method)
            if not meta['require_exclusive_lock']:
                return call_node_method(self._pool, task, iface, meta,
                                        http_method, info)
        with task_manager.acquire(context, node_id,
                                  purpose='calling vendor passthru') as task:
            iface, meta = node_route(task, driver_method, http_method)
            return call_node_method(self._pool, task, iface, meta,
                                    http_method, info)

    @messaging.expected_exceptions(*_EXPECTED)
    def driver_vendor_passthru(self, context, driver_name, driver_method,
                               http_method, info):
        """Call a hardware type's vendor method (with the context)."""
        LOG.debug('RPC driver_vendor_passthru called for driver %s',
                  driver_name)
        return call_driver_method(self._pool, context, driver_name,
                                  driver_method, http_method.upper(), info)

    @messaging.expected_exceptions(exception.NodeNotFound,
                                   exception.DriverNotFound)
    def get_node_vendor_passthru_methods(self, context, node_id):
        """{method: metadata} of the node's vendor interface."""
        with task_manager.acquire(context, node_id, shared=True,
                                  purpose='listing vendor passthru methods'
                                  ) as task:
            return node_methods(task)

    @messaging.expected_exceptions(exception.DriverNotFound)
    def get_driver_vendor_passthru_methods(self, context, driver_name):
        """{method: metadata} of the hardware type's vendor methods."""
        return driver_methods(driver_name)
