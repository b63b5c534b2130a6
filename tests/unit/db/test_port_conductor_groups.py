"""The conductor_groups filter of port and port group lists on every
backend: exact groups (MariaDB's collation folds case and pads), and the
project and shard filters applied with it."""

from ironic_lite.db import node as db_node
from ironic_lite.db import port as db_port
from ironic_lite.db import portgroup as db_portgroup

# name -> (conductor_group, owner, shard).  The API stores groups
# lower-cased; "Bear" and "bear " are rows written otherwise, which a
# filter on "bear" must not select on any backend.
NODES = {
    'bear': ('bear', 'p1', 'S'), 'bear2': ('bear', None, None),
    'metal': ('metal', 'p1', None), 'default': ('', 'p1', 'S'),
    'upper': ('Bear', None, None), 'padded': ('bear ', None, None),
}


def _fleet():
    """The NODES, each with one port and one port group named after it;
    {name: MAC of its port}."""
    macs = {}
    for i, (name, (group, owner, shard)) in enumerate(sorted(NODES.items())):
        node = db_node.create_node({
            'driver': 'fake-hardware', 'name': name, 'owner': owner,
            'conductor_group': group, 'shard': shard})
        macs[name] = '52:54:00:00:00:%02x' % i
        db_port.create_port({'address': macs[name], 'node_id': node.id})
        db_portgroup.create_portgroup({'name': name, 'node_id': node.id})
    return macs


def test_ports_and_port_groups_of_conductor_groups(any_db):
    macs = _fleet()

    def ports(**filters):
        return sorted(p.address for p in db_port.get_port_list(filters))

    def groups(**filters):
        return sorted(pg.name
                      for pg in db_portgroup.get_portgroup_list(filters))

    def macs_of(*names):
        return sorted(macs[n] for n in names)

    assert ports(conductor_groups=['bear']) == macs_of('bear', 'bear2')
    assert ports(conductor_groups=['bear', 'metal']) == macs_of(
        'bear', 'bear2', 'metal')
    assert ports(conductor_groups=['Bear']) == macs_of('upper')
    assert ports(conductor_groups=['nope']) == []
    # An empty list is no filter (the API never passes one).
    assert ports(conductor_groups=[]) == sorted(macs.values())
    assert ports(conductor_groups=['bear'], project='p1') == macs_of('bear')
    assert ports(conductor_groups=['bear', 'metal'], shard=[None]) == (
        macs_of('bear2', 'metal'))
    assert ports(conductor_groups=['bear'], shard=['S'],
                 project='p2') == []
    assert groups(conductor_groups=['bear']) == ['bear', 'bear2']
    assert groups(conductor_groups=['metal'], project='p1') == ['metal']
    assert groups(conductor_groups=['bear '], project='p1') == []
