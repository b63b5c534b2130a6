"""RAID (RPC 1.9): a node's target RAID configuration, checked by its
RAID interface and stored under its lock, and the logical disk
properties a hardware type's RAID interface takes.  The configuration is
applied by the RAID interface's clean or deploy steps."""

from oslo_log import log as logging
import oslo_messaging as messaging

from ironic_lite.common import exception
from ironic_lite.conductor import task_manager
from ironic_lite.drivers import factory
from ironic_lite.drivers import raid

LOG = logging.getLogger(__name__)


def set_target_raid_config(task, target_raid_config):
    """Check (unless it is empty: that clears it) and set the node's
    target RAID configuration (the caller saves the node)."""
    if target_raid_config:
        task.driver.interface(task.node, 'raid').validate_raid_config(
            task, target_raid_config)
    task.node.target_raid_config = target_raid_config


def logical_disk_properties(driver_name):
    """{property: description} of a logical disk, from the RAID interface
    the hardware type gives a node by default (``no-raid`` answers with
    the schema's, as Ironic's NoRAID inherits them)."""
    hw_type = factory.get_hardware_type(driver_name)
    name = hw_type.default_interface('raid') or ''
    impl = getattr(hw_type, 'raid', None)
    if impl is None or name.startswith('no-'):
        return raid.logical_disk_properties()
    return impl.get_logical_disk_properties()


class RaidMixin(object):
    """The RPC 1.9 endpoints of RAID."""

    @messaging.expected_exceptions(exception.NodeLocked,
                                   exception.NodeNotFound,
                                   exception.InvalidParameterValue,
                                   exception.UnsupportedDriverExtension)
    def set_target_raid_config(self, context, node_id, target_raid_config):
        """Check (unless it is empty: that clears it) and store the
        node's target RAID configuration."""
        LOG.debug('RPC set_target_raid_config called for node %s', node_id)
        with task_manager.acquire(context, node_id,
                                  purpose='setting target RAID config'
                                  ) as task:
            set_target_raid_config(task, target_raid_config)
            task.node.save()

    @messaging.expected_exceptions(exception.DriverNotFound,
                                   exception.UnsupportedDriverExtension)
    def get_raid_logical_disk_properties(self, context, driver_name):
        return logical_disk_properties(driver_name)
