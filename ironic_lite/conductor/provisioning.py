"""The provisioning endpoints (RPC 1.0; deploy steps at 1.7): the
provisioning actions (manage, provide, inspect, adopt, abort), deploy and
tear down.  Each changes the node's provision state under its lock and
hands the long work to a flow in a worker: ``verify.py``,
``cleaning.py``, ``inspection.py``, ``deployments.py``."""

from oslo_log import log as logging
import oslo_messaging as messaging

from ironic_lite.common import exception
from ironic_lite.common import states
from ironic_lite.conductor import cleaning
from ironic_lite.conductor import deployments
from ironic_lite.conductor import inspection
from ironic_lite.conductor import servicing
from ironic_lite.conductor import steps as conductor_steps
from ironic_lite.conductor import task_manager
from ironic_lite.conductor import utils
from ironic_lite.conductor import verify

LOG = logging.getLogger(__name__)

# provisioning action -> (states it applies to, event, worker or None).
_PROVISION_ACTIONS = {
    'manage': {states.ENROLL: verify.do_node_verify},
    'provide': {states.MANAGEABLE: cleaning.do_node_clean},
    'inspect': {states.MANAGEABLE: inspection.inspect_hardware,
                states.INSPECTFAIL: inspection.inspect_hardware},
    'adopt': {states.MANAGEABLE: deployments.do_node_adopt,
              states.ADOPTFAIL: deployments.do_node_adopt},
}

_ABORTS = {
    states.CLEANWAIT: cleaning.abort_cleaning,
    states.CLEANHOLD: cleaning.abort_clean_hold,
    states.DEPLOYHOLD: deployments.abort_deploy_hold,
    # API 1.110 (the API refuses it below that)
    states.DEPLOYWAIT: deployments.abort_deploy_wait,
    states.INSPECTWAIT: inspection.abort_inspection,
    # servicing (API 1.87)
    states.SERVICEWAIT: servicing.abort_servicing,
    states.SERVICEHOLD: servicing.abort_servicing,
    states.SERVICEFAIL: servicing.abort_service_failed,
}

# unhold (API 1.85): the hold state -> the worker that goes on with the
# steps after the hold.
_UNHOLDS = {
    states.CLEANHOLD: cleaning.continue_manual_clean,
    states.DEPLOYHOLD: deployments.continue_held_deploy,
    states.SERVICEHOLD: servicing.continue_held_service,
}


def _validate_deploy(task, deploy_steps):
    """Ironic's checks of a deploy before its state changes: the power and
    deploy interfaces, the instance's traits, the deploy templates' and
    the user's steps (unknown steps are left to the worker, as Ironic
    leaves them until the agent's steps are known).

    :raises: InstanceDeployFailure (400), nothing written.
    """
    try:
        task.driver.power.validate(task)
        task.driver.deploy.validate(task)
        conductor_steps.check_instance_traits(task.node)
        conductor_steps.validate_templates_and_user_steps(
            task, deploy_steps, skip_missing=True)
    except exception.InvalidParameterValue as err:
        raise exception.InstanceDeployFailure(
            'Failed to validate deploy or power info for node %s: %s'
            % (task.node.uuid, err), code=err.code)


class ProvisioningMixin(object):
    """The provisioning methods of ``ConductorManager``."""

    @messaging.expected_exceptions(exception.NoFreeConductorWorker,
                                   exception.NodeLocked,
                                   exception.InvalidParameterValue,
                                   exception.InvalidStateRequested,
                                   exception.NodeInMaintenance,
                                   exception.NodeIsRetired,
                                   exception.InvalidState)
    def do_provisioning_action(self, context, node_id, action):
        """manage, provide, inspect, adopt or abort a node."""
        LOG.debug('RPC do_provisioning_action %s called for node %s',
                  action, node_id)
        with task_manager.acquire(context, node_id,
                                  purpose='provision action %s'
                                  % action) as task:
            node = task.node
            worker = _PROVISION_ACTIONS.get(action, {}).get(
                node.provision_state)
            if action == 'abort':
                abort = _ABORTS.get(node.provision_state)
                if abort is None:
                    raise exception.InvalidStateRequested(
                        action=action, node=node.uuid,
                        state=node.provision_state)
                return abort(task)
            if action == 'unhold' and node.provision_state in _UNHOLDS:
                return self._unhold(task)
            if action == 'provide' and node.retired and worker is not None:
                raise exception.NodeIsRetired(op='providing', node=node.uuid)
            if worker is not None:
                task.set_spawn_error_hook(utils.fail_node, task)
                return task.process_event(
                    action, pool=self._pool, call_args=(worker, task))
            if action not in ('manage',):
                # Every other verb needs a worker or its own RPC method.
                raise exception.InvalidStateRequested(
                    action=action, node=node.uuid,
                    state=node.provision_state)
            task.process_event(action)

    def _unhold(self, task):
        """clean/deploy/service hold -> clean wait/wait call-back/service
        wait, and a worker
        that resumes the remaining steps."""
        node = task.node
        worker = _UNHOLDS[node.provision_state]
        if node.provision_state == states.CLEANHOLD:
            task.set_spawn_error_hook(cleaning.manual_clean_error_hook, task)
            return task.process_event(
                'unhold', pool=self._pool, call_args=(worker, task),
                target_state=node.target_provision_state)
        if node.provision_state == states.SERVICEHOLD:
            task.set_spawn_error_hook(servicing.service_error_hook, task)
            return task.process_event(
                'unhold', pool=self._pool, call_args=(worker, task))
        task.set_spawn_error_hook(utils.fail_node, task)
        return task.process_event(
            'unhold', pool=self._pool,
            call_args=(worker, task,
                       self.conductor.id if self.conductor else None))

    @messaging.expected_exceptions(exception.NoFreeConductorWorker,
                                   exception.NodeLocked,
                                   exception.NodeInMaintenance,
                                   exception.InstanceDeployFailure,
                                   exception.InvalidStateRequested,
                                   exception.NodeProtected,
                                   exception.InvalidParameterValue)
    def do_node_deploy(self, context, node_id, rebuild=False,
                       configdrive=None, deploy_steps=None):
        """available (or active, deploy failed, error for a rebuild) ->
        deploying -> active.

        :param deploy_steps: the user's deploy steps (RPC 1.7); an older
            caller sends none, and the deploy runs the interfaces' and the
            instance's deploy templates' steps.
        """
        LOG.debug('RPC do_node_deploy called for node %s', node_id)
        event = 'rebuild' if rebuild else 'deploy'
        with task_manager.acquire(context, node_id,
                                  purpose='node deployment') as task:
            node = task.node
            if node.maintenance:
                raise exception.NodeInMaintenance(op='provisioning',
                                                  node=node.uuid)
            if rebuild and node.protected:
                raise exception.NodeProtected(node=node.uuid)
            if not states.is_actionable(node.provision_state, event):
                raise exception.InvalidStateRequested(
                    action=event, node=node.uuid,
                    state=node.provision_state)
            _validate_deploy(task, deploy_steps)
            if task.driver.storage is not None:
                # The volumes the deploy attaches (a 400, nothing done).
                task.driver.storage.validate(task)
            if configdrive:
                info = dict(node.instance_info or {})
                info['configdrive'] = configdrive
                node.instance_info = info
            task.set_spawn_error_hook(utils.fail_node, task)
            task.process_event(
                event, pool=self._pool,
                call_args=(deployments.do_node_deploy, task,
                           self.conductor.id if self.conductor else None,
                           deploy_steps))

    @messaging.expected_exceptions(exception.NoFreeConductorWorker,
                                   exception.NodeLocked,
                                   exception.InstanceDeployFailure,
                                   exception.InvalidStateRequested,
                                   exception.NodeProtected)
    def do_node_tear_down(self, context, node_id):
        """active (deploy failed, error, ...) -> deleting -> cleaning ->
        available."""
        LOG.debug('RPC do_node_tear_down called for node %s', node_id)
        with task_manager.acquire(context, node_id,
                                  purpose='node tear down') as task:
            if task.node.protected:
                raise exception.NodeProtected(node=task.node.uuid)
            try:
                task.driver.power.validate(task)
            except exception.InvalidParameterValue as err:
                raise exception.InstanceDeployFailure(
                    reason='Failed to validate power driver interface. Can '
                           'not delete instance. Error: %s' % err)
            task.set_spawn_error_hook(utils.fail_node, task)
            task.process_event(
                'delete', pool=self._pool,
                call_args=(deployments.do_node_tear_down, task))
