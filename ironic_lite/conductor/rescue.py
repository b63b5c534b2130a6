"""Rescue (RPC 1.6): active -> rescuing -> rescue, and back with unrescue:
rescue -> unrescuing -> active.

The rescue password is kept in the node's ``instance_info`` while the
node is rescued or being rescued, with its hash, as Ironic keeps them
(``rescue_password``, ``hashed_rescue_password``, SHA-256 crypt as
Ironic's default; the API masks both), and removed on every transition
out of rescue (``phase_secrets``): an unrescue, a failed rescue, a rescue
failed by the conductor that took over a dead one's node.
"""

from oslo_log import log as logging
import oslo_messaging as messaging
from oslo_utils import secretutils

from ironic_lite.common import exception
from ironic_lite.common import states
from ironic_lite.conductor import phase_secrets
from ironic_lite.conductor import task_manager
from ironic_lite.conductor import utils

LOG = logging.getLogger(__name__)

PASSWORD_KEYS = phase_secrets.RESCUE_PASSWORD_KEYS


def _hash(password):
    return secretutils.crypt_password(password,
                                      secretutils.crypt_mksalt('SHA-256'))


def remove_rescue_password(node):
    """Drop the rescue password (and its hash) from ``instance_info``."""
    info = dict(node.instance_info or {})
    if any(key in info for key in PASSWORD_KEYS):
        for key in PASSWORD_KEYS:
            info.pop(key, None)
        node.instance_info = info


def _failed(task, message):
    """rescuing/unrescuing -> rescue failed/unrescue failed."""
    if task.node.provision_state == states.RESCUING:
        remove_rescue_password(task.node)
    LOG.error('%s: node %s', message, task.node.uuid)
    task.process_event('fail', last_error=message)


def _run(task, operation, expected):
    """Worker: the rescue interface's ``operation``; ``done`` when it
    returns the ``expected`` state, else ``fail``."""
    what = 'rescue' if operation == 'rescue' else 'unrescue'
    try:
        result = getattr(task.driver.interface(task.node, 'rescue'),
                         operation)(task)
    except exception.IronicException as err:
        return _failed(task, 'Failed to %s: %s' % (what, err))
    except Exception as err:
        LOG.exception('%s of node %s failed', what, task.node.uuid)
        return _failed(task, 'Failed to %s. Exception: %s' % (what, err))
    if result != expected:
        return _failed(task, 'Failed to %s: Driver returned unexpected '
                             'state %s' % (what, result))
    if operation == 'unrescue':
        remove_rescue_password(task.node)
    task.process_event('done')
    LOG.info('Node %s: %s done', task.node.uuid, what)


def do_node_rescue(task):
    """Worker: rescuing -> rescue (fake: no rescue wait)."""
    _run(task, 'rescue', states.RESCUE)


def do_node_unrescue(task):
    """Worker: unrescuing -> active."""
    _run(task, 'unrescue', states.ACTIVE)


def _check_state(node, event):
    if not states.is_actionable(node.provision_state, event):
        raise exception.InvalidStateRequested(
            action=event, node=node.uuid, state=node.provision_state)


class RescueMixin(object):
    """The RPC 1.6 endpoints of rescue and unrescue."""

    @messaging.expected_exceptions(exception.NoFreeConductorWorker,
                                   exception.NodeInMaintenance,
                                   exception.NodeLocked,
                                   exception.InstanceRescueFailure,
                                   exception.InvalidStateRequested)
    def do_node_rescue(self, context, node_id, rescue_password):
        """Validate, store the password, and rescue in a worker."""
        LOG.debug('RPC do_node_rescue called for node %s', node_id)
        with task_manager.acquire(context, node_id,
                                  purpose='node rescue') as task:
            node = task.node
            if node.maintenance:
                raise exception.NodeInMaintenance(op='rescuing',
                                                  node=node.uuid)
            try:
                task.driver.power.validate(task)
                task.driver.interface(node, 'rescue').validate(task)
            except (exception.InvalidParameterValue,
                    exception.UnsupportedDriverExtension) as err:
                raise exception.InstanceRescueFailure(
                    instance=node.instance_uuid, node=node.uuid,
                    reason='Validation failed: %s' % err)
            _check_state(node, 'rescue')
            info = dict(node.instance_info or {})
            info.update(rescue_password=rescue_password,
                        hashed_rescue_password=_hash(rescue_password))
            node.instance_info = info
            task.set_spawn_error_hook(utils.fail_node, task)
            task.process_event('rescue', pool=self._pool,
                               call_args=(do_node_rescue, task))

    @messaging.expected_exceptions(exception.NoFreeConductorWorker,
                                   exception.NodeInMaintenance,
                                   exception.NodeLocked,
                                   exception.InstanceUnrescueFailure,
                                   exception.InvalidStateRequested)
    def do_node_unrescue(self, context, node_id):
        """Validate, and unrescue in a worker."""
        LOG.debug('RPC do_node_unrescue called for node %s', node_id)
        with task_manager.acquire(context, node_id,
                                  purpose='node unrescue') as task:
            node = task.node
            if node.maintenance:
                raise exception.NodeInMaintenance(op='unrescuing',
                                                  node=node.uuid)
            try:
                task.driver.power.validate(task)
            except exception.InvalidParameterValue as err:
                raise exception.InstanceUnrescueFailure(
                    instance=node.instance_uuid, node=node.uuid,
                    reason='Validation failed: %s' % err)
            _check_state(node, 'unrescue')
            task.set_spawn_error_hook(utils.fail_node, task)
            task.process_event('unrescue', pool=self._pool,
                               call_args=(do_node_unrescue, task))
