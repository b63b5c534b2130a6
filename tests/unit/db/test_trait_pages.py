"""The traits of a page of nodes, read in one statement on each backend
(one array parameter on PostgreSQL): each node's own, by name, and an
empty list for a node without."""

from ironic_lite.db import trait as db_trait
from ironic_lite import objects

objects.register_all()


def test_traits_of_many_nodes(any_db):
    nodes = []
    for name, traits in (('a', ['CUSTOM_Z', 'CUSTOM_A']), ('b', []),
                         ('c', ['CUSTOM_M'])):
        node = objects.Node(None, driver='fake-hardware', name=name)
        node.create()
        if traits:
            objects.TraitList.create(None, node.id, traits)
        nodes.append(node)
    ids = [n.id for n in nodes]
    found = db_trait.get_node_traits_for_nodes(ids)
    assert {k: [r.trait for r in v] for k, v in found.items()} == {
        ids[0]: ['CUSTOM_A', 'CUSTOM_Z'], ids[1]: [], ids[2]: ['CUSTOM_M']}
    lists = objects.TraitList.get_for_nodes(None, ids[:2])
    assert {k: v.get_trait_names() for k, v in lists.items()} == {
        ids[0]: ['CUSTOM_A', 'CUSTOM_Z'], ids[1]: []}
    trait = lists[ids[0]].objects[0]
    assert (trait.node_id, trait.trait) == (ids[0], 'CUSTOM_A')
    assert trait.created_at is not None
    assert db_trait.get_node_traits_for_nodes([]) == {}
