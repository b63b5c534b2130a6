"""The node's console and NMI (RPC 1.6): Ironic's conductor calls of
``/states/console`` and ``/management/inject_nmi``."""

from oslo_log import log as logging
import oslo_messaging as messaging

from ironic_lite.common import exception
from ironic_lite.conductor import hardware_calls
from ironic_lite.conductor import task_manager

LOG = logging.getLogger(__name__)


def _set_console_mode(task, enabled):
    """Worker: start or stop the console, then record it."""
    node = task.node
    console = task.driver.interface(node, 'console')
    try:
        if enabled:
            console.start_console(task)
        else:
            console.stop_console(task)
    except Exception as err:
        node.last_error = ('Error %s the console on node %s. Reason: %s'
                           % ('enabling' if enabled else 'disabling',
                              node.uuid, err))
        LOG.error(node.last_error)
        node.save()
        return
    node.console_enabled = enabled
    node.last_error = None
    node.save()


class ConsoleMixin(object):
    """get_console_information, set_console_mode and inject_nmi."""

    @messaging.expected_exceptions(exception.NodeLocked,
                                   exception.UnsupportedDriverExtension,
                                   exception.NodeConsoleNotEnabled,
                                   exception.InvalidParameterValue)
    def get_console_information(self, context, node_id):
        """How to connect to the node's console (NodeConsoleNotEnabled
        unless it is enabled)."""
        with task_manager.acquire(context, node_id, shared=True,
                                  purpose='getting console information'
                                  ) as task:
            node = task.node
            if not node.console_enabled:
                raise exception.NodeConsoleNotEnabled(node=node.uuid)
            console = task.driver.interface(node, 'console')
            console.validate(task)
            return console.get_console(task)

    @messaging.expected_exceptions(exception.NoFreeConductorWorker,
                                   exception.NodeLocked,
                                   exception.UnsupportedDriverExtension,
                                   exception.InvalidParameterValue)
    def set_console_mode(self, context, node_id, enabled):
        """Enable or disable the console (in a worker); nothing to do when
        it already is."""
        LOG.debug('RPC set_console_mode called for node %s: %s', node_id,
                  enabled)
        with task_manager.acquire(context, node_id, shared=True,
                                  purpose='setting console mode') as task:
            task.driver.interface(task.node, 'console').validate(task)
            if bool(enabled) == bool(task.node.console_enabled):
                LOG.info('Console of node %s already %s', task.node.uuid,
                         'enabled' if enabled else 'disabled')
                return
        with task_manager.acquire(context, node_id,
                                  purpose='setting console mode') as task:
            task.node.last_error = None
            task.spawn_after(self._pool, _set_console_mode, task,
                             bool(enabled))
            task.node.save()

    @messaging.expected_exceptions(exception.NodeLocked,
                                   exception.UnsupportedDriverExtension,
                                   exception.InvalidParameterValue,
                                   exception.DriverOperationError)
    @hardware_calls.bounded
    def inject_nmi(self, context, node_id):
        """Send the node an NMI, through its management interface."""
        LOG.debug('RPC inject_nmi called for node %s', node_id)
        with task_manager.acquire(context, node_id,
                                  purpose='inject nmi') as task:
            management = task.driver.interface(task.node, 'management')
            management.validate(task)
            management.inject_nmi(task)
