"""Verification: enroll -> verifying -> manageable."""

from oslo_log import log as logging

from ironic_lite.conductor import bios
from ironic_lite.conductor import boot_mode
from ironic_lite.conductor import firmware

LOG = logging.getLogger(__name__)


def do_node_verify(task):
    """Worker: check the node can be managed and read its power state,
    boot mode and secure boot state.

    Success -> ``manageable``; a failure (raised) goes back to ``enroll``
    with ``last_error`` through the task's spawn error hook.
    """
    node = task.node
    task.driver.power.validate(task)
    task.driver.management.validate(task)
    node.power_state = task.driver.power.get_power_state(task)
    # Ironic caches the boot mode and secure boot state here too.
    boot_mode.node_cache_boot_mode(task)
    # As Ironic caches them when verifying (node_update_cache).
    bios.cache_bios_settings_quietly(task)
    firmware.cache_firmware_components_quietly(task)
    task.process_event('done')
    LOG.info('Successfully verified node %s', node.uuid)
