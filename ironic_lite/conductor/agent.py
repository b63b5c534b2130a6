"""The ramdisk's agent (RPC 1.10): its token, its heartbeats, and the
deploys that wait too long for it.

* ``get_node_with_token`` (the API's ``GET /v1/lookup``): the first lookup
  of a node generates its agent token, kept as Ironic keeps it in
  ``driver_internal_info['agent_secret_token']`` (the API never shows
  it) and handed to the agent once; later lookups get ``******``.
* ``heartbeat`` (``POST /v1/heartbeat/<node>``): checked against the
  token under a shared lock, then, under the node's exclusive lock, the
  agent's URL, version and time are recorded and a deploy waiting in
  ``wait call-back`` goes on (``deployments.continue_node_deploy``).
  Every write is fenced by the lock's reservation token
  (conductor/task_manager.py): a conductor that lost the node (taken for
  dead, its lock reclaimed) writes nothing.
* ``check_deploy_timeouts`` (periodic): a node in ``wait call-back`` for
  ``[conductor]deploy_callback_timeout`` seconds fails its deploy.
"""

import secrets

from oslo_log import log as logging
import oslo_messaging as messaging
from oslo_utils import timeutils

from ironic_lite.common import exception
from ironic_lite.common import states
from ironic_lite import conf
from ironic_lite.conductor import deployments
from ironic_lite.conductor import inspection
from ironic_lite.conductor import servicing
from ironic_lite.conductor import task_manager
from ironic_lite.conductor import utils
from ironic_lite.drivers import power_flow
from ironic_lite import objects

CONF = conf.CONF
LOG = logging.getLogger(__name__)

TOKEN_KEY = 'agent_secret_token'
MASKED_TOKEN = '******'
# States in which a heartbeat is recorded without anything else done
# (Ironic's heartbeat_allowed states but wait call-back, fast track aside;
# no cleaning or rescue here waits for an agent); in any other the
# heartbeat is logged and ignored.
_RECORD_ONLY_STATES = (states.DEPLOYING, states.CLEANING, states.CLEANWAIT,
                       states.RESCUING, states.RESCUEWAIT, states.SERVICING,
                       states.SERVICEHOLD)


def token_present(node):
    return bool((node.driver_internal_info or {}).get(TOKEN_KEY))


def token_valid(node, token):
    """Ironic's ``is_agent_token_valid``: the node has a token and
    ``token`` is it (compared in constant time)."""
    stored = (node.driver_internal_info or {}).get(TOKEN_KEY)
    if not stored or not isinstance(token, str):
        return False
    return secrets.compare_digest(stored.encode(), token.encode())


def _record(node, callback_url, agent_version, agent_status,
            agent_status_message):
    info = dict(node.driver_internal_info or {})
    info.update(agent_url=callback_url, agent_version=agent_version,
                agent_last_heartbeat=timeutils.utcnow().isoformat())
    if agent_status:
        info['agent_status'] = agent_status
    if agent_status_message:
        info['agent_status_message'] = agent_status_message
    node.driver_internal_info = info


def _lock(context, node, purpose):
    """The node's exclusive task, not retried (Ironic's upgrade_lock with
    retry=False): None when another task holds the lock -- unless the
    agent has no URL recorded yet, then the 409 (NodeLocked) makes it
    retry soon (Ironic's)."""
    try:
        return task_manager.acquire(context, node.uuid, retry=False,
                                    purpose=purpose)
    except exception.NodeLocked:
        if not (node.driver_internal_info or {}).get('agent_url'):
            raise
        LOG.warning('Node %s is locked, skipping the heartbeat (the next '
                    'one will be processed)', node.uuid)
        return None


def _heartbeat_locked(task, pool, conductor_id, args):
    """Under the exclusive lock: check the token again (the node was read
    again under the lock), record, and continue a waiting deploy."""
    node = task.node
    if not token_valid(node, args[1]):
        raise exception.InvalidParameterValue(
            'Invalid or missing agent token received.')
    _record(node, args[0], *args[2:])
    deploy = task.driver.deploy
    if (node.provision_state == states.DEPLOYWAIT and not node.maintenance
            and deploy.takes_heartbeats):
        task.set_spawn_error_hook(utils.fail_node, task)
        task.process_event(
            'resume', pool=pool,
            call_args=(deployments.continue_node_deploy, task,
                       conductor_id))
        return
    if node.provision_state == states.SERVICEWAIT and not node.maintenance:
        # A service step waited for the agent (API 1.87): the steps after
        # it run now.
        task.set_spawn_error_hook(servicing.service_error_hook, task)
        task.process_event(
            'resume', pool=pool,
            call_args=(servicing.continue_node_service, task))
        return
    if node.provision_state == states.DEPLOYWAIT and node.maintenance:
        LOG.warning('Heartbeat from node %s in maintenance: recorded, the '
                    'deploy goes on once maintenance is off and the agent '
                    'heartbeats again', node.uuid)
    node.save()


class AgentMixin(object):
    """The RPC 1.10 endpoints of the ramdisk's agent, and its inspection
    data (1.11)."""

    @messaging.expected_exceptions(exception.NodeLocked,
                                   exception.NotFound,
                                   exception.Invalid,
                                   exception.NoFreeConductorWorker)
    def continue_inspection(self, context, node_id, inventory,
                            plugin_data=None):
        """Resume the inspection of a node in ``inspect wait`` with the
        data its agent sent; any other state is Ironic's bare NotFound
        (the API's 404 tells the agent nothing)."""
        LOG.debug('RPC continue_inspection called for the node %s', node_id)
        with task_manager.acquire(context, node_id,
                                  purpose='continue inspection') as task:
            if task.node.provision_state != states.INSPECTWAIT:
                LOG.error('Refusing to process inspection data for node %s '
                          'in invalid state %s', task.node.uuid,
                          task.node.provision_state)
                raise exception.NotFound()
            task.set_spawn_error_hook(utils.fail_node, task)
            task.process_event(
                'resume', pool=self._pool,
                call_args=(inspection.continue_inspection, task, inventory,
                           plugin_data))

    @messaging.expected_exceptions(exception.NodeLocked,
                                   exception.NodeNotFound)
    def get_node_with_token(self, context, node_id):
        """The node, with its new agent token in driver_internal_info
        (``******`` when it already has one)."""
        LOG.debug('RPC get_node_with_token called for node %s', node_id)
        node = objects.Node.get(context, node_id)
        if token_present(node):
            LOG.warning('Refusing to generate a second agent token for '
                        'node %s', node.uuid)
            node.driver_internal_info = dict(node.driver_internal_info,
                                             agent_secret_token=MASKED_TOKEN)
            return node
        with task_manager.acquire(context, node.uuid, retry=False,
                                  load_driver=False,
                                  purpose='generate agent token') as task:
            if not token_present(task.node):
                task.node.driver_internal_info = dict(
                    task.node.driver_internal_info or {},
                    agent_secret_token=secrets.token_urlsafe(32))
                task.node.save()
                return objects.Node.get(context, node.uuid)
        return self.get_node_with_token(context, node_id)

    @messaging.expected_exceptions(exception.NodeLocked,
                                   exception.NodeNotFound,
                                   exception.InvalidParameterValue,
                                   exception.NoFreeConductorWorker)
    def heartbeat(self, context, node_id, callback_url, agent_version=None,
                  agent_token=None, agent_verify_ca=None, agent_status=None,
                  agent_status_message=None):
        """Process a heartbeat of the ramdisk's agent (Ironic's checks:
        a version is required, the token must match).  ``agent_verify_ca``
        is accepted and not kept: this conductor never calls the agent."""
        LOG.debug('RPC heartbeat called for node %s', node_id)
        if agent_version is None and agent_status is None:
            raise exception.InvalidParameterValue(
                'Agent did not transmit a version, and a version is '
                'required. Please update the agent being used.')
        with task_manager.acquire(context, node_id, shared=True,
                                  purpose='heartbeat') as shared:
            node = shared.node
            if not token_valid(node, agent_token):
                LOG.error('Invalid or missing agent_token received for '
                          'node %s', node.uuid)
                raise exception.InvalidParameterValue(
                    'Invalid or missing agent token received.')
            if not shared.driver.deploy.takes_heartbeats:
                LOG.warning('Heartbeat from node %s ignored: its deploy '
                            'interface %s does not take heartbeats',
                            node.uuid, node.deploy_interface)
                return
            if (node.provision_state not in (states.DEPLOYWAIT,
                                             states.SERVICEWAIT)
                    and node.provision_state not in _RECORD_ONLY_STATES):
                LOG.error('Heartbeat from node %s in unsupported provision '
                          'state %s, not taking any action.', node.uuid,
                          node.provision_state)
                return
        task = _lock(context, node, 'heartbeat')
        if task is None:
            return
        try:
            with task:
                _heartbeat_locked(
                    task, self._pool,
                    self.conductor.id if self.conductor else None,
                    (callback_url, agent_token, agent_version, agent_status,
                     agent_status_message))
        except exception.NodeLockLost:
            # Taken over meanwhile (logged by the task): nothing written;
            # the agent's next heartbeat goes to the new owner.
            return


# -- the deploy callback timeout (periodic) ---------------------------------

def _timed_out(node):
    timeout = CONF.conductor.deploy_callback_timeout
    changed = node.provision_updated_at
    if changed is None:
        return True
    if changed.tzinfo is not None:
        changed = changed.replace(tzinfo=None)
    return timeutils.is_older_than(changed, timeout)


def _fail_timed_out(task):
    node = task.node
    if (node.provision_state != states.DEPLOYWAIT or node.maintenance
            or not _timed_out(node)):
        return False    # it heartbeated, or changed, meanwhile
    message = ('Timeout reached while waiting for callback for node %s'
               % node.uuid)
    try:
        task.driver.deploy.clean_up(task)
    except Exception as err:
        LOG.warning('Cleaning up the deploy of node %s after its timeout '
                    'failed: %s', node.uuid, err)
    node.driver_internal_info = {
        k: v for k, v in (node.driver_internal_info or {}).items()
        if k not in deployments.AGENT_TOKEN_KEYS}
    try:
        power_flow.power_off_unless_disabled(task)
    except Exception as err:
        LOG.warning('Could not power off node %s after its deploy timed '
                    'out: %s', node.uuid, err)
    LOG.error(message)
    task.process_event('fail', last_error=message)
    return True


def check_deploy_timeouts(context, host):
    """Fail the deploys this host owns that waited in ``wait call-back``
    (not in maintenance) for ``[conductor]deploy_callback_timeout``
    seconds, as Ironic's ``_check_deploy_timeouts``: ``deploy failed``,
    ``last_error`` Ironic's.  Returns the UUIDs failed."""
    return task_manager.fail_timed_out_waits(
        context, host, states.DEPLOYWAIT,
        CONF.conductor.deploy_callback_timeout, 'deploy callback timeout',
        _fail_timed_out)
