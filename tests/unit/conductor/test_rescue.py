"""Rescue and unrescue through the real RPC client and conductor on the
fake transport (conductor/rescue.py, RPC 1.6)."""

import pytest

from ironic_lite.common import exception
from ironic_lite.drivers import fake_hardware
from ironic_lite import objects


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
