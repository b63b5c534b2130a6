"""The client side of ``allocations.AllocationsMixin``: allocations (RPC
1.5, release 4.0).

Refused (409, nothing done) while pinned below 1.5: a conductor of the
older release would not know the methods.
"""

import random

from ironic_lite.common import exception
from ironic_lite.conductor import hash_ring
from ironic_lite.conductor import rpc_errors

_V = '1.5'


def _any_host(context):
    """A live conductor, at random (as Ironic's get_random_topic)."""
    hosts = sorted({host for ring in
                    hash_ring.RING_MANAGER.rings(context).values()
                    for host in ring.nodes})
    if not hosts:
        raise exception.ServiceUnavailable(
            reason='No ironic-conductor is alive; the request cannot be '
                   'handled now, please retry later.')
    return random.choice(hosts)


class AllocationsCalls(object):
    """The allocation methods of ``rpcapi.ConductorAPI``."""

    @rpc_errors.translated
    def create_allocation(self, context, allocation, node=None):
        """Store and process an allocation: on any live conductor, or on
        the conductor of ``node`` for a backfill."""
        self.check_can_send(_V, 'Creating an allocation')
        host = None if node is not None else _any_host(context)
        return self.send(context, _V, 'create_allocation', node=node,
                         host=host, allocation=allocation)

    @rpc_errors.translated
    def destroy_allocation(self, context, allocation):
        self.check_can_send(_V, 'Deleting an allocation')
        return self.send(context, _V, 'destroy_allocation',
                         host=_any_host(context), allocation=allocation)
