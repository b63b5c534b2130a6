"""RPC 1.5 (release 4.0): allocations through the real conductor on the
fake transport -- the matching rules, the reservation, deletion, races and
recovery."""

import threading

from oslo_utils import uuidutils
import pytest

from ironic_lite.common import exception
from ironic_lite.conductor import allocations
from ironic_lite.conductor import recovery
from ironic_lite import objects


def _available(make_node, context, traits=(), **values):
    values.setdefault('resource_class', 'gold')
    values.setdefault('power_state', 'power off')
    node = make_node(provision_state='available', **values)
    for trait in traits:
        objects.Trait(context, node_id=node.id, trait=trait).create()
    return node


def _allocation(context, **values):
    values.setdefault('resource_class', 'gold')
    values.setdefault('uuid', uuidutils.generate_uuid())
    return objects.Allocation(context, **values)


def _wait_done(context, wait_for, uuid):
    return wait_for(lambda: (lambda a: a if a.state != 'allocating'
                             else None)(
        objects.Allocation.get_by_uuid(context, uuid)),
        what='allocation %s processed' % uuid)


def test_create_reserves_a_node_asynchronously(rpc_api, context, make_node,
                                               wait_for, wait_node,
                                               conductor):
    node = _available(make_node, context, traits=('CUSTOM_A', 'CUSTOM_B'))
    created = rpc_api.create_allocation(
        context, _allocation(context, traits=['CUSTOM_A']))
    assert created.state == 'allocating'
    assert created.conductor_affinity == conductor.manager.conductor.id
    done = _wait_done(context, wait_for, created.uuid)
    assert (done.state, done.node_id, done.last_error) == (
        'active', node.id, None)
    # The lock is released right after the reservation is written.
    node = wait_node(node.uuid)
    assert (node.allocation_id, node.instance_uuid) == (done.id, done.uuid)
    assert node.instance_info == {'traits': ['CUSTOM_A']}


@pytest.mark.parametrize('values, allocation, error', [
    ({'resource_class': 'silver'}, {},
     'no available nodes match the resource class gold'),
    ({'maintenance': True}, {},
     'no available nodes match the resource class gold'),
    ({'power_state': None}, {},
     'no available nodes match the resource class gold'),
    ({'provision_state': 'manageable'}, {},
     'no available nodes match the resource class gold'),
    ({'instance_uuid': '2ad4ffd6-2c0a-4d3c-9a57-0f2d1f1b6c8f'}, {},
     'no available nodes match the resource class gold'),
    ({'owner': 'p2'}, {'owner': 'p1'},
     'no available nodes match the resource class gold'),
    # A child node (API 1.83) is never a candidate, as in Ironic.
    ({'parent_node': '5f0c8a3e-2d4b-4e6f-8a1c-3b5d7e9f1a2c'}, {},
     'no available nodes match the resource class gold'),
    ({}, {'traits': ['CUSTOM_X']},
     'no suitable nodes have the requested traits CUSTOM_X'),
    ({}, {'candidate_nodes': [uuidutils.generate_uuid()]},
     'none of the requested nodes are available and match the resource '
     'class gold'),
])
def test_what_does_not_match(context, make_node, values, allocation,
                             error):
    values = dict(values)
    state = values.pop('provision_state', 'available')
    node = _available(make_node, context, **values)
    if state != 'available':
        node.provision_state = state
        node.save()
    new = _allocation(context, **allocation)
    new.create()
    allocations.do_allocate(context, new.obj_clone())
    new.refresh()
    assert new.state == 'error'
    assert new.node_id is None
    assert new.last_error == ('Failed to process allocation %s: %s.'
                              % (new.uuid, error))


def test_owner_takes_owned_or_leased_nodes(context, make_node):
    leased = _available(make_node, context, owner='p2', lessee='p1')
    new = _allocation(context, owner='p1')
    new.create()
    allocations.do_allocate(context, new.obj_clone())
    new.refresh()
    assert (new.state, new.node_id) == ('active', leased.id)


def test_a_node_named_as_the_allocation_is_preferred(context, make_node):
    for i in range(5):
        _available(make_node, context, name='n%d' % i)
    new = _allocation(context, name='n3')
    new.create()
    allocations.do_allocate(context, new.obj_clone())
    new.refresh()
    assert objects.Node.get_by_id(context, new.node_id).name == 'n3'


def test_parallel_allocations_never_share_a_node(context, make_node):
    nodes = [_available(make_node, context) for _ in range(3)]
    news = []
    for _ in range(6):
        new = _allocation(context)
        new.create()
        news.append(new)
    threads = [threading.Thread(target=allocations.do_allocate,
                                args=(context, n.obj_clone()))
               for n in news]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for new in news:
        new.refresh()
    taken = [n.node_id for n in news if n.state == 'active']
    assert sorted(taken) == sorted(n.id for n in nodes)
    assert sorted(n.state for n in news) == ['active'] * 3 + ['error'] * 3
    for node in nodes:
        node = objects.Node.get_by_uuid(context, node.uuid)
        owner = [n for n in news if n.node_id == node.id]
        assert node.instance_uuid == owner[0].uuid


def test_a_locked_node_is_skipped_then_retried(context, make_node):
    node = _available(make_node, context)
    objects.Node.reserve(context, 'someone-else', node.uuid)
    new = _allocation(context)
    new.create()
    allocations.do_allocate(context, new.obj_clone())
    new.refresh()
    assert new.state == 'error'
    assert 'could not reserve any of 1 suitable nodes' in new.last_error
    objects.Node.release(context, 'someone-else', node.uuid)


def test_destroy_frees_the_node(rpc_api, context, make_node, wait_for):
    node = _available(make_node, context)
    created = rpc_api.create_allocation(context, _allocation(context))
    done = _wait_done(context, wait_for, created.uuid)
    rpc_api.destroy_allocation(context, done)
    node = objects.Node.get_by_uuid(context, node.uuid)
    assert (node.allocation_id, node.instance_uuid) == (None, None)
    with pytest.raises(exception.AllocationNotFound):
        objects.Allocation.get_by_uuid(context, done.uuid)


def test_destroy_refused_while_the_node_is_active(rpc_api, context,
                                                  make_node, wait_for):
    node = _available(make_node, context)
    created = rpc_api.create_allocation(context, _allocation(context))
    done = _wait_done(context, wait_for, created.uuid)
    node = objects.Node.get_by_uuid(context, node.uuid)
    node.provision_state = 'active'
    node.save()
    with pytest.raises(exception.InvalidState):
        rpc_api.destroy_allocation(context, done)
    node.maintenance = True
    node.save()
    rpc_api.destroy_allocation(context, done)
    assert objects.Node.get_by_uuid(context, node.uuid).instance_uuid is None


def test_backfill_goes_to_the_node_and_checks_it(rpc_api, context,
                                                 make_node):
    node = _available(make_node, context)
    with pytest.raises(exception.AllocationFailed) as err:
        rpc_api.create_allocation(
            context, _allocation(context, node_id=node.id), node)
    assert 'Node must be in the "active" state' in str(err.value)
    node.provision_state = 'active'
    node.save()
    created = rpc_api.create_allocation(
        context, _allocation(context, node_id=node.id), node)
    assert (created.state, created.node_id) == ('active', node.id)


def test_pinned_to_3_0_the_client_refuses(context, config, database):
    from ironic_lite.conductor import rpcapi
    config.set_override('pin_release_version', '3.0')
    api = rpcapi.ConductorAPI()
    with pytest.raises(exception.PinnedRelease):
        api.create_allocation(context, _allocation(context))
    with pytest.raises(exception.PinnedRelease):
        api.destroy_allocation(context, _allocation(context))


def test_allocating_ones_of_a_dead_conductor_become_error(context,
                                                          database):
    dead = objects.Conductor.register(context, 'dead-host', ['fake-hardware'],
                                      '')
    stuck = _allocation(context, conductor_affinity=dead.id)
    stuck.create()
    other = _allocation(context, conductor_affinity=dead.id + 1)
    other.create()
    assert recovery.fail_orphan_allocations(context, ['dead-host'],
                                            'me') == 1
    stuck.refresh()
    other.refresh()
    assert stuck.state == 'error'
    assert 'stopped before it was done' in stuck.last_error
    assert other.state == 'allocating'


def test_instance_of_a_deployed_allocated_node_stays(rpc_api, context,
                                                     make_node, wait_for):
    node = _available(make_node, context)
    created = rpc_api.create_allocation(context, _allocation(context))
    _wait_done(context, wait_for, created.uuid)
    node = objects.Node.get_by_uuid(context, node.uuid)
    node.provision_state = 'active'
    node.save()
    node.instance_uuid = None
    with pytest.raises(exception.InvalidState) as err:
        rpc_api.update_node(context, node)
    assert 'can not have instance_uuid removed' in str(err.value)
    node = objects.Node.get_by_uuid(context, node.uuid)
    node.provision_state = 'available'
    node.save()
    node.instance_uuid = None
    rpc_api.update_node(context, node)
    with pytest.raises(exception.AllocationNotFound):
        objects.Allocation.get_by_uuid(context, created.uuid)


def test_an_allocation_deleted_while_allocating_reserves_nothing(
        context, make_node):
    node = _available(make_node, context)
    new = _allocation(context)
    new.create()
    clone = new.obj_clone()
    new.destroy()
    allocations.do_allocate(context, clone)
    node = objects.Node.get_by_uuid(context, node.uuid)
    assert (node.allocation_id, node.instance_uuid, node.reservation) == (
        None, None, None)
