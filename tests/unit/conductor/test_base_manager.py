"""Conductor start/stop, periodic tasks, recovery after a dead conductor."""

import datetime
import os
import signal
import subprocess
import sys
import threading
from unittest import mock

from oslo_utils import timeutils
import pytest

from ironic_lite.common import exception
from ironic_lite.common import launcher
from ironic_lite.conductor import manager
from ironic_lite.conductor import rpcapi
from ironic_lite import objects
from tests import timeouts

from . import conftest


def _register_dead_conductor(context, host='dead-host'):
    """A conductor whose last heartbeat is an hour old."""
    an_hour_ago = timeutils.utcnow() - datetime.timedelta(hours=1)
    with mock.patch.object(timeutils, 'utcnow', return_value=an_hour_ago):
        objects.Conductor.register(context, host, ['fake-hardware'], '')


def test_manager_matches_rpcapi():
    assert manager.ConductorManager.target.version == rpcapi.RPC_API_VERSION
    for name in ('create_node', 'update_node', 'destroy_node',
                 'change_node_power_state', 'do_provisioning_action',
                 'do_node_deploy', 'do_node_tear_down'):
        assert callable(getattr(manager.ConductorManager, name))


def test_start_registers_and_stop_unregisters(context):
    cond = conftest.Conductor().start()
    row = objects.Conductor.get_by_hostname(context, conftest.HOST)
    assert row.drivers == ['fake-hardware']
    assert row.online
    assert cond.stop() == 0
    with pytest.raises(exception.ConductorNotFound):
        objects.Conductor.get_by_hostname(context, conftest.HOST)
    row = objects.Conductor.get_by_hostname(context, conftest.HOST,
                                            online=False)
    assert not row.online


def test_heartbeat(context, conductor, wait_for):
    first = objects.Conductor.get_by_hostname(context, conftest.HOST)
    wait_for(lambda: objects.Conductor.get_by_hostname(
        context, conftest.HOST).updated_at > first.updated_at,
        what="a heartbeat")


def test_heartbeat_not_delayed_by_a_long_periodic_task(
        context, config, monkeypatch, wait_for):
    """A power sync that runs long must not stop the heartbeat: the
    heartbeat has a thread of its own (else a busy conductor looks
    dead)."""
    from ironic_lite.conductor import power
    entered, release = threading.Event(), threading.Event()
    finished = threading.Event()

    def slow_sync(ctx, host, pool=None):
        entered.set()
        release.wait(timeouts.HANG)
        finished.set()

    monkeypatch.setattr(power, 'sync_power_states', slow_sync)
    config.set_override('sync_power_state_interval', 1, 'conductor')
    cond = conftest.Conductor().start()
    try:
        assert entered.wait(timeouts.HANG), 'the power sync never ran'
        before = objects.Conductor.get_by_hostname(
            context, conftest.HOST).updated_at
        wait_for(lambda: objects.Conductor.get_by_hostname(
            context, conftest.HOST).updated_at > before,
            what='a heartbeat while the power sync runs')
        # The heartbeat came while the sync still ran (not once it ended).
        assert not finished.is_set()
    finally:
        release.set()
        cond.stop()


def test_takeover_not_delayed_by_a_stuck_power_sync(
        context, config, monkeypatch):
    """The periodic tasks run beside each other (issue 35): a power sync
    stuck on a BMC that never answers does not hold back the check for
    dead conductors, which takes their nodes over."""
    from ironic_lite.conductor import power
    from ironic_lite.conductor import recovery
    stuck, release = threading.Event(), threading.Event()
    checked = threading.Event()

    def stuck_sync(ctx, host, pool=None):
        stuck.set()
        release.wait(timeouts.HANG)

    def dead_check(ctx, host):
        if stuck.is_set():
            checked.set()

    monkeypatch.setattr(power, 'sync_power_states', stuck_sync)
    monkeypatch.setattr(recovery, 'recover_dead_conductors', dead_check)
    config.set_override('sync_power_state_interval', 1, 'conductor')
    config.set_override('check_provision_state_interval', 1, 'conductor')
    cond = conftest.Conductor().start()
    try:
        assert stuck.wait(timeouts.HANG), 'the power sync never ran'
        assert checked.wait(timeouts.HANG), (
            'no check for dead conductors while the power sync was stuck')
    finally:
        release.set()
        cond.stop()


def test_start_releases_own_locks_and_fails_stuck_nodes(context, make_node):
    stuck = make_node(provision_state='cleaning',
                      target_provision_state='available',
                      reservation=conftest.HOST)
    powering = make_node(provision_state='active', power_state='power off',
                         target_power_state='power on',
                         reservation=conftest.HOST)
    other = make_node(provision_state='deploying', reservation='other-host')
    cond = conftest.Conductor().start()
    try:
        stuck.refresh()
        assert stuck.reservation is None
        assert stuck.provision_state == 'clean failed'
        assert stuck.last_error == ("The cleaning can't be resumed by "
                                    "conductor test-conductor. Moving to "
                                    "fail state.")
        powering.refresh()
        assert powering.reservation is None
        assert powering.provision_state == 'active'
        assert powering.target_power_state is None
        other.refresh()
        assert other.reservation == 'other-host'
        assert other.provision_state == 'deploying'
    finally:
        cond.stop()


def test_dead_conductor_nodes_are_recovered(context, conductor, make_node):
    _register_dead_conductor(context)
    deploying = make_node(provision_state='deploying',
                          target_provision_state='active',
                          reservation='dead-host')
    active = make_node(provision_state='active', reservation='dead-host')
    alive = make_node(provision_state='deploying', reservation='live-host')
    objects.Conductor.register(context, 'live-host', ['fake-hardware'], '')

    conductor.manager._recover_dead_conductors()

    deploying.refresh()
    assert deploying.reservation is None
    assert deploying.provision_state == 'deploy failed'
    assert deploying.target_provision_state == 'active'
    assert "can't be resumed" in deploying.last_error
    active.refresh()
    assert active.reservation is None
    assert active.provision_state == 'active'
    alive.refresh()
    assert alive.reservation == 'live-host'


def test_dead_conductor_periodic_runs(config, context, make_node, wait_for):
    config.set_override('check_provision_state_interval', 1, 'conductor')
    _register_dead_conductor(context)
    node = make_node(provision_state='verifying',
                     target_provision_state='manageable',
                     reservation='dead-host')
    cond = conftest.Conductor().start()
    try:
        # Recovery releases the lock, then fails the node: wait for both.
        wait_for(lambda: (lambda n: n.reservation is None
                          and n.provision_state == 'enroll')(
            objects.Node.get_by_uuid(context, node.uuid)),
            what='the dead conductor lock to go and the node to fail')
    finally:
        cond.stop()


def test_power_sync(config, context, make_node, wait_for):
    config.set_override('sync_power_state_interval', 1, 'conductor')
    unknown = make_node(provision_state='manageable', power_state=None)
    in_maintenance = make_node(provision_state='manageable',
                               power_state=None, maintenance=True)
    cond = conftest.Conductor().start()
    try:
        wait_for(lambda: objects.Node.get_by_uuid(
            context, unknown.uuid).power_state == 'power off',
            what='power state sync')
        in_maintenance.refresh()
        assert in_maintenance.power_state is None
    finally:
        cond.stop()


def test_graceful_stop_finishes_work_in_flight(config, context, rpc_api,
                                               conductor, make_node):
    config.set_override('deploy_delay', 0.5, 'fake')
    node = make_node(provision_state='available')
    rpc_api.do_node_deploy(context, node)
    assert conductor.stop() == 0
    node.refresh()
    assert node.provision_state == 'active'
    assert node.reservation is None
    with pytest.raises(exception.NoFreeConductorWorker):
        conductor.manager._pool.claim()
    row = objects.Conductor.get_by_hostname(context, conftest.HOST,
                                            online=False)
    assert not row.online


def test_stop_timeout_leaves_unfinished_nodes_locked(config, context,
                                                     rpc_api, conductor,
                                                     make_node, wait_node):
    config.set_override('deploy_delay', 3.0, 'fake')
    node = make_node(provision_state='available')
    rpc_api.do_node_deploy(context, node)
    assert conductor.stop(timeout=0.1) == 1
    node.refresh()
    assert node.provision_state == 'deploying'
    assert node.reservation == conftest.HOST
    wait_node(node.uuid, 'active')  # the thread still ends, in tests


def test_run_stops_on_sigterm():
    events = []

    class Svc(object):
        def start(self):
            events.append('start')
            threading.Timer(0.1, os.kill,
                            (os.getpid(), signal.SIGTERM)).start()

        def stop(self):
            events.append('stop')

    assert launcher.run([Svc()]) == 0
    assert events == ['start', 'stop']


def test_run_with_real_conductor_on_sigint(context):
    cond = conftest.Conductor()
    svc = cond.service
    original_start = svc.start

    def start():
        original_start()
        threading.Timer(0.1, os.kill, (os.getpid(), signal.SIGINT)).start()
    svc.start = start
    assert launcher.run([svc]) == 0
    row = objects.Conductor.get_by_hostname(context, conftest.HOST,
                                            online=False)
    assert not row.online


def test_run_returns_1_when_start_fails():
    class Broken(object):
        def start(self):
            raise RuntimeError('no')

        def stop(self):
            pass
    assert launcher.run([Broken()]) == 1


def test_unknown_hardware_type_refuses_to_start(config, database):
    config.set_override('enabled_hardware_types', ['ipmi'])
    try:
        with pytest.raises(exception.DriverNotFound):
            conftest.Conductor().start()
    finally:
        config.clear_override('enabled_hardware_types')


def test_command_rejects_unknown_pin(tmp_path):
    conf_file = tmp_path / 'ironic.conf'
    conf_file.write_text('[DEFAULT]\npin_release_version = 0.9\n')
    result = subprocess.run(
        [sys.executable, '-m', 'ironic_lite.cmd.conductor',
         '--config-file', str(conf_file)],
        capture_output=True, text=True, timeout=timeouts.HANG)
    assert result.returncode != 0
    assert 'pin_release_version' in result.stderr
    assert 'Valid values' in result.stderr
