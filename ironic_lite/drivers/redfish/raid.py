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
from ironic_lite.drivers import raid
from ironic_lite.drivers import steps

_EXTENSION = 'RAID configuration through Redfish'


class RedfishRAID(base.RAIDInterface):

    name = 'redfish'

    def _unsupported(self, task):
        raise exception.UnsupportedDriverExtension(
            driver=task.node.driver, extension=_EXTENSION)

    @steps.clean_step(priority=0, argsinfo=raid.CREATE_ARGSINFO)
    @base.deploy_step(priority=0, argsinfo=raid.CREATE_ARGSINFO)
    def create_configuration(self, task, create_root_volume=True,
                             create_nonroot_volumes=True,
                             delete_existing=True):
        self._unsupported(task)

    @steps.clean_step(priority=0)
    @base.deploy_step(priority=0)
    def delete_configuration(self, task):
        self._unsupported(task)
