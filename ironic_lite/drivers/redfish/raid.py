"""The ``redfish`` RAID interface of the ``redfish`` type.

Metal3's baremetal-operator creates every Redfish node with
``raid_interface=redfish``: the interface must exist for the node to be
enrolled.  ironic-lite configures no volume through the BMC: the target
configuration is validated against Ironic's RAID schema as for any RAID
interface, and the ``create_configuration`` and ``delete_configuration``
steps (priority 0: manual cleaning, deploy templates) fail with a clear
error instead of pretending to apply it (:doc:`/api/differences`).
"""

from ironic_lite.common import exception
from ironic_lite.drivers import base
from ironic_lite.drivers import steps

_EXTENSION = 'RAID configuration through Redfish'

_ARGSINFO = {
    'create_root_volume': {
        'description': 'Whether to create the root volume of the target '
                       'RAID configuration (default: true).',
        'required': False},
    'create_nonroot_volumes': {
        'description': 'Whether to create its other volumes (default: '
                       'true).',
        'required': False},
    'delete_existing': {
        'description': 'Whether to delete the existing RAID configuration '
                       'first (default: true).',
        'required': False},
}


class RedfishRAID(base.RAIDInterface):

    name = 'redfish'

    def _unsupported(self, task):
        raise exception.UnsupportedDriverExtension(
            driver=task.node.driver, extension=_EXTENSION)

    @steps.clean_step(priority=0, argsinfo=_ARGSINFO)
    @base.deploy_step(priority=0, argsinfo=_ARGSINFO)
    def create_configuration(self, task, create_root_volume=True,
                             create_nonroot_volumes=True,
                             delete_existing=True):
        self._unsupported(task)

    @steps.clean_step(priority=0)
    @base.deploy_step(priority=0)
    def delete_configuration(self, task):
        self._unsupported(task)
