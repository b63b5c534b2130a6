"""A node's indicators (LEDs), RPC 1.8: Ironic's conductor calls of
``/v1/nodes/<n>/management/indicators``."""

from oslo_log import log as logging
import oslo_messaging as messaging

from ironic_lite.common import exception
from ironic_lite.conductor import hardware_calls
from ironic_lite.conductor import task_manager

LOG = logging.getLogger(__name__)


def _management(task):
    management = task.driver.interface(task.node, 'management')
    management.validate(task)
    return management


class IndicatorsMixin(object):
    """get_supported_indicators, get_indicator_state and
    set_indicator_state."""

    @messaging.expected_exceptions(exception.NodeLocked,
                                   exception.UnsupportedDriverExtension,
                                   exception.InvalidParameterValue)
    @hardware_calls.bounded
    def get_supported_indicators(self, context, node_id, component=None):
        """{component: {indicator: {'readonly': bool, 'states': [...]}}},
        of one component when given."""
        with task_manager.acquire(context, node_id, shared=True,
                                  purpose='getting supported indicators'
                                  ) as task:
            return _management(task).get_supported_indicators(
                task, component=component)

    @messaging.expected_exceptions(exception.NodeLocked,
                                   exception.UnsupportedDriverExtension,
                                   exception.InvalidParameterValue)
    @hardware_calls.bounded
    def get_indicator_state(self, context, node_id, component, indicator):
        """The state of an indicator (``common.indicator_states``)."""
        with task_manager.acquire(context, node_id, shared=True,
                                  purpose='getting indicator state') as task:
            return _management(task).get_indicator_state(task, component,
                                                         indicator)

    @messaging.expected_exceptions(exception.NodeLocked,
                                   exception.UnsupportedDriverExtension,
                                   exception.InvalidParameterValue)
    @hardware_calls.bounded
    def set_indicator_state(self, context, node_id, component, indicator,
                            state):
        """Set an indicator, under the node's lock (what the driver
        records on the node is saved)."""
        LOG.debug('RPC set_indicator_state called for node %s: %s@%s -> '
                  '%s', node_id, indicator, component, state)
        with task_manager.acquire(context, node_id,
                                  purpose='setting indicator state') as task:
            _management(task).set_indicator_state(task, component,
                                                  indicator, state)
            task.node.save()
