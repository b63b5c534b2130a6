"""The ``ramdisk`` deploy interface: boot the deploy ramdisk and wait for
its agent.

A generic interface: any hardware type may list ``ramdisk`` among its
deploy interfaces (``factory.GENERIC_INTERFACES`` gives a node naming it
this implementation).  Its ``deploy`` (the core deploy step) powers the
node off, has the boot interface prepare the ramdisk
(``boot.prepare_ramdisk``), sets the node to boot from the network, powers
it on and returns ``states.DEPLOYWAIT``: the node waits in ``wait
call-back`` until the agent in the ramdisk looks itself up
(``GET /v1/lookup``) and heartbeats (``POST /v1/heartbeat/<node>``), or
fails after ``[conductor]deploy_callback_timeout``.  On the heartbeat
``continue_deploy`` removes the ramdisk's boot set-up
(``boot.clean_up_ramdisk``); the conductor then runs the remaining deploy
steps and boots the instance (``boot.prepare_instance``).

Unlike Ironic's ``ramdisk`` deploy (which boots a ramdisk *as* the
instance and never waits) and its ``direct`` deploy (whose agent writes an
image through commands the conductor sends it), nothing is written to the
disk and the conductor never calls the agent back: the heartbeat alone
completes the deploy (doc/source/api/differences.rst).
"""

from oslo_log import log as logging

from ironic_lite.common import states
from ironic_lite import conf
from ironic_lite.drivers import base
from ironic_lite.drivers import power_flow

CONF = conf.CONF
LOG = logging.getLogger(__name__)


def ramdisk_params():
    """The kernel parameters of the deploy ramdisk (Ironic's
    ``ipa-api-url``, when ``[conductor]api_url`` is set)."""
    params = {}
    if CONF.conductor.api_url:
        params['ipa-api-url'] = CONF.conductor.api_url
    return params


class RamdiskDeploy(base.DeployInterface):
    """Deploy by booting the agent's ramdisk and waiting for its
    heartbeat."""

    name = 'ramdisk'
    takes_heartbeats = True

    def validate(self, task):
        task.driver.boot.validate(task)

    def deploy(self, task):
        power_flow.power_off_unless_disabled(task)
        # The boot interface sets the device the ramdisk boots from (the
        # network, a virtual CD), as Ironic's boot interfaces do.
        task.driver.boot.prepare_ramdisk(task, ramdisk_params())
        power_flow.power_on_or_reboot(task)
        LOG.info('Node %s boots the deploy ramdisk; waiting for its '
                 'agent to heartbeat', task.node.uuid)
        return states.DEPLOYWAIT

    def continue_deploy(self, task):
        task.driver.boot.clean_up_ramdisk(task)

    def clean_up(self, task):
        # A deploy torn down (or failed) while it waited for the agent.
        task.driver.boot.clean_up_ramdisk(task)

    def tear_down(self, task):
        # The tear down flow has cleaned the instance's boot set-up up
        # (``boot.clean_up_instance``) before it calls this.
        power_flow.power_off_or_reboot(task)
