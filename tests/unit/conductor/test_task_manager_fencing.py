"""Fencing (issue 20, defect 2): every write a task makes to a node is
conditional on the task still holding the node's reservation -- its host
and the random token taken with it -- so a conductor whose lock was broken
(it froze past heartbeat_timeout, or restarted under the same host name)
can never write over what happened to the node since."""

import logging
import threading

import pytest

from ironic_lite.common import exception
from ironic_lite.conductor import deployments
from ironic_lite.conductor import task_manager
from ironic_lite.conductor import utils
from ironic_lite.conductor import worker_pool
from ironic_lite.drivers import fake_hardware
from ironic_lite import objects
from tests import timeouts

from . import conftest

HOST = conftest.HOST


def _break_and_take(context, uuid, holder, **values):
    """What a takeover does: break the lock (by host, as
    recover_dead_conductors does), then lock the node for ``holder`` and
    write ``values`` under that lock; ``holder`` keeps the lock."""
    objects.Node.release(context, HOST, uuid)
    node = objects.Node.reserve(context, holder, uuid)
    for name, value in values.items():
        setattr(node, name, value)
    node.save()
    return node


@pytest.mark.parametrize('holder', ['other-conductor', HOST])
def test_save_dropped_once_the_reservation_was_taken_over(
        context, make_node, holder):
    """Taken over by another conductor, or by this same host again (a
    restarted process, a later task): the host name alone would let the
    second write through; the token does not."""
    node = make_node(provision_state='deploying',
                     target_provision_state='active')
    task = task_manager.acquire(context, node.uuid, load_driver=False)
    _break_and_take(context, node.uuid, holder,
                    provision_state='deploy failed', last_error='taken')
    task.node.provision_state = 'active'
    task.node.last_error = None
    with pytest.raises(exception.NodeLockLost):
        task.node.save()
    row = objects.Node.get_by_uuid(context, node.uuid)
    assert (row.provision_state, row.last_error, row.reservation) == (
        'deploy failed', 'taken', holder)
    # Its release leaves the new holder's lock alone.
    task.release_resources()
    assert objects.Node.get_by_uuid(context, node.uuid).reservation == holder


def test_save_goes_through_while_the_lock_is_held(context, make_node):
    node = make_node(provision_state='enroll')
    with task_manager.acquire(context, node.uuid, load_driver=False) as task:
        task.node.last_error = 'written'
        task.node.save()
    row = objects.Node.get_by_uuid(context, node.uuid)
    assert (row.last_error, row.reservation) == ('written', None)


def test_node_update_over_rpc_waits_for_no_lock(config, context, rpc_api,
                                                make_node):
    """update_node saves the API's node object only while no task holds
    the node's lock (one transaction under the row lock): not after
    another conductor broke a task's lock and took it."""
    config.set_override('node_locked_retry_attempts', 0, 'conductor')
    node = make_node(provision_state='enroll')
    received = objects.Node.get_by_uuid(context, node.uuid)
    received.description = 'from the API'
    task_manager.acquire(context, node.uuid, load_driver=False)
    _break_and_take(context, node.uuid, 'other-conductor')
    with pytest.raises(exception.NodeLocked):
        rpc_api.update_node(context, received)
    assert objects.Node.get_by_uuid(context, node.uuid).description is None


def test_ports_traits_and_deletion_are_fenced(context, make_node):
    node = make_node(provision_state='manageable')
    port = objects.Port(context, node_id=node.id,
                        address='52:54:00:12:34:56')
    port.create()
    task = task_manager.acquire(context, node.uuid, load_driver=False)
    _break_and_take(context, node.uuid, 'other-conductor')
    port.internal_info = {'tenant_vif_port_id': 'zombie-vif'}
    for write in (port.save,
                  lambda: objects.TraitList.create(context, node.id,
                                                   ['CUSTOM_ZOMBIE'])):
        with pytest.raises(exception.NodeLockLost):
            task.fenced(write)
    with pytest.raises(exception.NodeLockLost):
        task.node.destroy()
    assert objects.Port.get_by_uuid(context, port.uuid).internal_info == {}
    assert not objects.TraitList.get_by_node_id(context, node.id)
    objects.Node.get_by_uuid(context, node.uuid)   # not deleted


def test_fenced_writes_apply_while_held(context, make_node):
    node = make_node(provision_state='manageable')
    with task_manager.acquire(context, node.uuid, load_driver=False) as task:
        task.fenced(lambda: objects.TraitList.create(context, node.id,
                                                     ['CUSTOM_A']))
    assert [t.trait for t in objects.TraitList.get_by_node_id(
        context, node.id)] == ['CUSTOM_A']


def test_zombie_worker_does_not_undo_the_takeover(context, make_node,
                                                  monkeypatch, caplog):
    """The scenario of the issue, in one process: a deploy worker frozen
    past the takeover wakes up after the node was failed and undeployed
    to available; its completion is dropped (logged at WARNING), its
    error hook does not run, its release leaves the new lock alone."""
    woke, frozen = threading.Event(), threading.Event()

    def frozen_deploy(self, task):
        frozen.set()
        woke.wait(timeouts.HANG)

    monkeypatch.setattr(fake_hardware.FakeDeploy, 'deploy', frozen_deploy)
    node = make_node(provision_state='available', power_state='power off')
    pool = worker_pool.WorkerPool(3)
    caplog.set_level(logging.WARNING)
    try:
        with task_manager.acquire(context, node.uuid) as task:
            task.set_spawn_error_hook(utils.fail_node, task)
            task.process_event('deploy', pool=pool, call_args=(
                deployments.do_node_deploy, task))
        assert frozen.wait(timeouts.HANG)
        _break_and_take(context, node.uuid, 'other-conductor',
                        provision_state='available', last_error=None)
        woke.set()
        assert pool.wait(timeouts.HANG) == 0
    finally:
        woke.set()
        pool.shutdown(wait=True)
    row = objects.Node.get_by_uuid(context, node.uuid)
    assert (row.provision_state, row.last_error, row.reservation) == (
        'available', None, 'other-conductor')
    dropped = [r for r in caplog.records if r.levelno == logging.WARNING
               and 'no longer locked' in r.getMessage()]
    assert dropped, [r.getMessage() for r in caplog.records]
