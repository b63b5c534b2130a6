"""Fixtures: a temporary SQLite DB, the fake:// transport, a running
conductor (real manager and RPC server in-process) and the real RPC client.
"""

import time

from oslo_messaging import opts as messaging_opts
import pytest

from ironic_lite.common import context as ir_context
from ironic_lite.common import rpc
from ironic_lite import conf
from ironic_lite.conductor import hash_ring
from ironic_lite.conductor import manager
from ironic_lite.conductor import rpc_service
from ironic_lite.conductor import rpcapi
from ironic_lite.conductor import task_manager
from ironic_lite import objects
from tests import timeouts

CONF = conf.CONF
HOST = 'test-conductor'


def _register_messaging_opts():
    for group, opts in messaging_opts.list_opts():
        if group in (None, 'DEFAULT'):
            CONF.register_opts(opts)


_register_messaging_opts()


# Fast settings of the conductor tests.  hash_ring_reset_interval = 1:
# the rings are rebuilt every second, so a conductor that stops while
# another is alive drains for 2 s instead of the default 16 s.  A stop
# waits for the work in flight for as long as a hang
# (graceful_shutdown_timeout): work that short tests start ends anyway.
FAST_SETTINGS = {
    None: {'transport_url': 'fake://', 'host': HOST,
           'graceful_shutdown_timeout': timeouts.HANG,
           'hash_ring_reset_interval': 1},
    'conductor': {'heartbeat_interval': 1, 'heartbeat_timeout': 60,
                  'node_locked_retry_attempts': 1,
                  'node_locked_retry_interval': 0.05,
                  'sync_power_state_interval': 0,
                  'check_provision_state_interval': 0,
                  'workers_pool_size': 4},
}


@pytest.fixture
def config(conf_fixture):
    """Fast settings for tests (undone afterwards by ``conf_fixture``)."""
    # Parsed with no file, as a service parses its own: the API these
    # tests serve reads the policy (oslo.policy looks up its file).
    CONF([], project='ironic', default_config_files=[])
    for group, values in FAST_SETTINGS.items():
        conf_fixture.config(group=group, **values)
    return CONF


def conductor_database(use_db, url):
    """The conductor tests' database at ``url`` for one test (a
    ``database`` fixture's body: a module may override it with another
    backend's URL)."""
    use_db(url)
    objects.register_all()
    hash_ring.RING_MANAGER.reset()
    yield
    hash_ring.RING_MANAGER.reset()


@pytest.fixture
def database(tmp_path, config, use_db):
    yield from conductor_database(
        use_db, 'sqlite:///%s' % (tmp_path / 'ironic.sqlite'))


@pytest.fixture
def context(database):
    return ir_context.get_admin_context()


class Conductor(object):
    """A conductor service run in-process, and ways to look at it."""

    def __init__(self, host=HOST):
        self.manager = manager.ConductorManager(host=host)
        self.service = rpc_service.RPCService(self.manager)
        self.stopped = False

    def start(self):
        self.service.start()
        return self

    def stop(self, timeout=None):
        if self.stopped:
            return 0
        self.stopped = True
        return self.service.stop(timeout=timeout)


@pytest.fixture
def conductor(database):
    cond = Conductor().start()
    yield cond
    cond.stop()
    rpc.cleanup()


@pytest.fixture
def rpc_api(conductor):
    return rpcapi.ConductorAPI()


@pytest.fixture
def make_node(context):
    def make(**values):
        values.setdefault('driver', 'fake-hardware')
        values.setdefault('provision_state', 'enroll')
        node = objects.Node(context, **values)
        node.create(context)
        return node
    return make


def wait_for(predicate, timeout=timeouts.HANG, interval=0.02,
             what='condition'):
    """Poll ``predicate`` until it returns a true value (failing after
    ``timeout`` seconds: a hang)."""
    deadline = time.monotonic() + timeout
    while True:
        result = predicate()
        if result:
            return result
        if time.monotonic() > deadline:
            raise AssertionError('timed out waiting for %s' % what)
        time.sleep(interval)


def wait_node(context, uuid, provision_state=None, timeout=timeouts.HANG,
              **fields):
    """Wait until the node is unlocked and has the given field values."""
    wanted = dict(fields)
    if provision_state is not None:
        wanted['provision_state'] = provision_state

    def reached():
        node = objects.Node.get_by_uuid(context, uuid)
        if node.reservation is None and all(
                getattr(node, k) == v for k, v in wanted.items()):
            return node
        return None
    return wait_for(reached, timeout=timeout,
                    what='node %s with %s' % (uuid, wanted))


@pytest.fixture(name='wait_node')
def wait_node_fixture(context):
    def wait(uuid, provision_state=None, timeout=timeouts.HANG, **fields):
        return wait_node(context, uuid, provision_state, timeout, **fields)
    return wait


@pytest.fixture(name='wait_for')
def wait_for_fixture():
    return wait_for


@pytest.fixture(autouse=True)
def fresh_local_holds():
    """Each test is a conductor process of its own: no task of an earlier
    test holds a node here.

    ``task_manager`` keeps the nodes this process's tasks hold, by id
    and UUID, so that a write waits for a local task to end instead of
    sleeping a retry interval.  Tests that leave a task unreleased on
    purpose (a zombie whose lock another conductor broke, a task given up
    mid-way) would hand their hold to the next test of the same worker,
    whose fresh database gives its first node the same id: that test's
    writes then waited for a task that does not exist (a hang with
    ``forbid_retry_sleep``, NodeLocked otherwise), and the periodic
    reclaim skipped that node's stale lock.
    """
    with task_manager._HELD_LOCK:
        task_manager._HELD.clear()
    yield
    with task_manager._HELD_LOCK:
        task_manager._HELD.clear()
