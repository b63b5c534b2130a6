"""Node locks: busy nodes, retries, release after work and after failure.

No test here times a wait (tests/timeouts.py): a test that a task does
not sleep a retry interval makes that interval NEVER long and fails on
any such sleep (``forbid_retry_sleep``).
"""

import threading
import time
import types

import pytest

from ironic_lite.common import exception
from ironic_lite.common import states
from ironic_lite.conductor import task_manager
from ironic_lite.drivers import fake_hardware
from ironic_lite import objects
from tests import timeouts


@pytest.fixture
def forbid_retry_sleep(config, monkeypatch):
    """A lock retry interval NEVER long, and any sleep of it (between two
    lock attempts) fails the test at once instead of waiting it out."""
    config.set_override('node_locked_retry_interval', timeouts.NEVER,
                        'conductor')

    def sleep(seconds):
        raise AssertionError('slept the %s s retry interval between two '
                             'lock attempts' % seconds)
    monkeypatch.setattr(task_manager, 'time', types.SimpleNamespace(
        monotonic=time.monotonic, sleep=sleep))


def test_locked_node_is_409_naming_holder(context, rpc_api, make_node):
    node = make_node(provision_state='manageable', reservation='other-host')
    with pytest.raises(exception.NodeLocked) as err:
        rpc_api.do_provisioning_action(context, node, 'provide')
    assert err.value.code == 409
    assert 'locked by host other-host' in str(err.value)
    node.refresh()
    assert node.provision_state == 'manageable'
    assert node.reservation == 'other-host'


@pytest.mark.parametrize('method,args', [
    ('change_node_power_state', ('power on',)),
    ('do_node_deploy', ()),
    ('do_node_tear_down', ()),
    ('destroy_node', ()),
])
def test_every_write_needs_the_lock(context, rpc_api, make_node, method,
                                    args):
    node = make_node(provision_state='available', reservation='other-host')
    with pytest.raises(exception.NodeLocked):
        getattr(rpc_api, method)(context, node, *args)


def test_acquire_retries_until_released(config, context, make_node):
    # Retries every 50 ms, for as long as a hang: however late the timer
    # thread runs, the release comes within the retries.
    config.set_override('node_locked_retry_attempts',
                        int(timeouts.HANG / 0.05), 'conductor')
    config.set_override('node_locked_retry_interval', 0.05, 'conductor')
    node = make_node(reservation='other-host')
    timer = threading.Timer(
        0.08, objects.Node.release, (context, 'other-host', node.uuid))
    timer.start()
    try:
        with task_manager.acquire(context, node.uuid) as task:
            assert task.node.reservation == 'test-conductor'
    finally:
        timer.join()
    node.refresh()
    assert node.reservation is None


def test_acquire_releases_on_error(context, make_node):
    node = make_node()
    with pytest.raises(RuntimeError):
        with task_manager.acquire(context, node.uuid):
            raise RuntimeError('boom')
    node.refresh()
    assert node.reservation is None


def test_shared_task_takes_no_lock(context, make_node):
    node = make_node(reservation='other-host')
    with task_manager.acquire(context, node.uuid, shared=True) as task:
        assert task.node.uuid == node.uuid
    node.refresh()
    assert node.reservation == 'other-host'


def test_no_free_worker_is_503_and_writes_nothing(context, conductor,
                                                  rpc_api, make_node):
    pool = conductor.manager._pool
    slots = [pool.claim() for _ in range(pool.size)]
    try:
        node = make_node(provision_state='available')
        with pytest.raises(exception.NoFreeConductorWorker) as err:
            rpc_api.do_node_deploy(context, node)
        assert err.value.code == 503
        with pytest.raises(exception.NoFreeConductorWorker):
            rpc_api.change_node_power_state(context, node, 'power on')
        node.refresh()
        assert node.provision_state == 'available'
        assert node.target_provision_state is None
        assert node.target_power_state is None
        assert node.reservation is None
    finally:
        for slot in slots:
            slot.cancel()
    assert pool.in_flight == 0


def _boom(*args, **kwargs):
    raise RuntimeError('boom')


def test_deploy_failure(monkeypatch, context, rpc_api, make_node, wait_node):
    monkeypatch.setattr(fake_hardware.FakeDeploy, 'deploy', _boom)
    node = make_node(provision_state='available', power_state='power on')
    rpc_api.do_node_deploy(context, node)
    node = wait_node(node.uuid, 'deploy failed')
    assert node.target_provision_state == 'active'
    # The core step failed (release 4.0: Ironic's deploy step message).
    assert node.last_error == 'Deploy step deploy.deploy failed: boom.'
    assert node.power_state == states.POWER_OFF
    assert node.reservation is None


def test_verify_failure_goes_back_to_enroll(monkeypatch, context, rpc_api,
                                            make_node, wait_node):
    monkeypatch.setattr(fake_hardware.FakePower, 'validate', _boom)
    node = make_node(provision_state='enroll')
    rpc_api.do_provisioning_action(context, node, 'manage')
    node = wait_node(node.uuid, 'enroll', last_error='Failed to verify '
                     'node: boom')
    assert node.target_provision_state is None


def test_clean_failure(monkeypatch, context, rpc_api, make_node, wait_node):
    monkeypatch.setattr(fake_hardware.FakeClean, 'clean', _boom)
    node = make_node(provision_state='manageable')
    rpc_api.do_provisioning_action(context, node, 'provide')
    node = wait_node(node.uuid, 'clean failed')
    assert node.last_error == 'Failed to clean node: boom'
    assert node.target_provision_state == 'available'


def test_tear_down_failure_goes_to_error(monkeypatch, context, rpc_api,
                                         make_node, wait_node):
    monkeypatch.setattr(fake_hardware.FakeDeploy, 'tear_down', _boom)
    node = make_node(provision_state='active', instance_info={'a': 1})
    rpc_api.do_node_tear_down(context, node)
    node = wait_node(node.uuid, 'error')
    assert node.last_error == 'Failed to tear down: boom'
    assert node.instance_info == {}


def test_inspect_failure(monkeypatch, context, rpc_api, make_node,
                         wait_node):
    monkeypatch.setattr(fake_hardware.FakeInspect, 'inspect_hardware', _boom)
    node = make_node(provision_state='manageable')
    rpc_api.do_provisioning_action(context, node, 'inspect')
    node = wait_node(node.uuid, 'inspect failed')
    assert 'boom' in node.last_error


def test_power_failure_keeps_state(monkeypatch, context, rpc_api, make_node,
                                   wait_node):
    monkeypatch.setattr(fake_hardware.FakePower, 'set_power_state', _boom)
    node = make_node(provision_state='active', power_state='power off')
    rpc_api.change_node_power_state(context, node, 'power on')
    node = wait_node(node.uuid, target_power_state=None,
                     power_state='power off')
    assert node.last_error == ("Failed to change power state to 'power on' "
                               "by 'power on'. Error: boom")
    assert node.provision_state == 'active'


def test_failed_node_can_be_retried(monkeypatch, context, rpc_api,
                                    make_node, wait_node):
    monkeypatch.setattr(fake_hardware.FakeDeploy, 'deploy', _boom)
    node = make_node(provision_state='available')
    rpc_api.do_node_deploy(context, node)
    wait_node(node.uuid, 'deploy failed')
    monkeypatch.undo()
    rpc_api.do_node_deploy(context, node, rebuild=True)
    node = wait_node(node.uuid, 'active', target_provision_state=None)
    assert node.last_error is None


def test_a_lock_held_in_this_process_is_taken_as_soon_as_released(
        config, context, make_node, forbid_retry_sleep):
    """Tasks of one conductor on one node (port writes, say) follow each
    other as soon as the lock is free, without a retry interval's sleep
    and without using up attempts."""
    config.set_override('node_locked_retry_attempts', 1, 'conductor')
    node = make_node()
    order = []
    holding = threading.Event()

    def first():
        with task_manager.acquire(context, node.uuid):
            holding.set()
            time.sleep(0.1)
            order.append('first done')

    thread = threading.Thread(target=first)
    thread.start()
    try:
        assert holding.wait(timeouts.HANG)
        with task_manager.acquire(context, node.uuid) as task:
            order.append('second in')
            assert task.node.reservation == 'test-conductor'
    finally:
        thread.join(timeouts.HANG)
    assert order == ['first done', 'second in']
    node.refresh()
    assert node.reservation is None


def test_waiting_for_a_local_holder_ends_with_the_retry_budget(
        config, context, make_node):
    config.set_override('node_locked_retry_attempts', 2, 'conductor')
    config.set_override('node_locked_retry_interval', 0.1, 'conductor')
    node = make_node()
    with task_manager.acquire(context, node.uuid):
        began = time.monotonic()
        with pytest.raises(exception.NodeLocked):
            task_manager.acquire(context, node.uuid)
        took = time.monotonic() - began
    # It waited for the holder (a lower bound: a busy machine only adds
    # to it), up to the budget of 2 x 0.1 s, then gave up.
    assert took > 0.15
    # Without retries it does not wait at all: with a budget NEVER long,
    # only a wait could take a hang's time.
    config.set_override('node_locked_retry_interval', timeouts.NEVER,
                        'conductor')
    with task_manager.acquire(context, node.uuid):
        began = time.monotonic()
        with pytest.raises(exception.NodeLocked):
            task_manager.acquire(context, node.uuid, retry=False)
        took = time.monotonic() - began
    assert took < timeouts.HANG


def _port(context, node, address='52:54:00:00:00:01'):
    port = objects.Port(context, node_id=node.id, address=address,
                        uuid='1be26c0b-03f2-4d2e-ae87-c02d7f33c7%02d'
                        % int(address[-2:], 16))
    return port


def test_port_writes_take_no_reservation_and_block_one(
        context, conductor, rpc_api, make_node, monkeypatch):
    """A port write is one transaction: the node's reservation is checked
    and kept from being taken, never written."""
    node = make_node()
    reserved = []
    real = objects.Node.reserve.__func__
    monkeypatch.setattr(objects.Node, 'reserve', classmethod(
        lambda cls, *a: reserved.append(a) or real(cls, *a)))
    port = rpc_api.create_port(context, _port(context, node), node)
    assert port.id is not None and reserved == []
    port.extra = {'a': 1}
    rpc_api.update_port(context, port, node)
    assert objects.Port.get(context, port.uuid).extra == {'a': 1}
    rpc_api.destroy_port(context, port, node)
    assert objects.Port.list(context) == []
    node.refresh()
    assert node.reservation is None and reserved == []


def test_a_node_cannot_be_reserved_while_a_port_write_runs(
        config, context, make_node):
    """The write holds the node's row (SQLite: the write lock) until it
    commits: a conductor reserving the node meanwhile waits for it."""
    node = make_node()
    events = []

    def reserve():
        objects.Node.reserve(context, 'other-host', node.uuid)
        events.append('reserved')

    other = threading.Thread(target=reserve)

    def write():
        other.start()
        other.join(0.3)
        events.append('written')
        return _port(context, node).create(context)

    task_manager.write_unless_locked(context, node.id, write, 'test')
    other.join(timeouts.HANG)
    assert events == ['written', 'reserved']
    assert len(objects.Port.list(context)) == 1


def test_a_port_write_waits_for_a_local_task_then_runs(
        config, context, make_node, forbid_retry_sleep):
    """As soon as the task ends, without a retry interval's sleep."""
    config.set_override('node_locked_retry_attempts', 1, 'conductor')
    node = make_node()
    holding = threading.Event()
    order = []

    def hold():
        with task_manager.acquire(context, node.uuid):
            holding.set()
            time.sleep(0.1)
            order.append('task done')

    thread = threading.Thread(target=hold)
    thread.start()
    try:
        assert holding.wait(timeouts.HANG)
        task_manager.write_unless_locked(
            context, node.id,
            lambda: order.append('written') or _port(context, node).create(
                context), 'test')
    finally:
        thread.join(timeouts.HANG)
    assert order == ['task done', 'written']
    assert len(objects.Port.list(context)) == 1


def test_a_port_write_on_a_missing_node_is_node_not_found(context):
    with pytest.raises(exception.NodeNotFound):
        task_manager.write_unless_locked(
            context, 424242, lambda: pytest.fail('written'), 'test')


def _lose_the_connection_once(monkeypatch, cls, method):
    """Make ``cls.<method>`` (create, save) do its work, then, the first
    time only, fail as if the connection dropped at commit; returns the
    list of UUIDs it failed for."""
    from oslo_db import exception as db_exc
    real = getattr(cls, method)
    failures = []

    def then_lose_the_connection(self, context=None):
        real(self, context)
        if not failures:
            failures.append(self.uuid)
            raise db_exc.DBConnectionError('connection lost at commit')
    monkeypatch.setattr(cls, method, then_lose_the_connection)
    return failures


def test_a_retried_port_write_writes_what_the_api_sent(
        context, conductor, make_node, monkeypatch):
    """The transaction of a port write runs again after a dropped
    connection -- possibly after the port was written and marked
    unchanged, when it is the commit that failed.  The second attempt
    still writes the port as the API sent it (same UUID and address):
    an acknowledged port is never lost."""
    node = make_node()
    failures = _lose_the_connection_once(monkeypatch, objects.Port,
                                         'create')
    sent = _port(context, node, address='52:54:00:00:00:07')
    written = conductor.manager.create_port(context, sent)
    assert failures == [sent.uuid]
    assert written.uuid == sent.uuid
    ports = objects.Port.list(context)
    assert [(p.uuid, p.address, p.node_id) for p in ports] == [
        (sent.uuid, '52:54:00:00:00:07', node.id)]
    # An update retried the same way keeps its change.
    failures = _lose_the_connection_once(monkeypatch, objects.Port, 'save')
    written.extra = {'rack': 'r1'}
    saved = conductor.manager.update_port(context, written)
    assert failures == [sent.uuid]
    assert saved.extra == {'rack': 'r1'}
    assert objects.Port.get(context, sent.uuid).extra == {'rack': 'r1'}


def test_a_node_update_is_one_transaction_that_never_reserves(
        context, conductor, make_node, monkeypatch):
    """A node update makes no driver call: it is written under the
    node's row lock while no task holds the node's lock, in one commit,
    instead of reserving, writing and releasing (three)."""
    from ironic_lite.db import api as db_api
    import sqlalchemy as sa
    node = make_node()
    commits = []
    engine = db_api.get_engine()

    def count(conn):
        commits.append(1)
    sa.event.listen(engine, 'commit', count)
    reserved = []
    real_reserve = objects.Node.reserve
    monkeypatch.setattr(objects.Node, 'reserve', classmethod(
        lambda cls, *args: reserved.append(args) or real_reserve(*args)))
    try:
        node.extra = {'rack': 'r9'}
        saved = conductor.manager.update_node(context, node)
    finally:
        sa.event.remove(engine, 'commit', count)
    assert commits == [1] and reserved == []
    assert saved.extra == {'rack': 'r9'} and saved.reservation is None
    node.refresh()
    assert node.extra == {'rack': 'r9'} and node.reservation is None


def test_a_node_update_of_a_locked_node_is_refused(context, rpc_api,
                                                   make_node):
    node = make_node(reservation='other-host')
    node.extra = {'rack': 'r9'}
    with pytest.raises(exception.NodeLocked) as err:
        rpc_api.update_node(context, node)
    assert 'locked by host other-host' in str(err.value)
    node.refresh()
    assert node.extra == {} and node.reservation == 'other-host'


def test_a_retried_node_update_keeps_its_change(context, conductor,
                                                make_node, monkeypatch):
    """As for a port: the update's transaction (``db_node.update_node``:
    the node's row read once under its row lock, checked, written) runs
    again after a dropped connection at commit, and the second attempt
    still writes the change the API sent."""
    from oslo_db import exception as db_exc
    from ironic_lite.db import api as db_api
    real, failures = db_api.update_row, []

    def then_lose_the_connection(model, kind, ident, *args, **kwargs):
        row = real(model, kind, ident, *args, **kwargs)
        if kind == 'node' and not failures:
            failures.append(ident)
            raise db_exc.DBConnectionError('connection lost at commit')
        return row
    monkeypatch.setattr(db_api, 'update_row', then_lose_the_connection)
    node = make_node()
    node.extra = {'rack': 'r1'}
    saved = conductor.manager.update_node(context, node)
    assert failures == [node.uuid]
    assert saved.extra == {'rack': 'r1'}
    assert objects.Node.get(context, node.uuid).extra == {'rack': 'r1'}
