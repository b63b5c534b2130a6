"""Hash ring lookups never wait for a rebuild (issue 9)."""

import threading
import time

from tooz import hashring

from ironic_lite.common import hash_ring
from ironic_lite import conf


def test_lookup_does_not_wait_for_a_rebuild(monkeypatch):
    conf.CONF.set_override('hash_ring_reset_interval', 1)
    manager = hash_ring.HashRingManager()
    building = threading.Event()
    release = threading.Event()
    builds = []

    def build(context):
        builds.append(time.monotonic())
        if len(builds) > 1:          # the rebuild hangs (a slow database)
            building.set()
            release.wait(30)
        return {('fake-hardware', ''): hashring.HashRing({'cond-a'})}

    monkeypatch.setattr(manager, '_build', build)
    try:
        assert manager.get_host(None, 'u1', 'fake-hardware') == 'cond-a'
        time.sleep(1.1)              # the rings are now due
        rebuilder = threading.Thread(target=manager.rings, args=(None,))
        rebuilder.start()
        assert building.wait(10)
        started = time.monotonic()
        for _ in range(100):
            assert manager.get_host(None, 'u2', 'fake-hardware') == 'cond-a'
        assert time.monotonic() - started < 5   # not blocked for 30 s
        assert len(builds) == 2                # one rebuild at a time
        release.set()
        rebuilder.join(10)
    finally:
        release.set()
        conf.CONF.clear_override('hash_ring_reset_interval')


def test_reset_during_a_build_keeps_no_stale_rings(monkeypatch):
    manager = hash_ring.HashRingManager()

    def build(context):
        manager.reset()              # a conductor registered meanwhile
        return {('fake-hardware', ''): hashring.HashRing({'cond-a'})}

    monkeypatch.setattr(manager, '_build', build)
    assert manager.rings(None)
    assert manager._state is None
