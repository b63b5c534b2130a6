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
    def __init__(self):
        self._lock = threading.Lock()
        self._rings = None
        self._built_at = 0.0

    def reset(self):
        with self._lock:
            self._rings = None

    def _build(self, context):
        objects.register_all()
        rings = {}
        for cond in objects.Conductor.list_active(
                context, CONF.conductor.heartbeat_timeout):
            for driver in cond.drivers or []:
                key = (driver, cond.conductor_group or '')
                rings.setdefault(key, set()).add(cond.hostname)
        return {key: hashring.HashRing(hosts)
                for key, hosts in rings.items()}

    def rings(self, context):
        with self._lock:
            if (self._rings is None
                    or time.monotonic() - self._built_at
                    > CONF.hash_ring_reset_interval):
                self._rings = self._build(context)
                self._built_at = time.monotonic()
            return self._rings

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
            with self._lock:
                stale = time.monotonic() - self._built_at > 1.0
            if stale:
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
        return next(iter(ring.get_nodes(node_uuid.encode('utf-8'))))


RING_MANAGER = HashRingManager()
