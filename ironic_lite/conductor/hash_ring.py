"""Consistent hash rings over the live conductors, one per group.

Both the API (to route an RPC call) and the conductors (to know which
nodes their periodic tasks look after) ask the same rings, built from the
conductors table, so they agree on who owns a node.
"""

import threading
import time

from tooz import hashring

from ironic_lite.common import exception
from ironic_lite import conf
from ironic_lite import objects

CONF = conf.CONF


class HashRingManager(object):
    """The rings, rebuilt every ``[DEFAULT]hash_ring_reset_interval``.

    Lookups never wait for a rebuild: the rings and their build time are
    one immutable pair, read without a lock; when they are due, one thread
    rebuilds them (holding ``_build_lock``) while the others go on with
    the previous rings.  Only a lookup with no rings at all (after
    ``reset``, or at start) waits for the build.
    """

    def __init__(self):
        self._build_lock = threading.Lock()
        # ((rings, published), monotonic time built) or None; replaced,
        # never mutated.
        self._state = None
        # Bumped by reset: a build that began before it is not kept.
        self._generation = 0

    @property
    def _built_at(self):
        state = self._state
        return state[1] if state else 0.0

    def reset(self):
        self._generation += 1
        self._state = None

    def _build(self, context):
        """(rings, {host: its published hardware interfaces})."""
        objects.register_all()
        rings, published = {}, {}
        for cond in objects.Conductor.list_active(
                context, CONF.conductor.heartbeat_timeout):
            for driver in cond.drivers or []:
                key = (driver, cond.conductor_group or '')
                rings.setdefault(key, set()).add(cond.hostname)
            if cond.hardware_interfaces:
                published[cond.hostname] = cond.hardware_interfaces
        return ({key: hashring.HashRing(hosts)
                 for key, hosts in rings.items()}, published)

    def _due(self, state):
        return (state is None or time.monotonic() - state[1]
                > CONF.hash_ring_reset_interval)

    def rings(self, context):
        return self._built(context)[0]

    def published(self, context, host):
        """What conductor ``host`` published of its hardware types'
        interfaces when the rings were built (``Conductor``'s
        ``hardware_interfaces``), or None."""
        return self._built(context)[1].get(host)

    def _built(self, context):
        state = self._state
        if not self._due(state):
            return state[0]
        # Someone else rebuilding: keep using the rings we have.
        if not self._build_lock.acquire(blocking=state is None):
            return state[0]
        try:
            state = self._state
            if self._due(state):
                generation = self._generation
                state = (self._build(context), time.monotonic())
                if generation == self._generation:
                    self._state = state
            return state[0]
        finally:
            self._build_lock.release()

    def get_host(self, context, node_uuid, driver, conductor_group=''):
        """The conductor host that owns a node.

        :raises: ServiceUnavailable when no conductor is alive at all;
            DriverNotFound when none of the live ones has the node's driver
            in the node's conductor group.
        """
        key = (driver, conductor_group or '')
        ring = self.rings(context).get(key)
        if ring is None:
            # The cache may predate a conductor that just started: rebuild
            # it, but at most once a second (a list of nodes no conductor
            # serves would otherwise rebuild it for every node).
            if time.monotonic() - self._built_at > 1.0:
                self.reset()
            rings = self.rings(context)
            ring = rings.get(key)
            if ring is None:
                if not rings:
                    raise exception.ServiceUnavailable(
                        reason='No ironic-conductor is alive; the request '
                               'cannot be handled now, please retry later.')
                raise exception.NoValidHost(
                    reason='No conductor service registered which supports '
                           'driver %s for conductor group "%s".'
                           % (driver, conductor_group or ''))
        return host_of(ring, node_uuid)


def host_of(ring, node_uuid):
    """The host ``ring`` (one of ``rings()``'s) maps a node to."""
    return next(iter(ring.get_nodes(node_uuid.encode('utf-8'))))


RING_MANAGER = HashRingManager()
