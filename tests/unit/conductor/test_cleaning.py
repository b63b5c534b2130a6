"""Manual cleaning through the real RPC client and conductor on the fake
transport (conductor/cleaning.py, RPC 1.6): the steps in order, their
failures, and a stuck cleaning."""

import threading

import pytest

from ironic_lite.common import exception
from ironic_lite.drivers import fake_hardware
from ironic_lite import objects
from tests import timeouts


def _stored(context, node):
    return objects.Node.get_by_uuid(context, node.uuid)


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
