"""The ``redfish`` power interface: ComputerSystem.Reset, then wait.

As Ironic's: each action asks the BMC for a reset type and waits (up to
``timeout``, else ``[conductor]power_state_change_timeout``) until the
system reports the state the action leads to; a reboot of a powered-on
node is a power off and a power on.
"""

import time

from oslo_log import log as logging
import sushy

from ironic_lite.common import exception
from ironic_lite.common import states
from ironic_lite import conf
from ironic_lite.drivers import base
from ironic_lite.drivers.redfish import management
from ironic_lite.drivers.redfish import utils

CONF = conf.CONF
LOG = logging.getLogger(__name__)

GET_POWER_STATE_MAP = {
    sushy.SYSTEM_POWER_STATE_ON: states.POWER_ON,
    sushy.SYSTEM_POWER_STATE_POWERING_ON: states.POWER_ON,
    sushy.SYSTEM_POWER_STATE_OFF: states.POWER_OFF,
    sushy.SYSTEM_POWER_STATE_POWERING_OFF: states.POWER_OFF,
}

SET_POWER_STATE_MAP = {
    states.POWER_ON: sushy.RESET_ON,
    states.POWER_OFF: sushy.RESET_FORCE_OFF,
    states.REBOOT: sushy.RESET_FORCE_RESTART,
    states.SOFT_REBOOT: sushy.RESET_GRACEFUL_RESTART,
    states.SOFT_POWER_OFF: sushy.RESET_GRACEFUL_SHUTDOWN,
}

# Longest pause between two reads of the power state while waiting.
_MAX_POLL_INTERVAL = 5


def wait_for_power_state(task, target, timeout=None):
    """Read the power state until it is ``target``.

    :raises: PowerStateFailure after ``timeout`` seconds (default
        ``[conductor]power_state_change_timeout``).
    """
    timeout = timeout or CONF.conductor.power_state_change_timeout
    deadline = time.monotonic() + timeout
    interval = 1
    while True:
        time.sleep(min(interval, max(0, deadline - time.monotonic())))
        if task.driver.power.get_power_state(task) == target:
            return
        if time.monotonic() >= deadline:
            LOG.error('Timed out after %s seconds waiting for %s on node %s',
                      timeout, target, task.node.uuid)
            raise exception.PowerStateFailure(pstate=target)
        interval = min(interval * 2, _MAX_POLL_INTERVAL)


def _reset(task, system, power_state, timeout):
    with utils.sushy_errors(task.node):
        system.reset_system(SET_POWER_STATE_MAP[power_state])
    wait_for_power_state(task, states.power_target(power_state), timeout)


class RedfishPower(base.PowerInterface):
    properties = utils.COMMON_PROPERTIES

    def validate(self, task):
        utils.parse_driver_info(task.node)

    def get_power_state(self, task):
        system = utils.get_system(task.node)
        return GET_POWER_STATE_MAP.get(system.power_state)

    def set_power_state(self, task, power_state, timeout=None):
        if power_state not in SET_POWER_STATE_MAP:
            raise exception.InvalidParameterValue(
                err='The driver %s does not support the power state, %s'
                    % (task.node.driver, power_state))
        system = utils.get_system(task.node)
        if power_state in (states.POWER_ON, states.SOFT_REBOOT,
                           states.REBOOT):
            management.restore_boot_device(task, system)
        _reset(task, system, power_state, timeout)

    def reboot(self, task, timeout=None):
        """A hard reboot: off (when on), then on; a node that must stay on
        (``disable_power_off``, API 1.95) is restarted without being
        powered off, as Ironic's."""
        system = utils.get_system(task.node)
        next_state = states.POWER_ON
        if GET_POWER_STATE_MAP.get(system.power_state) == states.POWER_ON:
            if getattr(task.node, 'disable_power_off', False):
                next_state = states.REBOOT
            else:
                _reset(task, system, states.POWER_OFF, timeout)
        management.restore_boot_device(task, system)
        _reset(task, system, next_state, timeout)

    def get_supported_power_states(self, task):
        return list(SET_POWER_STATE_MAP)
