"""Servicing through the real RPC client and conductor on the fake
transport (conductor/servicing.py, RPC 1.12, API 1.87): the steps in
order, their failures, hold/unhold, abort, a step waiting for the agent,
disable_ramdisk (1.108), the callback timeout, the pin; abort from wait
call-back (1.110)."""

import datetime

import pytest

from ironic_lite.common import exception
from ironic_lite.common import states
from ironic_lite.conductor import rpcapi
from ironic_lite.conductor import servicing
from ironic_lite.drivers import fake_hardware
from ironic_lite.drivers import steps as driver_steps
from ironic_lite import objects
from tests.unit.conductor import test_rpcapi_versions

URL = 'http://192.0.2.10:9999'
LOG = {'interface': 'vendor', 'step': 'log_passthrough'}
WAIT = {'interface': 'vendor', 'step': 'trigger_servicewait'}
HOLD = {'interface': 'deploy', 'step': 'hold'}


# The node history of a servicing (event type "servicing", Ironic's).
HISTORY = [
    ('servicing',
     'Provision state changed from active to servicing (target: active)'),
    ('servicing', 'Provision state changed from servicing to active')]


def _stored(context, node):
    return objects.Node.get_by_uuid(context, node.uuid)


def _ran(node):
    return node.driver_internal_info.get(fake_hardware.SERVICE_STEPS_KEY)


@pytest.fixture
def active(make_node):
    return make_node(provision_state='active', vendor_interface='fake',
                     deploy_interface='ramdisk', power_state='power on',
                     instance_name='vm-1')


def _service(rpc_api, context, node, wait_node, steps, state,
             disable_ramdisk=None):
    rpc_api.do_node_service(context, node, steps,
                            disable_ramdisk=disable_ramdisk)
    return wait_node(node.uuid, state)


def test_service_runs_the_steps_and_ends_active(rpc_api, context, active,
                                                wait_node):
    node = _service(rpc_api, context, active, wait_node, [LOG, LOG],
                    'active')
    assert node.target_provision_state is None
    assert _ran(node) == ['vendor.log_passthrough'] * 2
    assert not node.service_step
    assert not [k for k in node.driver_internal_info
                if k.startswith('service_')]
    assert node.last_error is None and node.maintenance is False
    events = objects.NodeHistory.list_by_node_id(context, node.id)
    assert [(e.event_type, e.event) for e in events] == HISTORY


def test_power_steps_are_the_conductor_s(rpc_api, context, active,
                                         wait_node):
    steps = [{'interface': 'power', 'step': 'power_off'}, LOG,
             {'interface': 'power', 'step': 'power_on'},
             {'interface': 'deploy', 'step': 'reboot'}]
    node = _service(rpc_api, context, active, wait_node, steps[:1] + [HOLD],
                    'service hold')
    assert node.power_state == 'power off'
    rpc_api.do_provisioning_action(context, node, 'abort')
    node = wait_node(active.uuid, 'active')
    node = _service(rpc_api, context, node, wait_node, steps, 'active')
    assert node.power_state == 'power on'
    assert _ran(node) == ['vendor.log_passthrough']


def test_unknown_step_fails_before_any_step_runs(rpc_api, context, active,
                                                 wait_node):
    bogus = {'interface': 'vendor', 'step': 'no_such_step'}
    node = _service(rpc_api, context, active, wait_node, [LOG, bogus],
                    'service failed')
    assert node.target_provision_state == 'active'
    assert node.last_error == (
        'Cannot service node %s: node does not support this service step: '
        '%s' % (active.uuid, bogus))
    assert not _ran(node)
    # No step ran: no maintenance (Ironic's).
    assert node.maintenance is False and node.fault is None


def test_a_failing_step_ends_in_service_failed_in_maintenance(
        rpc_api, context, active, wait_node, monkeypatch):
    @driver_steps.service_step(requires_ramdisk=False)
    def broken(self, task, **kwargs):
        raise RuntimeError('the firmware is gone')
    monkeypatch.setattr(fake_hardware.FakeVendor, 'log_passthrough', broken)
    node = _service(rpc_api, context, active, wait_node, [LOG],
                    'service failed')
    assert node.target_provision_state == 'active'
    assert node.last_error.startswith('Node %s failed step {' % active.uuid)
    assert node.last_error.endswith('the firmware is gone')
    assert node.maintenance is True and node.fault == 'service failure'
    assert node.service_step == {}
    # Abort is refused in maintenance (Ironic's 409), then brings it back.
    with pytest.raises(exception.InvalidState) as err:
        rpc_api.do_provisioning_action(context, node, 'abort')
    assert 'while it is in maintenance mode' in str(err.value)
    assert _stored(context, node).provision_state == 'service failed'
    node.maintenance = False
    node.save()
    rpc_api.do_provisioning_action(context, node, 'abort')
    node = wait_node(active.uuid, 'active', target_provision_state=None)
    assert node.last_error == 'By request, the service operation was aborted'


def test_service_again_from_service_failed(rpc_api, context, active,
                                           wait_node):
    bogus = {'interface': 'vendor', 'step': 'no_such_step'}
    node = _service(rpc_api, context, active, wait_node, [bogus],
                    'service failed')
    node = _service(rpc_api, context, node, wait_node, [LOG], 'active')
    assert _ran(node) == ['vendor.log_passthrough']
    assert node.last_error is None


def test_hold_then_unhold_runs_the_rest(rpc_api, context, active,
                                        wait_node):
    node = _service(rpc_api, context, active, wait_node, [LOG, HOLD, LOG],
                    'service hold')
    assert node.target_provision_state == 'active'
    assert _ran(node) == ['vendor.log_passthrough']
    assert node.service_step['step'] == 'hold'
    assert node.driver_internal_info['service_step_index'] == 1
    rpc_api.do_provisioning_action(context, node, 'unhold')
    node = wait_node(active.uuid, 'active', target_provision_state=None)
    assert _ran(node) == ['vendor.log_passthrough'] * 2
    assert not node.service_step


def test_abort_from_service_hold_ends_active(rpc_api, context, active,
                                             wait_node):
    node = _service(rpc_api, context, active, wait_node, [HOLD, LOG],
                    'service hold')
    rpc_api.do_provisioning_action(context, node, 'abort')
    node = wait_node(active.uuid, 'active', target_provision_state=None)
    assert node.last_error == (
        'By request, the service operation was aborted during or after the '
        'completion of step "deploy.hold"')
    assert not _ran(node)
    assert not node.service_step
    assert 'service_steps' not in node.driver_internal_info


def _token(rpc_api, context, node):
    return rpc_api.get_node_with_token(context, node).driver_internal_info[
        'agent_secret_token']


def test_a_step_waiting_for_the_agent_goes_on_at_its_heartbeat(
        rpc_api, context, active, wait_node):
    node = _service(rpc_api, context, active, wait_node, [WAIT, LOG],
                    'service wait')
    assert node.target_provision_state == 'active'
    assert node.service_step['step'] == 'trigger_servicewait'
    rpc_api.heartbeat(context, node, URL, agent_version='10.0.0',
                      agent_token=_token(rpc_api, context, node))
    node = wait_node(active.uuid, 'active', target_provision_state=None)
    assert _ran(node) == ['vendor.trigger_servicewait',
                          'vendor.log_passthrough']
    # The token was good for this servicing only.
    assert 'agent_secret_token' not in node.driver_internal_info


def test_abort_in_service_wait_waits_for_the_step(rpc_api, context, active,
                                                  wait_node):
    """trigger_servicewait is not abortable: the abort is noted, and done
    once the step ends (the agent's heartbeat)."""
    node = _service(rpc_api, context, active, wait_node, [WAIT, LOG],
                    'service wait')
    rpc_api.do_provisioning_action(context, node, 'abort')
    node = _stored(context, node)
    assert node.provision_state == 'service wait'
    assert node.service_step['abort_after'] is True
    rpc_api.heartbeat(context, node, URL, agent_version='10.0.0',
                      agent_token=_token(rpc_api, context, node))
    node = wait_node(active.uuid, 'active', target_provision_state=None)
    assert node.last_error == (
        'By request, the service operation was aborted during or after the '
        'completion of step "vendor.trigger_servicewait"')
    assert _ran(node) == ['vendor.trigger_servicewait']


def test_disable_ramdisk_is_kept_and_refuses_ramdisk_steps(
        rpc_api, context, active, wait_node):
    node = _service(rpc_api, context, active, wait_node, [LOG, HOLD],
                    'service hold', disable_ramdisk=True)
    assert node.driver_internal_info['service_disable_ramdisk'] is True
    rpc_api.do_provisioning_action(context, node, 'abort')
    node = wait_node(active.uuid, 'active', target_provision_state=None)
    node = _service(rpc_api, context, node, wait_node, [WAIT],
                    'service failed', disable_ramdisk=True)
    assert node.last_error == (
        'Cannot service node %s: service step %s requires booting a ramdisk'
        % (active.uuid, WAIT))
    assert 'service_steps' not in node.driver_internal_info


def test_service_only_from_its_states(rpc_api, context, make_node):
    for state in ('available', 'manageable', 'deploy failed'):
        node = make_node(provision_state=state)
        with pytest.raises(exception.InvalidStateRequested):
            rpc_api.do_node_service(context, node, [LOG])
        assert _stored(context, node).provision_state == state


def test_service_in_maintenance_is_refused(rpc_api, context, active):
    active.maintenance = True
    active.save()
    with pytest.raises(exception.NodeInMaintenance):
        rpc_api.do_node_service(context, active, [LOG])
    assert _stored(context, active).provision_state == 'active'


def test_service_callback_timeout(rpc_api, context, active, wait_node,
                                  config, conductor):
    node = _service(rpc_api, context, active, wait_node, [WAIT],
                    'service wait')
    config.set_override('service_callback_timeout', 60, group='conductor')
    assert servicing.check_service_timeouts(
        context, conductor.manager.host) == []
    node.provision_updated_at = (datetime.datetime.utcnow()
                                 - datetime.timedelta(seconds=120))
    node.save()
    assert servicing.check_service_timeouts(
        context, conductor.manager.host) == [active.uuid]
    node = _stored(context, node)
    assert node.provision_state == 'service failed'
    assert node.last_error.startswith(
        'Timeout reached while servicing the node.')
    assert node.maintenance is True and node.fault == 'service failure'


def test_the_timeout_is_a_periodic_task(config, conductor):
    config.set_override('check_provision_state_interval', 10,
                        group='conductor')
    names = [f.__name__ for f, _ in conductor.manager._periodic_tasks()]
    assert '_check_service_timeouts' in names
    config.set_override('service_callback_timeout', 0, group='conductor')
    names = [f.__name__ for f, _ in conductor.manager._periodic_tasks()]
    assert '_check_service_timeouts' not in names


def test_pinned_below_1_12_refuses_service_nothing_sent(
        config, conductor, context, make_node, monkeypatch):
    config.set_override('pin_release_version', '5.0')
    try:
        pinned = rpcapi.ConductorAPI()
        calls = test_rpcapi_versions._spy(pinned, monkeypatch)
        node = make_node(provision_state='active')
        with pytest.raises(exception.PinnedRelease) as err:
            pinned.do_node_service(context, node, [LOG])
        assert err.value.code == 409
        assert '1.12' in str(err.value)
        assert calls == []
        assert _stored(context, node).provision_state == 'active'
    finally:
        config.clear_override('pin_release_version')


def test_unpinned_sends_1_12(rpc_api, context, active, wait_node,
                             monkeypatch):
    calls = test_rpcapi_versions._spy(rpc_api, monkeypatch)
    rpc_api.do_node_service(context, active, [LOG], disable_ramdisk=True)
    wait_node(active.uuid, 'active')
    assert calls == [('1.12', 'do_node_service',
                      ['disable_ramdisk', 'node_id', 'service_steps'])]


# -- abort from wait call-back (API 1.110) ----------------------------------

def test_abort_from_wait_call_back_ends_in_deploy_failed(
        rpc_api, context, make_node, wait_node):
    node = make_node(provision_state='available', deploy_interface='ramdisk',
                     power_state='power off')
    rpc_api.do_node_deploy(context, node)
    node = wait_node(node.uuid, states.DEPLOYWAIT)
    _token(rpc_api, context, node)
    rpc_api.do_provisioning_action(context, node, 'abort')
    node = wait_node(node.uuid, 'deploy failed',
                     target_provision_state='active')
    assert node.last_error == (
        'By request, the deploy operation was aborted during or after the '
        'completion of step "deploy.deploy"')
    assert node.deploy_step == {}
    assert 'agent_secret_token' not in node.driver_internal_info
    assert 'deploy_steps' not in node.driver_internal_info
    # It may then be torn down, its instance_name cleared.
    node.instance_name = 'vm-1'
    node.save()
    rpc_api.do_node_tear_down(context, node)
    node = wait_node(node.uuid, 'available')
    assert node.instance_name is None
