"""A node's traits (RPC 1.2, release 3.0): added, replaced or removed
under the node's lock, the writes fenced by it (``task.fenced``)."""

import oslo_messaging as messaging

from ironic_lite.common import exception
from ironic_lite.common import release_mappings
from ironic_lite.common import release_pin
from ironic_lite.conductor import task_manager
from ironic_lite import objects


def _remove_traits(context, node, traits):
    for trait in traits:
        try:
            objects.Trait.destroy(context, node.id, trait)
        except exception.NodeTraitNotFound:
            raise exception.NodeTraitNotFound(node_id=node.uuid, trait=trait)


class TraitsMixin(object):
    """The trait methods of ``ConductorManager``."""

    @messaging.expected_exceptions(exception.NodeLocked,
                                   exception.NodeNotFound,
                                   exception.InvalidParameterValue,
                                   exception.InvalidState)
    def add_node_traits(self, context, node_id, traits, replace=False):
        """Add traits to a node, or (``replace``) set exactly these."""
        pin = release_pin.effective()
        if pin and 'Trait' not in release_mappings.get_release(pin)[
                'objects']:
            # Only an API unpinned before this conductor sends this.
            raise exception.InvalidState(
                'This conductor is pinned to release %s, which has no node '
                'traits: nothing was changed. Unpin every conductor before '
                'any API (rolling upgrade steps 6.1-6.2).' % pin)
        with task_manager.acquire(context, node_id, load_driver=False,
                                  purpose='add node traits') as task:
            node_id = task.node.id
            if replace:
                task.fenced(lambda: objects.TraitList.create(
                    context, node_id, traits))
                return
            task.fenced(lambda: [
                objects.Trait(context, node_id=node_id, trait=t).create()
                for t in traits])

    @messaging.expected_exceptions(exception.NodeLocked,
                                   exception.NodeNotFound,
                                   exception.NodeTraitNotFound)
    def remove_node_traits(self, context, node_id, traits=None):
        """Remove the given traits of a node (every one when None)."""
        with task_manager.acquire(context, node_id, load_driver=False,
                                  purpose='remove node traits') as task:
            node = task.node
            if traits is None:
                task.fenced(lambda: objects.TraitList.destroy(context,
                                                              node.id))
                return
            task.fenced(lambda: _remove_traits(context, node, traits))
