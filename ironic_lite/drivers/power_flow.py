"""The power changes of the flows (deploy, tear down, inspection, after a
failure) for a node that may never be powered off (``disable_power_off``,
API 1.95), as Ironic's flows do them: where a flow powers the node off
and on again around a change of its boot set-up, such a node is rebooted
once at the end instead; where a flow leaves a node off (tear down,
the end of inspection), it is rebooted (it must not keep running what it
ran); after a failure, it is left as it is.
"""

from ironic_lite.common import states


def _set(task, power_state):
    task.driver.power.set_power_state(task, power_state)
    task.node.power_state = states.power_target(power_state)


def power_off_unless_disabled(task):
    """Power the node off, unless it must stay on (nothing then)."""
    if not task.node.disable_power_off:
        _set(task, states.POWER_OFF)


def power_on_or_reboot(task):
    """The end of ``power_off_unless_disabled``'s change: power the node
    on, or reboot it if it stayed on (Ironic's ``power_off_and_on``)."""
    if task.node.disable_power_off:
        task.driver.power.reboot(task)
        task.node.power_state = states.POWER_ON
    else:
        _set(task, states.POWER_ON)


def power_off_or_reboot(task):
    """Leave the node off -- or, if it must stay on, reboot it."""
    if task.node.disable_power_off:
        task.driver.power.reboot(task)
        task.node.power_state = states.POWER_ON
    else:
        _set(task, states.POWER_OFF)
