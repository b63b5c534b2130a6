"""A node's virtual media (RPC 1.12): Ironic's conductor calls of
``/v1/nodes/<n>/vmedia`` -- ``attach_virtual_media`` and
``detach_virtual_media`` (API 1.89), ``get_virtual_media`` (1.93).

As in Ironic, attaching and detaching validate the management interface
under the node's exclusive lock, clear the node's ``last_error`` and hand
the BMC work to a worker (the API answers 204 at once); a failure there
is the node's ``last_error``.  Reading asks the BMC under a shared lock.

ironic-lite downloads and serves no images: the URL given is handed to
the BMC as it is, whatever ``image_download_source`` says
(doc/source/api/differences.rst).
"""

from oslo_log import log as logging
import oslo_messaging as messaging

from ironic_lite.common import exception
from ironic_lite.conductor import hardware_calls
from ironic_lite.conductor import task_manager

LOG = logging.getLogger(__name__)

# Ironic's boot_devices.VMEDIA_DEVICES: the devices that make sense as
# virtual media.
VMEDIA_DEVICES = ('disk', 'cdrom', 'floppy')


def _management(task):
    management = task.driver.interface(task.node, 'management')
    management.validate(task)
    return management


def attach(task, device_type, image_url):
    """Worker: insert the image; a failure is the node's last_error."""
    node = task.node
    try:
        task.driver.management.attach_virtual_media(task, device_type,
                                                    image_url)
    except Exception as exc:
        LOG.error('Could not attach device %s to node %s: %s', device_type,
                  node.uuid, exc,
                  exc_info=not isinstance(exc, exception.IronicException))
        node.last_error = ('Could not attach device %s to node %s: %s'
                           % (device_type, node.uuid, exc))
    else:
        LOG.info('Device %s attached to node %s', device_type, node.uuid)
    node.save()


def detach(task, device_types):
    """Worker: eject the devices (all when None)."""
    node = task.node
    try:
        task.driver.management.detach_virtual_media(
            task, device_types=device_types)
    except Exception as exc:
        LOG.error('Could not detach device(s) %s from node %s: %s',
                  device_types, node.uuid, exc,
                  exc_info=not isinstance(exc, exception.IronicException))
        node.last_error = ('Could not detach device(s) %s from node %s: %s'
                           % (device_types, node.uuid, exc))
    else:
        LOG.info('Device(s) %s detached from node %s', device_types,
                 node.uuid)
    node.save()


def _spawn_failed(exc, task, what):
    task.node.last_error = 'Failed while %s: %s' % (what, exc)
    task.node.save()


class VmediaMixin(object):
    """get_virtual_media, attach_virtual_media, detach_virtual_media."""

    def _spawn_vmedia(self, context, node_id, what, func, *args):
        with task_manager.acquire(context, node_id, purpose=what) as task:
            _management(task)
            task.spawn_after(self._pool, func, task, *args)
            task.set_spawn_error_hook(_spawn_failed, task, what)
            # A new operation: the previous error goes.
            task.node.last_error = None
            task.node.save()

    @messaging.expected_exceptions(exception.InvalidParameterValue,
                                   exception.MissingParameterValue,
                                   exception.NodeLocked,
                                   exception.UnsupportedDriverExtension)
    @hardware_calls.bounded
    def get_virtual_media(self, context, node_id):
        """[{'media_types': [...], 'inserted': bool, 'image': url}]."""
        with task_manager.acquire(context, node_id, shared=True,
                                  purpose='get virtual media devices'
                                  ) as task:
            return _management(task).get_virtual_media(task)

    @messaging.expected_exceptions(exception.InvalidParameterValue,
                                   exception.MissingParameterValue,
                                   exception.NoFreeConductorWorker,
                                   exception.NodeLocked,
                                   exception.UnsupportedDriverExtension)
    def attach_virtual_media(self, context, node_id, device_type, image_url,
                             image_download_source='local'):
        """Attach ``image_url`` as ``device_type``, in a worker."""
        LOG.debug('RPC attach_virtual_media called for node %s for device '
                  'type %s (image download source %s)', node_id,
                  device_type, image_download_source)
        if device_type not in VMEDIA_DEVICES:
            raise exception.InvalidParameterValue(
                err='Invalid device type %s (valid are %s)'
                    % (device_type, ', '.join(VMEDIA_DEVICES)))
        self._spawn_vmedia(context, node_id, 'attaching virtual media',
                           attach, device_type, image_url)

    @messaging.expected_exceptions(exception.InvalidParameterValue,
                                   exception.MissingParameterValue,
                                   exception.NoFreeConductorWorker,
                                   exception.NodeLocked,
                                   exception.UnsupportedDriverExtension)
    def detach_virtual_media(self, context, node_id, device_types=None):
        """Detach ``device_types`` (all when None), in a worker."""
        LOG.debug('RPC detach_virtual_media called for node %s for device '
                  'types %s', node_id, device_types)
        self._spawn_vmedia(context, node_id, 'detaching virtual media',
                           detach, device_types)
