"""The ``redfish-virtual-media`` boot interface.

Ironic builds a bootable ISO from the deploy kernel and ramdisk (or the
instance's image) and serves it to the BMC.  ironic-lite builds no
images: the URL it inserts as virtual media is taken as given --
``driver_info['deploy_iso']`` (or Ironic's older ``redfish_deploy_iso``),
else ``deploy_ramdisk``, which must then be a bootable image itself --
and, for an instance, ``instance_info['boot_iso']``.  The BMC must be able
to fetch it over HTTP(S).
"""

from oslo_log import log as logging
import sushy

from ironic_lite.common import exception
from ironic_lite.drivers import base
from ironic_lite.drivers.redfish import utils
from ironic_lite.drivers.redfish import vmedia

LOG = logging.getLogger(__name__)

PROPERTIES = {
    'deploy_kernel': 'URL of the deployment kernel. ironic-lite builds no '
                     'ISO from it: kept for Ironic compatibility. Optional',
    'deploy_ramdisk': 'URL of the deployment ramdisk, inserted as virtual '
                      'media as it is when deploy_iso is not set (it must '
                      'then be bootable). Required if deploy_iso is not '
                      'set.',
    'deploy_iso': 'URL of the deployment ISO inserted as virtual media. '
                  'Required if deploy_ramdisk is not set.',
    'redfish_deploy_iso': 'Older name of deploy_iso (Ironic\'s). Optional',
}

_URL_SCHEMES = ('http://', 'https://')


def deploy_media_url(node):
    """The URL inserted as the deploy media.

    :raises: MissingParameterValue when the node has none.
    :raises: InvalidParameterValue when it is not an HTTP(S) URL.
    """
    info = node.driver_info or {}
    url = (info.get('deploy_iso') or info.get('redfish_deploy_iso')
           or info.get('deploy_ramdisk'))
    if not url:
        raise exception.MissingParameterValue(
            err='Missing the following parameters in node %s driver_info: '
                'deploy_iso or deploy_ramdisk' % node.uuid)
    if not isinstance(url, str) or not url.startswith(_URL_SCHEMES):
        raise exception.InvalidParameterValue(
            err='The deploy media of node %s must be an http(s) URL: '
                'ironic-lite does not fetch images from an image service '
                'nor build ISOs' % node.uuid)
    return url


def insert_cd(task, url):
    vmedia.insert(task, url, sushy.VIRTUAL_MEDIA_CD)


def eject_cd(task):
    vmedia.eject(task, sushy.VIRTUAL_MEDIA_CD)


class RedfishVirtualMediaBoot(base.BootInterface):
    properties = PROPERTIES

    def validate(self, task):
        utils.parse_driver_info(task.node)
        deploy_media_url(task.node)

    def prepare_ramdisk(self, task, ramdisk_params):
        """Insert the deploy media and boot from it next time.

        ``ramdisk_params`` (kernel parameters) cannot be passed without
        building an image: they are ignored, as logged."""
        url = deploy_media_url(task.node)
        if ramdisk_params:
            LOG.debug('Node %s: ramdisk parameters are not passed by '
                      'virtual media without an image build: %s',
                      task.node.uuid, sorted(ramdisk_params))
        insert_cd(task, url)
        task.driver.management.set_boot_device(task, 'cdrom')

    def clean_up_ramdisk(self, task):
        eject_cd(task)

    def prepare_instance(self, task):
        """Boot the instance: its ``boot_iso`` as virtual media when given
        (a ramdisk deploy), else the local disk."""
        boot_iso = (task.node.instance_info or {}).get('boot_iso')
        eject_cd(task)
        if boot_iso:
            insert_cd(task, boot_iso)
            task.driver.management.set_boot_device(task, 'cdrom',
                                                   persistent=True)
        else:
            task.driver.management.set_boot_device(task, 'disk',
                                                   persistent=True)

    def clean_up_instance(self, task):
        eject_cd(task)
