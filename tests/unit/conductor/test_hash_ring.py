"""Hash ring lookups never wait for a rebuild (issue 9)."""

import threading
import time

from tooz import hashring

from ironic_lite import conf
from ironic_lite.conductor import hash_ring
from tests import timeouts


def test_lookup_does_not_wait_for_a_rebuild(monkeypatch):
    """While one thread rebuilds the rings (held here until the lookups
    are done: a slow database), lookups go on with the previous rings."""
    conf.CONF.set_override('hash_ring_reset_interval', 1)
    manager = hash_ring.HashRingManager()
    building = threading.Event()
    release = threading.Event()
    builds = []

    def build(context):
        builds.append(time.monotonic())
        if len(builds) > 1:          # the rebuild hangs (a slow database)
            building.set()
            release.wait(timeouts.HANG)
        return {('fake-hardware', ''): hashring.HashRing({'cond-a'})}, {}

    monkeypatch.setattr(manager, '_build', build)
    try:
        assert manager.get_host(None, 'u1', 'fake-hardware') == 'cond-a'
        time.sleep(1.1)              # the rings are now due
        rebuilder = threading.Thread(target=manager.rings, args=(None,))
        rebuilder.start()
        assert building.wait(timeouts.HANG)
        for _ in range(100):
            assert manager.get_host(None, 'u2', 'fake-hardware') == 'cond-a'
        # Answered while the rebuild still hangs: a lookup that waited
        # for it would have returned only once it ended.
        assert rebuilder.is_alive()
        assert len(builds) == 2                # one rebuild at a time
        release.set()
        rebuilder.join(timeouts.HANG)
    finally:
        release.set()
        conf.CONF.clear_override('hash_ring_reset_interval')


def test_reset_during_a_build_keeps_no_stale_rings(monkeypatch):
    manager = hash_ring.HashRingManager()

    def build(context):
        manager.reset()              # a conductor registered meanwhile
        return {('fake-hardware', ''): hashring.HashRing({'cond-a'})}, {}

    monkeypatch.setattr(manager, '_build', build)
    assert manager.rings(None)
    assert manager._state is None
