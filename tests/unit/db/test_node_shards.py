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


def test_pages_of_a_shards_ports_and_port_groups(any_db):
    """A page of the ports (port groups) of a shard is found id first
    (db/api.paginate's ids_first): the same rows, in the same order, as
    the whole list sorted and cut, for every sort key and direction, page
    after page by marker."""
    from ironic_lite.db import portgroup as db_portgroup
    ids = _nodes(*[(('A', 'B', None)[i % 3], None, None) for i in range(9)])
    for i, node_id in enumerate(ids * 2):   # interleaved: ids not by node
        db_port.create_port({'address': '52:54:00:00:01:%02x' % (50 - i),
                             'node_id': node_id})
    for i, node_id in enumerate(ids):
        db_portgroup.create_portgroup({
            'address': '52:54:00:00:02:%02x' % (50 - i), 'node_id': node_id,
            'name': 'pg-%d' % (i % 4 * 10 + i)})
    in_a = set(ids[0::3])
    for get, key in ((db_port.get_port_list, 'address'),
                     (db_portgroup.get_portgroup_list, 'name')):
        everything = get({})
        for sort_key in (None, key):
            for sort_dir in ('asc', 'desc'):
                def order(row):
                    return (getattr(row, sort_key or 'id'), row.id)
                expected = [r.id for r in sorted(
                    (r for r in everything if r.node_id in in_a),
                    key=order, reverse=sort_dir == 'desc')]
                got, marker = [], None
                while True:
                    page = get({'shard': ['A']}, limit=2, marker=marker,
                               sort_key=sort_key, sort_dir=sort_dir)
                    got.extend(r.id for r in page)
                    if len(page) < 2:
                        break
                    marker = page[-1].uuid
                assert got == expected, (get.__name__, sort_key, sort_dir)
                assert len(expected) == (6 if key == 'address' else 3)


def _grouped():
    """The shard counts as a GROUP BY of the nodes finds them (byte-exact
    groups, as /v1/shards gave them before release 6.0)."""
    import collections

    from ironic_lite.db import api
    from ironic_lite.db import models
    with api.reader() as session:
        shards = [r[0] for r in session.query(models.Node.shard)]
    return collections.Counter(shards)


def test_shard_counts_follow_every_write(any_db):
    """shard_counts, kept by triggers on nodes: an insert, a change of
    shard (to another, to none, from none, to the same), a delete --
    always what counting the nodes gives; shards differing in case or a
    trailing space counted apart (MySQL's collation would merge them)."""
    ids = _nodes(*[(s, None, None) for s in
                   ('a', 'a', 'A', 'a ', None, 'b', None)])

    def listed():
        return dict(db_node.get_shard_list())

    assert listed() == {'a': 2, 'A': 1, 'a ': 1, None: 2, 'b': 1}
    assert listed() == _grouped()
    changes = [(ids[0], 'b'), (ids[1], None), (ids[4], 'A'),
               (ids[5], 'b'), (ids[3], 'a'), (ids[6], 'c')]
    for node_id, shard in changes:
        db_node.update_node(node_id, {'shard': shard})
        assert listed() == _grouped()
    assert listed() == {'b': 2, 'A': 2, 'a': 1, None: 1, 'c': 1}
    for node_id in ids[:3]:
        db_node.destroy_node(node_id)
    assert listed() == {'A': 1, 'a': 1, 'b': 1, 'c': 1} == _grouped()
    # A shard whose last node went is not listed.
    db_node.destroy_node(ids[6])
    assert 'c' not in listed()


def test_a_whole_list_of_a_shards_ports_is_one_query(any_db):
    """Without a limit, the ports of a shard are read in one statement
    (paginate's ids_first is for pages: a whole list's ids would go back
    as that many parameters) -- the same ports, in id order."""
    from sqlalchemy import event

    from ironic_lite.db import api
    ids = _nodes(('A', None, None), ('B', None, None), ('A', None, None))
    _ports(ids)
    statements = []

    def seen(conn, cursor, statement, *args):
        if statement.lstrip().upper().startswith('SELECT'):
            statements.append(statement)
    engine = api.get_engine()
    event.listen(engine, 'before_cursor_execute', seen)
    try:
        ports = db_port.get_port_list({'shard': ['A']})
    finally:
        event.remove(engine, 'before_cursor_execute', seen)
    assert [p.node_id for p in ports] == [ids[0], ids[2]]
    assert len(statements) == 1


def _child_shards():
    """{(table, id): shard} of every port and port group, as stored."""
    import sqlalchemy as sa

    from ironic_lite.db import api
    with api.reader() as session:
        return {(table, row[0]): row[1]
                for table in ('ports', 'portgroups')
                for row in session.execute(sa.text(
                    'SELECT id, shard FROM %s' % table))}


def _node_shards():
    """What _child_shards must be: each row's node's shard."""
    import sqlalchemy as sa

    from ironic_lite.db import api
    with api.reader() as session:
        return {(table, row[0]): row[1]
                for table in ('ports', 'portgroups')
                for row in session.execute(sa.text(
                    'SELECT c.id, n.shard FROM %s c LEFT JOIN nodes n '
                    'ON n.id = c.node_id' % table))}


def test_ports_and_port_groups_follow_their_nodes_shard(any_db):
    """The shard column of ports and port groups, kept by triggers: set
    on insert, followed when the row moves to another node and when the
    node's shard changes (to another, to a case or trailing-space
    variant, to none, from none), also for writes made by plain SQL as
    an older release's service makes them; and the shard filter reads
    it."""
    import sqlalchemy as sa

    from ironic_lite.db import api
    from ironic_lite.db import portgroup as db_portgroup
    a, b, none = _nodes(('a', None, None), ('b', None, None),
                        (None, None, None))
    ports = [db_port.create_port({'address': '52:54:00:00:03:%02x' % i,
                                  'node_id': node_id}).id
             for i, node_id in enumerate((a, a, b, none))]
    group = db_portgroup.create_portgroup({
        'address': '52:54:00:00:04:01', 'node_id': b, 'name': 'g'}).id
    assert _child_shards() == {
        ('ports', ports[0]): 'a', ('ports', ports[1]): 'a',
        ('ports', ports[2]): 'b', ('ports', ports[3]): None,
        ('portgroups', group): 'b'}

    def shard_of(shard):
        return [p.id for p in db_port.get_port_list({'shard': [shard]})]

    db_port.update_port(ports[1], {'node_id': b})
    db_portgroup.update_portgroup(group, {'node_id': a})
    assert _child_shards() == _node_shards()
    for node_id, shard in ((a, 'b'), (b, 'B'), (b, 'B '), (none, 'c'),
                           (a, None), (b, 'B ')):
        db_node.update_node(node_id, {'shard': shard})
        assert _child_shards() == _node_shards(), (node_id, shard)
    assert shard_of('B ') == [ports[1], ports[2]]
    assert shard_of('B') == [] and shard_of('c') == [ports[3]]
    assert shard_of(None) == [ports[0]]
    with api.writer() as session:
        session.execute(sa.text(
            "INSERT INTO ports (uuid, address, node_id, pxe_enabled) VALUES "
            "('11111111-2222-3333-4444-555555555555', '52:54:00:00:03:77', "
            ":node, true)"), {'node': none})
        session.execute(sa.text(
            'UPDATE ports SET node_id = :node WHERE id = :id'),
            {'node': none, 'id': ports[0]})
        session.execute(sa.text(
            "UPDATE nodes SET shard = 'd' WHERE id = :node"), {'node': b})
    assert _child_shards() == _node_shards()
    assert set(_child_shards().values()) == {'c', 'd', None}
    assert db_portgroup.get_portgroup_list({'shard': [None]})[0].id == group
