"""A node's boot mode and secure boot (RPC 1.8): Ironic's conductor calls
of ``PUT /v1/nodes/<n>/states/boot_mode`` and ``.../secure_boot``, and
the cache of both in the node's ``boot_mode`` and ``secure_boot`` fields
(Ironic's ``node_cache_boot_mode``: after a change, at verification and
at each power state sync).
"""

from oslo_log import log as logging
import oslo_messaging as messaging

from ironic_lite.common import exception
from ironic_lite.common import states
from ironic_lite.conductor import task_manager

LOG = logging.getLogger(__name__)


def _read(task, getter):
    """(known, value) of a management getter, ``getter(management,
    task)``: (True, None) when the driver cannot tell, (False, None) when
    reading failed."""
    try:
        return True, getter(task.driver.management, task)
    except exception.UnsupportedDriverExtension:
        return True, None
    except Exception as err:
        LOG.warning('Could not read the boot settings of node %s: %s: %s',
                    task.node.uuid, type(err).__name__, err)
        return False, None


def _get_boot_mode(management, task):
    return management.get_boot_mode(task)


def _get_secure_boot(management, task):
    return management.get_secure_boot_state(task)


def node_cache_boot_mode(task):
    """Record the boot mode and secure boot state the hardware reports
    (None where the driver cannot tell); nothing changes when reading
    fails.  The caller holds the node's lock."""
    node = task.node
    known_mode, mode = _read(task, _get_boot_mode)
    known_secure, secure = _read(task, _get_secure_boot)
    if not (known_mode and known_secure):
        return
    if (mode, secure) != (node.boot_mode, node.secure_boot):
        node.boot_mode, node.secure_boot = mode, secure
        node.save()
        LOG.info('Node %s: boot mode %s, secure boot %s', node.uuid, mode,
                 secure)


def _set_boot_mode(management, task, mode):
    management.set_boot_mode(task, mode)


def _set_secure_boot(management, task, state):
    management.set_secure_boot_state(task, state)


# field -> (getter, setter, what the messages call it)
_SETTINGS = {
    'boot_mode': (_get_boot_mode, _set_boot_mode, 'boot mode'),
    'secure_boot': (_get_secure_boot, _set_secure_boot,
                    'secure_boot state'),
}


def change_setting(task, field, target):
    """Worker: set the boot mode or secure boot state unless the hardware
    already has it; a failure is the node's ``last_error``."""
    getter, setter, what = _SETTINGS[field]
    node = task.node
    _known, current = _read(task, getter)
    if current is not None and current == target:
        LOG.info('Node %s already has %s %s: nothing to change', node.uuid,
                 what, target)
        return node_cache_boot_mode(task)
    try:
        setter(task.driver.management, task, target)
    except Exception as err:
        LOG.error('Changing the %s of node %s to %s failed: %s: %s', what,
                  node.uuid, target, type(err).__name__, err)
        node.last_error = ("Failed to change %s to '%s': %s"
                           % (what, target, err))
        node.save()
        return
    LOG.info('Changed the %s of node %s to %s', what, node.uuid, target)
    setattr(node, field, target)
    node.save()


def _spawn_failed(exc, task, what):
    task.node.last_error = 'Failed while changing node %s: %s' % (what, exc)
    task.node.save()


def check_stable(node):
    """Ironic's API refuses these changes while the node is transitioning
    (409); checked again here, under the lock."""
    if node.provision_state in states.UNSTABLE_STATES:
        raise exception.NodeTransitioning(state=node.provision_state)


class BootModeMixin(object):
    """change_node_boot_mode and change_node_secure_boot (RPC 1.8)."""

    def _change(self, context, node_id, field, target):
        what = _SETTINGS[field][2]
        with task_manager.acquire(context, node_id,
                                  purpose='changing node %s' % what) as task:
            task.driver.interface(task.node, 'management').validate(task)
            check_stable(task.node)
            task.spawn_after(self._pool, change_setting, task, field,
                             target)
            task.set_spawn_error_hook(_spawn_failed, task, what)
            # A new operation: the previous error goes.
            task.node.last_error = None
            task.node.save()

    @messaging.expected_exceptions(exception.InvalidParameterValue,
                                   exception.NoFreeConductorWorker,
                                   exception.NodeLocked,
                                   exception.NodeTransitioning,
                                   exception.UnsupportedDriverExtension)
    def change_node_boot_mode(self, context, node_id, new_state):
        """Set the boot mode (``bios``/``uefi``) in a worker."""
        LOG.debug('RPC change_node_boot_mode called for node %s: %s',
                  node_id, new_state)
        self._change(context, node_id, 'boot_mode', new_state)

    @messaging.expected_exceptions(exception.InvalidParameterValue,
                                   exception.NoFreeConductorWorker,
                                   exception.NodeLocked,
                                   exception.NodeTransitioning,
                                   exception.UnsupportedDriverExtension)
    def change_node_secure_boot(self, context, node_id, new_state):
        """Turn secure boot on (True) or off (False) in a worker."""
        LOG.debug('RPC change_node_secure_boot called for node %s: %s',
                  node_id, new_state)
        self._change(context, node_id, 'secure_boot', new_state)
