"""What an out-of-band inspection leaves: the inventory (replacing the
previous one) and one port per new MAC address, none for a MAC that a
port of this or another node has."""

from ironic_lite.conductor import inspection
from ironic_lite.conductor import task_manager
from ironic_lite import objects


def _store(context, node, macs, inventory):
    with task_manager.acquire(context, node.uuid,
                              purpose='test inspection') as task:
        inspection._store(task, {'inventory': inventory, 'plugin_data': {},
                                 'macs': macs})


def test_inventory_and_ports(context, conductor, make_node):
    node = make_node(provision_state='manageable')
    other = make_node(provision_state='manageable')
    objects.Port(context, node_id=other.id,
                 address='52:54:00:00:00:02').create()
    macs = ['52:54:00:00:00:01', '52:54:00:00:00:02']
    _store(context, node, macs, {'cpu': {'count': 1}})
    _store(context, node, macs, {'cpu': {'count': 2}})
    ports = objects.Port.list_by_node_id(context, node.id)
    assert [(p.address, p.pxe_enabled) for p in ports] == [
        ('52:54:00:00:00:01', True)]
    stored = objects.NodeInventory.get_by_node_id(context, node.id)
    assert stored.inventory_data == {'cpu': {'count': 2}}
    assert stored.plugin_data == {}
