"""RPC 1.6 through the real conductor on the fake transport: rescue and
unrescue, manual cleaning, NMI, the console, and a retired node's
provide."""

import threading

import pytest

from ironic_lite.common import exception
from ironic_lite.common import states
from ironic_lite.conductor import rpcapi
from ironic_lite.drivers import fake_hardware
from ironic_lite import objects
from tests import timeouts

INSTANCE = '9a4c0d4c-2f5f-4bb4-9d3f-5f3b3f0f6c0a'


def _stored(context, node):
    return objects.Node.get_by_uuid(context, node.uuid)


@pytest.fixture
def active(make_node):
    return make_node(provision_state='active', rescue_interface='fake',
                     instance_uuid=INSTANCE, power_state='power on')


def test_rescue_unrescue_and_rescue_again(rpc_api, context, active,
                                          wait_node):
    rpc_api.do_node_rescue(context, active, 'pw-1')
    node = wait_node(active.uuid, 'rescue', target_provision_state=None)
    assert node.instance_info['rescue_password'] == 'pw-1'
    assert node.instance_info['hashed_rescue_password'].startswith('$5$')
    # Rescue from rescue, as Ironic: a new password.
    rpc_api.do_node_rescue(context, node, 'pw-2')
    node = wait_node(active.uuid, 'rescue', target_provision_state=None)
    assert node.instance_info['rescue_password'] == 'pw-2'
    rpc_api.do_node_unrescue(context, node)
    node = wait_node(active.uuid, 'active', target_provision_state=None)
    assert 'rescue_password' not in node.instance_info
    assert 'hashed_rescue_password' not in node.instance_info
    assert node.instance_uuid == INSTANCE


def test_tear_down_from_rescue_drops_the_password(rpc_api, context, active,
                                                  wait_node):
    rpc_api.do_node_rescue(context, active, 'pw')
    node = wait_node(active.uuid, 'rescue')
    rpc_api.do_node_tear_down(context, node)
    node = wait_node(active.uuid, 'available', target_provision_state=None)
    assert node.instance_info == {}


@pytest.mark.parametrize('state', ['available', 'manageable', 'enroll'])
def test_rescue_refused_outside_its_states(rpc_api, context, make_node,
                                           state):
    node = make_node(provision_state=state, rescue_interface='fake')
    with pytest.raises(exception.InvalidStateRequested) as err:
        rpc_api.do_node_rescue(context, node, 'pw')
    assert str(err.value) == (
        'The requested action "rescue" can not be performed on node "%s" '
        'while it is in state "%s".' % (node.uuid, state))
    assert _stored(context, node).instance_info == {}
    with pytest.raises(exception.InvalidStateRequested):
        rpc_api.do_node_unrescue(context, node)


def test_rescue_without_rescue_interface_writes_nothing(rpc_api, context,
                                                        make_node):
    node = make_node(provision_state='active')
    assert node.rescue_interface is None
    with pytest.raises(exception.InstanceRescueFailure) as err:
        rpc_api.do_node_rescue(context, node, 'pw')
    assert 'does not support rescue' in str(err.value)
    stored = _stored(context, node)
    assert (stored.provision_state, stored.instance_info) == ('active', {})


def test_rescue_in_maintenance_is_refused(rpc_api, context, make_node):
    node = make_node(provision_state='active', rescue_interface='fake',
                     maintenance=True)
    with pytest.raises(exception.NodeInMaintenance):
        rpc_api.do_node_rescue(context, node, 'pw')
    with pytest.raises(exception.NodeInMaintenance):
        rpc_api.do_node_unrescue(context, node)


def test_a_failing_rescue_ends_in_rescue_failed(rpc_api, context, active,
                                                wait_node, monkeypatch):
    def broken(self, task):
        raise exception.InvalidParameterValue(err='no ramdisk')
    monkeypatch.setattr(fake_hardware.FakeRescue, 'rescue', broken)
    rpc_api.do_node_rescue(context, active, 'pw')
    node = wait_node(active.uuid, 'rescue failed')
    assert node.target_provision_state == 'rescue'
    assert node.last_error == 'Failed to rescue: no ramdisk'
    assert 'rescue_password' not in node.instance_info
    # From rescue failed: unrescue is allowed, as in Ironic.
    rpc_api.do_node_unrescue(context, node)
    wait_node(active.uuid, 'active', target_provision_state=None)


def test_a_failing_unrescue_ends_in_unrescue_failed(rpc_api, context,
                                                    active, wait_node,
                                                    monkeypatch):
    rpc_api.do_node_rescue(context, active, 'pw')
    node = wait_node(active.uuid, 'rescue')
    monkeypatch.setattr(fake_hardware.FakeRescue, 'unrescue',
                        lambda self, task: 'rescue')
    rpc_api.do_node_unrescue(context, node)
    node = wait_node(active.uuid, 'unrescue failed')
    assert node.last_error == (
        'Failed to unrescue: Driver returned unexpected state rescue')
    monkeypatch.undo()
    rpc_api.do_node_rescue(context, node, 'pw-again')
    wait_node(active.uuid, 'rescue', target_provision_state=None)


# -- manual cleaning ---------------------------------------------------------

@pytest.fixture
def manageable(make_node):
    return make_node(provision_state='manageable', bios_interface='fake',
                     vendor_interface='fake')


STEPS = [{'interface': 'bios', 'step': 'factory_reset'},
         {'interface': 'vendor', 'step': 'log_passthrough'},
         {'interface': 'bios', 'step': 'apply_configuration',
          'args': {'settings': [{'name': 'a', 'value': 'b'}]}}]


def test_manual_clean_runs_the_steps_in_order(rpc_api, context, manageable,
                                              wait_node):
    rpc_api.do_node_clean(context, manageable, STEPS)
    node = wait_node(manageable.uuid, 'manageable',
                     target_provision_state=None)
    assert node.driver_internal_info[fake_hardware.EXECUTED_STEPS_KEY] == [
        'bios.factory_reset', 'vendor.log_passthrough',
        'bios.apply_configuration']
    assert not node.clean_step
    assert 'clean_steps' not in node.driver_internal_info
    assert node.maintenance is False and node.last_error is None


def test_clean_step_is_shown_while_it_runs(rpc_api, context, manageable,
                                           wait_for, monkeypatch,
                                           config):
    config.set_override('clean_delay', 1, group='fake')
    done = threading.Event()
    monkeypatch.setattr(fake_hardware, '_sleep',
                        lambda seconds: done.wait(timeouts.HANG))
    try:
        rpc_api.do_node_clean(context, manageable, STEPS[:1])
        node = wait_for(lambda: (lambda n: n if n.clean_step else None)(
            _stored(context, manageable)), what='clean_step set')
        assert node.provision_state == 'cleaning'
        assert node.target_provision_state == 'manageable'
        assert node.clean_step == {'interface': 'bios',
                                   'step': 'factory_reset',
                                   'priority': 0, 'abortable': False}
    finally:
        done.set()


def test_a_failing_step_ends_in_clean_failed(rpc_api, context, manageable,
                                             wait_node):
    steps = [{'interface': 'bios', 'step': 'factory_reset'},
             {'interface': 'bios', 'step': 'apply_configuration',
              'args': {'settings': 'bad'}}]
    rpc_api.do_node_clean(context, manageable, steps)
    node = wait_node(manageable.uuid, 'clean failed')
    assert node.target_provision_state == 'manageable'
    assert node.last_error.startswith(
        'Node %s failed step {' % manageable.uuid)
    assert node.last_error.endswith(
        'BIOS settings must be a list of objects with a name and a value')
    assert node.maintenance is True and node.fault == 'clean failure'
    assert node.clean_step == {}
    rpc_api.do_provisioning_action(context, node, 'manage')
    wait_node(manageable.uuid, 'manageable', target_provision_state=None)


@pytest.mark.parametrize('step, error', [
    ({'interface': 'raid', 'step': 'apply_configuration'},
     "node does not support this clean step: {'interface': 'raid', "
     "'step': 'apply_configuration'}"),
    ({'interface': 'bios', 'step': 'apply_configuration'},
     "clean step {'interface': 'bios', 'step': 'apply_configuration'} is "
     "missing these required arguments: settings (List of BIOS settings, "
     "each item needs to contain a dictionary with name/value pairs)"),
    ({'interface': 'bios', 'step': 'factory_reset', 'args': {'x': 1}},
     "clean step {'interface': 'bios', 'step': 'factory_reset', 'args': "
     "{'x': 1}} has these unexpected arguments: x"),
])
def test_steps_the_node_cannot_run_fail_the_cleaning(rpc_api, context,
                                                     manageable, wait_node,
                                                     step, error):
    rpc_api.do_node_clean(context, manageable, [step])
    node = wait_node(manageable.uuid, 'clean failed')
    assert node.last_error == 'Cannot clean node %s: %s' % (
        manageable.uuid, error)
    # Nothing ran, no maintenance: the steps were refused as a whole.
    assert fake_hardware.EXECUTED_STEPS_KEY not in node.driver_internal_info
    assert node.maintenance is False


def test_no_bios_interface_has_no_bios_steps(rpc_api, context, make_node,
                                             wait_node):
    node = make_node(provision_state='manageable')
    rpc_api.do_node_clean(context, node, STEPS[:1])
    node = wait_node(node.uuid, 'clean failed')
    assert 'node does not support this clean step' in node.last_error


@pytest.mark.parametrize('state', ['available', 'active', 'enroll'])
def test_manual_clean_only_from_manageable(rpc_api, context, make_node,
                                           state):
    node = make_node(provision_state=state)
    with pytest.raises(exception.InvalidStateRequested) as err:
        rpc_api.do_node_clean(context, node, STEPS)
    assert str(err.value) == (
        'The requested action "manual clean" can not be performed on node '
        '"%s" while it is in state "%s".' % (node.uuid, state))


def test_manual_clean_in_maintenance_is_refused(rpc_api, context,
                                                make_node):
    node = make_node(provision_state='manageable', maintenance=True)
    with pytest.raises(exception.NodeInMaintenance) as err:
        rpc_api.do_node_clean(context, node, STEPS)
    assert str(err.value) == (
        "The cleaning operation can't be performed on node %s because it's "
        "in maintenance mode." % node.uuid)


# -- retired ---------------------------------------------------------------

def test_provide_a_retired_node_is_refused(rpc_api, context, make_node):
    node = make_node(provision_state='manageable', retired=True)
    with pytest.raises(exception.NodeIsRetired) as err:
        rpc_api.do_provisioning_action(context, node, 'provide')
    assert str(err.value) == (
        "The providing operation can't be performed on node %s because it "
        "is retired." % node.uuid)
    assert _stored(context, node).provision_state == 'manageable'


def test_a_retired_node_torn_down_ends_manageable(rpc_api, context,
                                                  make_node, wait_node):
    node = make_node(provision_state='active', retired=True,
                     instance_uuid=INSTANCE)
    rpc_api.do_node_tear_down(context, node)
    wait_node(node.uuid, 'manageable', target_provision_state=None)


# -- NMI and console ---------------------------------------------------------

def test_inject_nmi_is_not_implemented_by_fake_management(rpc_api, context,
                                                          make_node):
    node = make_node()
    with pytest.raises(exception.UnsupportedDriverExtension) as err:
        rpc_api.inject_nmi(context, node)
    assert str(err.value) == ('Driver fake-hardware does not support '
                              'inject_nmi (disabled or not implemented).')


def test_console_enable_read_disable(rpc_api, context, make_node, wait_node):
    node = make_node(console_interface='fake')
    with pytest.raises(exception.NodeConsoleNotEnabled):
        rpc_api.get_console_information(context, node)
    rpc_api.set_console_mode(context, node, True)
    node = wait_node(node.uuid, console_enabled=True)
    assert rpc_api.get_console_information(context, node) == {}
    rpc_api.set_console_mode(context, node, True)   # nothing to do
    rpc_api.set_console_mode(context, node, False)
    wait_node(node.uuid, console_enabled=False)


def test_no_console(rpc_api, context, make_node):
    node = make_node(console_enabled=True)
    with pytest.raises(exception.UnsupportedDriverExtension) as err:
        rpc_api.get_console_information(context, node)
    assert 'does not support console' in str(err.value)
    with pytest.raises(exception.UnsupportedDriverExtension):
        rpc_api.set_console_mode(context, node, False)
    assert _stored(context, node).console_enabled is True


# -- pinned ----------------------------------------------------------------

@pytest.mark.parametrize('pin', ['3.0', '2.0'])
def test_pinned_below_1_6_refuses_the_new_methods(config, conductor,
                                                  context, make_node, pin):
    """A pinned API never sends a 1.6 method: 409, nothing written."""
    config.set_override('pin_release_version', pin)
    pinned = rpcapi.ConductorAPI()
    node = make_node(provision_state='active', rescue_interface='fake',
                     console_interface='fake')
    for method, args in (('do_node_rescue', ('pw',)),
                         ('do_node_unrescue', ()),
                         ('do_node_clean', (STEPS,)),
                         ('inject_nmi', ()),
                         ('get_console_information', ()),
                         ('set_console_mode', (True,))):
        with pytest.raises(exception.PinnedRelease) as err:
            getattr(pinned, method)(context, node, *args)
        assert err.value.code == 409
        assert 'pinned to release %s (RPC 1.6)' % pin in str(err.value)
    stored = _stored(context, node)
    assert (stored.provision_state, stored.instance_info,
            stored.console_enabled) == (states.ACTIVE, {}, False)


def test_a_stuck_manual_cleaning_fails_back_towards_manageable(context,
                                                               make_node):
    from ironic_lite.conductor import task_manager
    from ironic_lite.conductor import utils
    node = make_node(provision_state='cleaning',
                     target_provision_state='manageable')
    automated = make_node(provision_state='cleaning',
                          target_provision_state='available')
    for each in (node, automated):
        with task_manager.acquire(context, each.uuid) as task:
            utils.fail_stuck_node(task, 'the conductor died')
    assert (_stored(context, node).provision_state,
            _stored(context, node).target_provision_state) == (
        'clean failed', 'manageable')
    assert _stored(context, automated).target_provision_state == 'available'
