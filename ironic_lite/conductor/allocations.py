"""RPC 1.5: allocations -- find a node matching a request and reserve it.

As Ironic's: the API sends a new allocation to any live conductor, which
stores it (``allocating``) and answers, then a worker looks for the
available nodes that match (resource class, traits, candidate nodes,
owner) and reserves one of them at random under its lock.  The node gets
the allocation's id and its UUID as ``instance_uuid`` in the same
transaction as the allocation its node (``Allocation.assign_node``), so
two allocations never get the same node: the second one finds the node
associated and moves on.  No match: the allocation is ``error`` with a
``last_error`` saying why.

A backfill (API 1.58, ``node`` given) is checked and recorded at once,
under the node's lock, by the node's own conductor.
"""

import random
import time

from oslo_log import log as logging
import oslo_messaging as messaging

from ironic_lite.common import exception
from ironic_lite.common import messages
from ironic_lite.common import states
from ironic_lite import conf
from ironic_lite.conductor import task_manager
from ironic_lite import objects

CONF = conf.CONF
LOG = logging.getLogger(__name__)

ALLOCATING = 'allocating'
ACTIVE = 'active'
ERROR = 'error'


def _failed(allocation, reason):
    """Record the failure on the allocation (gone already: nothing)."""
    try:
        allocation.node_id = None
        allocation.state = ERROR
        allocation.last_error = messages.safe(reason)
        allocation.save()
    except exception.AllocationNotFound:
        LOG.debug('Allocation %s was deleted while being processed',
                  allocation.uuid)
    except Exception:
        LOG.exception('Could not record the failure of allocation %s',
                      allocation.uuid)


def do_allocate(context, allocation):
    """Worker: find and reserve a node; never raises."""
    try:
        _reserve_any(context, allocation,
                     _candidate_nodes(context, allocation))
    except exception.AllocationNotFound:
        LOG.info('Allocation %s was deleted while being processed',
                 allocation.uuid)
    except exception.AllocationFailed as err:
        LOG.error('%s', err)
        _failed(allocation, err)
    except Exception as err:
        LOG.exception('Unexpected error processing allocation %s',
                      allocation.uuid)
        _failed(allocation, exception.AllocationFailed(
            uuid=allocation.uuid,
            error='unexpected %s' % type(err).__name__))


def _has_traits(node, traits):
    names = set(node.traits.get_trait_names() if node.traits else ())
    return names.issuperset(traits)


def _candidate_nodes(context, allocation):
    filters = {'resource_class': allocation.resource_class,
               'provision_state': states.AVAILABLE,
               'associated': False, 'maintenance': False,
               # As Ironic: a child node (1.83) is part of its parent, not
               # a machine to allocate.
               'has_parent': False}
    if allocation.owner:
        filters['project'] = allocation.owner
    nodes = [n for n in objects.Node.list(context, filters=filters)
             if n.power_state is not None and n.allocation_id is None]
    if allocation.candidate_nodes:
        wanted = set(allocation.candidate_nodes)
        nodes = [n for n in nodes if n.uuid in wanted]
    if not nodes:
        error = ('none of the requested nodes are available and match the '
                 'resource class %s' if allocation.candidate_nodes else
                 'no available nodes match the resource class %s')
        raise exception.AllocationFailed(
            uuid=allocation.uuid, error=error % allocation.resource_class)
    if allocation.traits:
        traits = set(allocation.traits)
        nodes = [n for n in nodes if _has_traits(n, traits)]
        if not nodes:
            raise exception.AllocationFailed(
                uuid=allocation.uuid,
                error='no suitable nodes have the requested traits %s'
                      % ', '.join(sorted(traits)))
    # Parallel allocations do not try the nodes in the same order; a node
    # named as the allocation is tried first (as Ironic, API 1.79).
    random.shuffle(nodes)
    nodes.sort(key=lambda n: not (allocation.name
                                  and n.name == allocation.name))
    return nodes


def _still_matches(node, allocation):
    return (not node.maintenance and not node.instance_uuid
            and node.allocation_id is None
            and node.provision_state == states.AVAILABLE
            and node.resource_class == allocation.resource_class
            and (not allocation.traits
                 or _has_traits(node, set(allocation.traits))))


def _try_nodes(context, allocation, nodes):
    """Reserve the first node that can be; returns the nodes that were
    locked by someone else (worth another try)."""
    locked = []
    for node in nodes:
        try:
            with task_manager.acquire(context, node.uuid, retry=False,
                                      load_driver=False,
                                      purpose='allocating') as task:
                if not _still_matches(task.node, allocation):
                    continue
                node_id = task.node.id
                task.fenced(lambda: allocation.assign_node(node_id, ACTIVE))
                LOG.info('Node %s reserved for allocation %s', node.uuid,
                         allocation.uuid)
                return None
        except exception.NodeLocked:
            locked.append(node)
        except (exception.NodeAssociated, exception.NodeNotFound,
                exception.NodeLockLost):
            continue
    return locked


def _reserve_any(context, allocation, nodes):
    """Try every node, then the locked ones again, as many times as a
    node lock is retried ([conductor]node_locked_retry_attempts)."""
    for attempt in range(CONF.conductor.node_locked_retry_attempts + 1):
        if attempt:
            time.sleep(CONF.conductor.node_locked_retry_interval)
        nodes = _try_nodes(context, allocation, nodes)
        if nodes is None:
            return
        if not nodes:
            break
    error = ('could not reserve any of %d suitable nodes' % len(nodes)
             if nodes else 'all nodes were filtered out during reservation')
    raise exception.AllocationFailed(uuid=allocation.uuid, error=error)


def _backfill_errors(node, allocation):
    errors = []
    if node.provision_state != states.ACTIVE:
        errors.append('Node must be in the "active" state, but the current '
                      'state is "%s"' % node.provision_state)
    if (allocation.resource_class
            and node.resource_class != allocation.resource_class):
        errors.append('Resource class %s does not match the requested '
                      'resource class %s' % (node.resource_class,
                                             allocation.resource_class))
    if allocation.traits and not _has_traits(node, set(allocation.traits)):
        errors.append('List of traits %s does not match the requested '
                      'traits %s' % (node.traits.get_trait_names(),
                                     allocation.traits))
    if (allocation.candidate_nodes
            and node.uuid not in allocation.candidate_nodes):
        errors.append('Candidate nodes must be empty or contain the target '
                      'node, but got %s' % allocation.candidate_nodes)
    return errors


def backfill(context, allocation, node_id):
    """Record an allocation for a node already deployed (API 1.58).

    :raises: AllocationFailed, NodeAssociated, InstanceAssociated,
        NodeNotFound (the allocation is then ``error``, as in Ironic).
    """
    try:
        with task_manager.acquire(context, node_id, load_driver=False,
                                  purpose='allocation backfilling') as task:
            errors = _backfill_errors(task.node, allocation)
            if errors:
                raise exception.AllocationFailed(
                    uuid=allocation.uuid,
                    error='Cannot backfill an allocation for node %s: %s'
                          % (task.node.uuid, '; '.join(errors)))
            node = task.node.id
            task.fenced(lambda: allocation.assign_node(node, ACTIVE))
    except (exception.AllocationFailed, exception.NodeAssociated,
            exception.InstanceAssociated, exception.NodeNotFound) as err:
        _failed(allocation, err)
        raise


def check_deallocation(node, allocation):
    """InvalidState unless the node's allocation may be removed now."""
    if node.maintenance:
        return
    if (node.target_provision_state
            and node.provision_state not in states.UPDATE_ALLOWED_STATES):
        raise exception.InvalidState(
            'Cannot remove allocation %(uuid)s for node %(node)s, because '
            'the node is in state %(state)s where updates are not allowed '
            '(and maintenance mode is off)'
            % {'node': node.uuid, 'uuid': allocation.uuid,
               'state': node.provision_state})
    if node.provision_state == states.ACTIVE:
        raise exception.InvalidState(
            'Cannot remove allocation %(uuid)s for node %(node)s, because '
            'the node is active (and maintenance mode is off)'
            % {'node': node.uuid, 'uuid': allocation.uuid})


class AllocationsMixin(object):
    """The allocation methods of ``ConductorManager`` (RPC 1.5)."""

    @messaging.expected_exceptions(exception.AllocationDuplicateName,
                                   exception.AllocationAlreadyExists,
                                   exception.AllocationFailed,
                                   exception.NodeAssociated,
                                   exception.InstanceAssociated,
                                   exception.NodeNotFound,
                                   exception.NodeLocked,
                                   exception.NoFreeConductorWorker)
    def create_allocation(self, context, allocation):
        """Store a new allocation and start looking for its node (or, with
        a ``node_id``, backfill it at once); returns it as stored."""
        LOG.debug('RPC create_allocation called for allocation %s',
                  allocation.uuid)
        node_id = (allocation.node_id
                   if allocation.obj_attr_is_set('node_id') else None)
        allocation.node_id = None
        allocation.state = ALLOCATING
        allocation.conductor_affinity = (self.conductor.id if self.conductor
                                         else None)
        slot = None if node_id else self._pool.claim()
        try:
            allocation.create(context)
        except Exception:
            if slot is not None:
                slot.cancel()
            raise
        if node_id:
            backfill(context, allocation, node_id)
        else:
            slot.submit(do_allocate, context, allocation.obj_clone())
        return allocation

    @messaging.expected_exceptions(exception.InvalidState,
                                   exception.NodeLocked,
                                   exception.AllocationNotFound)
    def destroy_allocation(self, context, allocation):
        """Delete an allocation; its node (if any) is checked and freed
        under the node's lock."""
        if not allocation.node_id:
            allocation.destroy(context)
            return
        try:
            with task_manager.acquire(context, allocation.node_id,
                                      load_driver=False,
                                      purpose='allocation deletion') as task:
                check_deallocation(task.node, allocation)
                task.fenced(lambda: allocation.destroy(context))
        except exception.NodeNotFound:
            allocation.destroy(context)
        LOG.info('Deleted allocation %s', allocation.uuid)


# The states in which a node with an allocation may lose its instance (as
# Ironic's update_node; in maintenance, any).
_RELEASE_STATES = (states.ENROLL, states.INSPECTING, states.INSPECTWAIT,
                   states.MANAGEABLE, states.AVAILABLE)


def check_instance_removal(current, node_obj, delta):
    """InvalidState when an update would take the instance (and so the
    allocation) away from a node that is deployed or being deployed."""
    if ('instance_uuid' not in delta or node_obj.instance_uuid
            or current.allocation_id is None or current.maintenance
            or current.provision_state in _RELEASE_STATES):
        return
    raise exception.InvalidState(
        "Node %(node)s with an allocation can not have instance_uuid "
        "removed unless it is in one of allowed (%(allowed)s) states or in "
        "maintenance mode. Current state is '%(state)s'."
        % {'node': current.uuid, 'allowed': ', '.join(_RELEASE_STATES),
           'state': current.provision_state})
