"""Allocations end to end (API 1.52-1.60, RPC 1.5): the sequence
metalsmith drives through openstacksdk -- allocate a node by resource
class and traits, deploy it, undeploy it (the allocation goes with the
instance), allocate and release again -- against ``ironic-lite`` (SQLite,
in-process RPC) and against an API and a conductor as separate processes
on PostgreSQL and RabbitMQ."""

from openstack import exceptions as sdk_exc
import pytest

from tests.functional import consumers
from tests.functional import procs
from tests import timeouts

RC = 'alloc-gold'


def _available(bm, names, traits):
    """Nodes of class RC made available side by side (one wait each)."""
    nodes = [bm.create_node(driver='fake-hardware', name=name,
                            resource_class=RC) for name in names]
    for node, node_traits in zip(nodes, traits):
        for trait in node_traits:
            bm.add_node_trait(node, trait)
    for verb, state in (('manage', 'manageable'), ('provide', 'available')):
        for node in nodes:
            bm.set_node_provision_state(node, verb)
        bm.wait_for_nodes_provision_state(nodes, state,
                                          timeout=timeouts.HANG)
    return nodes


def _gone(bm, allocation):
    with pytest.raises(sdk_exc.NotFoundException):
        bm.get_allocation(allocation.id)
    return True


def metalsmith_cycle(bm, prefix):
    """Allocate -> deploy -> undeploy -> allocate -> release."""
    # The second node has the class but not the trait: never taken.
    node, _plain = _available(bm, [prefix + '-gpu', prefix + '-plain'],
                              [['CUSTOM_GPU'], []])
    allocation = bm.create_allocation(
        resource_class=RC, traits=['CUSTOM_GPU'], name=prefix + '-a1')
    allocation = bm.wait_for_allocation(allocation, timeout=timeouts.HANG)
    assert (allocation.state, allocation.node_id) == ('active', node.id)
    reserved = bm.get_node(node.id)
    assert reserved.allocation_id == allocation.id
    assert reserved.instance_id == allocation.id

    bm.patch_node(node, [{'op': 'add', 'path': '/instance_info',
                          'value': {'image_source': 'http://images/i.qcow2',
                                    'root_gb': 10}}])
    bm.set_node_provision_state(node, 'active', wait=True,
                                timeout=timeouts.HANG)
    shown = bm.get('/nodes/%s/allocation' % node.id, microversion='1.52')
    assert shown.status_code == 200, shown.text
    assert shown.json()['uuid'] == allocation.id
    bm.set_node_provision_state(node, 'deleted', wait=True,
                                timeout=timeouts.HANG)
    assert _gone(bm, allocation)
    freed = bm.get_node(node.id)
    assert (freed.provision_state, freed.allocation_id,
            freed.instance_id) == ('available', None, None)

    again = bm.wait_for_allocation(bm.create_allocation(
        resource_class=RC, candidate_nodes=[prefix + '-gpu']),
        timeout=timeouts.HANG)
    assert again.node_id == node.id
    bm.delete_allocation(again)
    assert _gone(bm, again)
    assert bm.get_node(node.id).allocation_id is None

    failed = bm.wait_for_allocation(bm.create_allocation(
        resource_class='no-such-class'), timeout=timeouts.HANG,
        ignore_error=True)
    assert failed.state == 'error'
    assert 'no available nodes match the resource class no-such-class' in \
        failed.last_error
    assert [a.id for a in bm.allocations(state='error')] == [failed.id]


@pytest.mark.long(25)
def test_allocations_on_lite(lite_service):
    metalsmith_cycle(consumers.connect(lite_service).baremetal, 'lite')


class _Base(object):
    """What consumers.connect needs of a service."""

    def __init__(self, base):
        self.base = base
        self.credentials = procs.NOAUTH


@pytest.mark.long(30)
@pytest.mark.backend
def test_allocations_on_processes(tmp_path, postgresql_url, rabbit_url):
    common = {
        'DEFAULT': {'transport_url': rabbit_url,
                    'state_path': str(tmp_path)},
        'database': {'connection': postgresql_url},
        'api': {'host_ip': '127.0.0.1', 'port': procs.free_port()},
        'conductor': {'heartbeat_interval': 1},
        'fake': {'power_delay': 0, 'deploy_delay': 0, 'clean_delay': 0},
    }
    with procs.api_and_conductor(tmp_path, common, 'api-al',
                                 'cond-al') as split:
        metalsmith_cycle(consumers.connect(_Base(split.base)).baremetal,
                         'proc')
