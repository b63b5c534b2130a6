"""The shard queries of the database layer on every backend: the order of
/v1/shards on ties, and the node filters of port and port group lists."""

from ironic_lite.db import node as db_node
from ironic_lite.db import port as db_port


def _nodes(*specs):
    """Nodes from (shard, owner, lessee) triples; their ids in order."""
    ids = []
    for shard, owner, lessee in specs:
        row = db_node.create_node({'driver': 'fake-hardware', 'shard': shard,
                                   'owner': owner, 'lessee': lessee})
        ids.append(row.id)
    return ids


def test_shard_list_ties_named_by_name_then_unsharded(any_db):
    # Two nodes each in "b", "a", unsharded and "C" (uppercase sorts
    # before lowercase: byte order on every backend's binary collation),
    # three in "z", one in "y".
    _nodes(*[(s, None, None) for s in
             ('b', 'b', None, 'a', 'z', None, 'a', 'z', 'C', 'y', 'z', 'C')])
    assert [tuple(r) for r in db_node.get_shard_list()] == [
        ('z', 3), ('C', 2), ('a', 2), ('b', 2), (None, 2), ('y', 1)]


def test_shard_list_empty(any_db):
    assert db_node.get_shard_list() == []


def _ports(ids):
    addresses = {}
    for i, node_id in enumerate(ids):
        mac = '52:54:00:00:00:%02x' % i
        db_port.create_port({'address': mac, 'node_id': node_id})
        addresses[node_id] = mac
    return addresses


def test_ports_of_the_nodes_a_project_owns_or_leases(any_db):
    owned, leased, other, unsharded = _nodes(
        ('A', 'p1', None), ('A', 'p2', 'p1'), ('A', 'p2', None),
        (None, None, 'p1'))
    macs = _ports([owned, leased, other, unsharded])

    def listed(**filters):
        return sorted(p.address for p in db_port.get_port_list(filters))

    assert listed(project='p1') == sorted(
        [macs[owned], macs[leased], macs[unsharded]])
    assert listed(project='p2') == sorted([macs[leased], macs[other]])
    assert listed(project='p3') == []
    assert listed(shard=['A'], project='p1') == sorted(
        [macs[owned], macs[leased]])
    assert listed(shard=[None], project='p1') == [macs[unsharded]]
    assert listed(shard=[None, 'A']) == sorted(macs.values())
    assert listed(shard=[]) == []
    assert listed() == sorted(macs.values())
    # An empty project is no filter (as for nodes).
    assert listed(project='') == sorted(macs.values())
