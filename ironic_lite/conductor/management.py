"""Driver interface validation and boot devices (RPC 1.2,
``ManagementMixin``)."""

import oslo_messaging as messaging

from ironic_lite.common import exception
from ironic_lite.conductor import hardware_calls
from ironic_lite.conductor import task_manager
from ironic_lite.drivers import base as drivers_base

# What ``GET /v1/nodes/<n>/validate`` reports (Ironic: every interface but
# vendor, at every microversion: firmware too).
VALIDATED_INTERFACES = tuple(i for i in drivers_base.ALL_INTERFACES
                             if i != 'vendor')


def _validate_one(task, iface):
    name = (getattr(task.node, '%s_interface' % iface)
            or task.driver.default_interface(iface))
    if not name or name.startswith('no-'):
        raise exception.UnsupportedDriverExtension(driver=task.node.driver,
                                                   extension=iface)
    impl = getattr(task.driver, iface, None)
    if impl is not None:
        impl.validate(task)


def validate_driver_interfaces(task):
    """{interface: {'result': bool[, 'reason': str]}}, as Ironic."""
    results = {}
    for iface in VALIDATED_INTERFACES:
        try:
            _validate_one(task, iface)
            results[iface] = {'result': True}
        except (exception.InvalidParameterValue,
                exception.UnsupportedDriverExtension) as err:
            results[iface] = {'result': False, 'reason': str(err)}
    return results


def _management(task):
    _validate_one(task, 'management')
    return task.driver.management


def set_boot_device(task, device, persistent=False):
    management = _management(task)
    supported = management.get_supported_boot_devices(task)
    if device not in supported:
        raise exception.InvalidParameterValue(
            err='Invalid boot device %s specified, supported boot devices '
                'are: %s.' % (device, ', '.join(supported)))
    management.set_boot_device(task, device, persistent=bool(persistent))


def get_boot_device(task):
    return _management(task).get_boot_device(task)


def get_supported_boot_devices(task):
    return list(_management(task).get_supported_boot_devices(task))


class ManagementMixin(object):
    """The validation and boot device methods of ``ConductorManager``;
    each calls the BMC with a deadline (``hardware_calls.bounded``)."""

    @messaging.expected_exceptions(exception.NodeNotFound,
                                   exception.DriverNotFound)
    @hardware_calls.bounded
    def validate_driver_interfaces(self, context, node_id):
        with task_manager.acquire(context, node_id, shared=True,
                                  purpose='driver interface validation'
                                  ) as task:
            return validate_driver_interfaces(task)

    @messaging.expected_exceptions(exception.NodeLocked,
                                   exception.NodeNotFound,
                                   exception.InvalidParameterValue,
                                   exception.UnsupportedDriverExtension,
                                   exception.DriverOperationError)
    @hardware_calls.bounded
    def set_boot_device(self, context, node_id, device, persistent=False):
        with task_manager.acquire(context, node_id,
                                  purpose='setting boot device') as task:
            set_boot_device(task, device, persistent)
            task.node.save()

    @messaging.expected_exceptions(exception.NodeNotFound,
                                   exception.InvalidParameterValue,
                                   exception.UnsupportedDriverExtension,
                                   exception.DriverOperationError)
    @hardware_calls.bounded
    def get_boot_device(self, context, node_id):
        with task_manager.acquire(context, node_id, shared=True,
                                  purpose='getting boot device') as task:
            return get_boot_device(task)

    @messaging.expected_exceptions(exception.NodeNotFound,
                                   exception.InvalidParameterValue,
                                   exception.UnsupportedDriverExtension,
                                   exception.DriverOperationError)
    @hardware_calls.bounded
    def get_supported_boot_devices(self, context, node_id):
        with task_manager.acquire(context, node_id, shared=True,
                                  purpose='getting supported boot devices'
                                  ) as task:
            return get_supported_boot_devices(task)
