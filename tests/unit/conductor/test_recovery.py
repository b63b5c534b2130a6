"""Recovery of interrupted work (issue 20, defect 1): no node stays in a
transitional state with no one working on it -- no lock, or a lock no
task holds -- and a worker whose completion write met a database outage
writes it once the database is back."""

import threading

from oslo_db import exception as db_exc
import pytest

from ironic_lite.conductor import deployments
from ironic_lite.conductor import recovery
from ironic_lite.conductor import task_manager
from ironic_lite.conductor import utils
from ironic_lite.conductor import worker_pool
from ironic_lite.db import node as db_node
from ironic_lite import objects
from tests import timeouts

from . import conftest

HOST = conftest.HOST


@pytest.fixture
def no_grace(config):
    config.set_override('interrupted_work_grace', 0, 'conductor')


def test_unlocked_transitional_node_is_failed(context, conductor,
                                              make_node, no_grace):
    """deploying with no lock (the completion write and the release
    failed, then the lock was released): failed by its owner, with why;
    the operator can then undeploy it."""
    node = make_node(provision_state='deploying',
                     target_provision_state='active')
    stable = make_node(provision_state='active')
    assert recovery.recover_interrupted(context, HOST) == [node.uuid]
    node.refresh()
    assert (node.provision_state, node.reservation) == ('deploy failed',
                                                        None)
    assert 'deployment was interrupted' in node.last_error
    stable.refresh()
    assert stable.provision_state == 'active'
    assert objects.Node.reserve(context, HOST, node.uuid)   # not locked


@pytest.mark.parametrize('state,failed', [
    ('cleaning', 'clean failed'), ('deleting', 'error'),
    ('verifying', 'enroll'), ('inspecting', 'inspect failed'),
    ('adopting', 'adopt failed')])
def test_every_transitional_state_is_failed(context, conductor, make_node,
                                            no_grace, state, failed):
    node = make_node(provision_state=state)
    recovery.recover_interrupted(context, HOST)
    node.refresh()
    assert node.provision_state == failed
    assert node.last_error


def test_within_the_grace_nothing_happens(context, conductor, make_node,
                                          config):
    config.set_override('interrupted_work_grace', 3600, 'conductor')
    node = make_node(provision_state='available')
    with task_manager.acquire(context, node.uuid,
                              load_driver=False) as task:
        task.process_event('deploy')    # just now
    assert recovery.recover_interrupted(context, HOST) == []
    node.refresh()
    assert node.provision_state == 'deploying'


def test_locked_or_unowned_nodes_are_left_alone(context, conductor,
                                                make_node, no_grace,
                                                monkeypatch):
    locked = make_node(provision_state='cleaning', reservation='live-host')
    assert recovery.recover_interrupted(context, HOST) == []
    monkeypatch.setattr(utils, 'is_owner', lambda ctx, node, host: False)
    unowned = make_node(provision_state='deploying')
    assert recovery.recover_interrupted(context, HOST) == []
    for node in (locked, unowned):
        before = node.provision_state
        node.refresh()
        assert node.provision_state == before


def test_checked_at_start(context, make_node, config, wait_node):
    """Interrupted while no conductor ran: failed as the conductor that
    owns the node starts (the periodic runs at once)."""
    config.set_override('interrupted_work_grace', 0, 'conductor')
    config.set_override('check_provision_state_interval', 3600,
                        'conductor')
    node = make_node(provision_state='cleaning')
    cond = conftest.Conductor().start()
    try:
        wait_node(node.uuid, 'clean failed')
    finally:
        cond.stop()


def test_stale_lock_reclaim_fails_the_operation(context, conductor,
                                                make_node):
    """A lock of this host that no task of it holds (its release
    failed): released, and the half-way node failed -- not left in
    deploying without a lock."""
    node = make_node(provision_state='deploying', reservation=HOST)
    assert recovery.reclaim_stale_locks(context, HOST) == [node.uuid]
    node.refresh()
    assert (node.provision_state, node.reservation) == ('deploy failed',
                                                        None)
    assert 'interrupted' in node.last_error


def _deploy(context, uuid, pool):
    with task_manager.acquire(context, uuid) as task:
        task.set_spawn_error_hook(utils.fail_node, task)
        task.process_event('deploy', pool=pool, call_args=(
            deployments.do_node_deploy, task))


@pytest.fixture
def db_down_at_completion(monkeypatch):
    """The completion write (to 'active') fails as an unreachable
    database does, until ``outage.set()`` is cleared (``outage.clear()``);
    ``outage.failed`` counts the failed writes."""
    outage = threading.Event()
    outage.set()
    outage.failed = 0
    real = db_node.update_node

    def update_node(node_id, values, **kwargs):
        if outage.is_set() and values.get('provision_state') == 'active':
            outage.failed += 1
            raise db_exc.DBConnectionError('connection refused')
        return real(node_id, values, **kwargs)

    # Where Node.save() finds it (objects/base.py CrudMixin).
    monkeypatch.setattr(objects.Node, '_db_update',
                        staticmethod(update_node))
    return outage


def test_completion_write_retried_when_the_database_is_back(
        context, make_node, config, db_down_at_completion, wait_for):
    outage = db_down_at_completion
    node = make_node(provision_state='available')
    pool = worker_pool.WorkerPool(3)
    try:
        _deploy(context, node.uuid, pool)
        wait_for(lambda: outage.failed >= 2, what='completion retries')
        assert objects.Node.get_by_uuid(context, node.uuid).reservation
        outage.clear()
        assert pool.wait(timeouts.HANG) == 0
    finally:
        outage.clear()
        pool.shutdown(wait=True)
    node.refresh()
    assert (node.provision_state, node.reservation, node.last_error) == (
        'active', None, None)


def test_completion_given_up_then_failed_by_recovery(
        context, conductor, make_node, config, db_down_at_completion):
    """Given up (the outage outlasted the retries): never left in
    deploying for good -- the next recovery fails it."""
    config.set_override('completion_write_retry_timeout', 0, 'conductor')
    config.set_override('interrupted_work_grace', 0, 'conductor')
    node = make_node(provision_state='available')
    pool = worker_pool.WorkerPool(3)
    try:
        _deploy(context, node.uuid, pool)
        assert pool.wait(timeouts.HANG) == 0
    finally:
        pool.shutdown(wait=True)
    db_down_at_completion.clear()
    recovery.reclaim_stale_locks(context, HOST)
    recovery.recover_interrupted(context, HOST)
    node.refresh()
    assert (node.provision_state, node.reservation) == ('deploy failed',
                                                        None)
    assert node.last_error
