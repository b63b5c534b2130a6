"""The ``hold`` step and the ``unhold`` verb (API 1.85): a manual cleaning
and a deploy stop in ``clean hold`` / ``deploy hold`` at the step, go on
with the steps after it on ``unhold``, and end on ``abort``; through the
real RPC client and conductor (fake-hardware)."""

import pytest

from ironic_lite.common import exception
from ironic_lite.drivers import fake_hardware
from tests.unit.conductor import test_cleaning
from tests.unit.conductor import test_deployments

manageable = test_cleaning.manageable
deployable = test_deployments.deployable

HOLD = {'interface': 'deploy', 'step': 'hold'}
CLEAN_STEPS = [{'interface': 'bios', 'step': 'factory_reset'},
               HOLD,
               {'interface': 'vendor', 'step': 'log_passthrough'}]


def _held_clean(rpc_api, context, node, wait_node):
    rpc_api.do_node_clean(context, node, CLEAN_STEPS)
    return wait_node(node.uuid, 'clean hold',
                     target_provision_state='manageable')


def test_manual_clean_holds_then_unhold_runs_the_rest(
        rpc_api, context, manageable, wait_node):
    node = _held_clean(rpc_api, context, manageable, wait_node)
    internal = node.driver_internal_info
    assert internal[fake_hardware.EXECUTED_STEPS_KEY] == [
        'bios.factory_reset']
    assert internal['clean_step_index'] == 1
    assert node.clean_step['step'] == 'hold'
    rpc_api.do_provisioning_action(context, node, 'unhold')
    node = wait_node(manageable.uuid, 'manageable',
                     target_provision_state=None)
    assert node.driver_internal_info[fake_hardware.EXECUTED_STEPS_KEY] == [
        'bios.factory_reset', 'vendor.log_passthrough']
    assert not node.clean_step
    assert 'clean_steps' not in node.driver_internal_info
    assert node.last_error is None


def test_abort_from_clean_hold(rpc_api, context, manageable, wait_node):
    node = _held_clean(rpc_api, context, manageable, wait_node)
    rpc_api.do_provisioning_action(context, node, 'abort')
    node = wait_node(manageable.uuid, 'clean failed',
                     target_provision_state='manageable')
    assert node.last_error == 'By request, the clean operation was aborted.'
    assert 'clean_steps' not in node.driver_internal_info
    assert node.driver_internal_info[fake_hardware.EXECUTED_STEPS_KEY] == [
        'bios.factory_reset']
    rpc_api.do_provisioning_action(context, node, 'manage')
    wait_node(manageable.uuid, 'manageable', target_provision_state=None)


DEPLOY_STEPS = [
    {'interface': 'bios', 'step': 'factory_reset', 'args': {},
     'priority': 150},
    dict(HOLD, args={}, priority=120),
    {'interface': 'raid', 'step': 'create_configuration', 'args': {},
     'priority': 50}]


def _held_deploy(rpc_api, context, deployable, wait_node):
    node = deployable()
    rpc_api.do_node_deploy(context, node, deploy_steps=DEPLOY_STEPS)
    return wait_node(node.uuid, 'deploy hold',
                     target_provision_state='active')


def test_deploy_holds_then_unhold_runs_the_rest(rpc_api, context,
                                                deployable, wait_node):
    node = _held_deploy(rpc_api, context, deployable, wait_node)
    assert test_deployments._ran(node) == [('bios', 'factory_reset', 150)]
    assert node.deploy_step['step'] == 'hold'
    rpc_api.do_provisioning_action(context, node, 'unhold')
    node = wait_node(node.uuid, 'active', target_provision_state=None)
    assert test_deployments._ran(node) == [
        ('bios', 'factory_reset', 150), ('deploy', 'deploy', 100),
        ('raid', 'create_configuration', 50)]
    assert 'deploy_steps' not in node.driver_internal_info
    assert node.last_error is None


def test_abort_from_deploy_hold(rpc_api, context, deployable, wait_node):
    node = _held_deploy(rpc_api, context, deployable, wait_node)
    rpc_api.do_provisioning_action(context, node, 'abort')
    node = wait_node(node.uuid, 'deploy failed',
                     target_provision_state='active')
    assert node.last_error == 'By request, the deploy operation was aborted.'
    assert 'deploy_steps' not in node.driver_internal_info


def test_unhold_outside_a_hold_is_refused(rpc_api, context, manageable):
    with pytest.raises(exception.InvalidStateRequested):
        rpc_api.do_provisioning_action(context, manageable, 'unhold')
