"""Node lifecycles driven through the real RPC client and server
(conductor/provisioning.py): the provisioning actions, deploy and tear
down, a retired node's provide, and the refused requests (the right
error and code, nothing written)."""

import threading

from oslo_utils import uuidutils
import pytest

from ironic_lite.common import exception
from ironic_lite.common import states
from ironic_lite.drivers import fake_hardware
from ironic_lite import objects
from tests import timeouts


@pytest.fixture
def held_work(monkeypatch, conductor):
    """The fake hardware's delays ([fake]deploy_delay, power_delay...)
    last until the test calls ``held_work.set()``: a test looks at a node
    while the work is in progress, however slow the machine.  Released
    (at the latest) before the conductor stops."""
    done = threading.Event()
    monkeypatch.setattr(fake_hardware, '_sleep', lambda seconds: (
        seconds and done.wait(timeouts.HANG)))
    yield done
    done.set()


def test_enroll_manage_provide_deploy_tear_down(context, rpc_api, make_node,
                                                wait_node):
    node = objects.Node(context, driver='fake-hardware', name='n1',
                        uuid=uuidutils.generate_uuid(), conductor_group='',
                        provision_state='enroll')
    node = rpc_api.create_node(context, node)
    assert node.id is not None
    assert node.power_interface == 'fake'
    assert node.deploy_interface == 'fake'
    assert node.network_interface == 'flat'

    rpc_api.do_provisioning_action(context, node, 'manage')
    node = wait_node(node.uuid, 'manageable', target_provision_state=None)
    assert node.power_state == states.POWER_OFF
    assert node.last_error is None

    rpc_api.do_provisioning_action(context, node, 'provide')
    node = wait_node(node.uuid, 'available', target_provision_state=None)

    rpc_api.do_node_deploy(context, node, configdrive='abc')
    node = wait_node(node.uuid, 'active', target_provision_state=None)
    assert node.power_state == states.POWER_ON
    assert node.instance_info['configdrive'] == 'abc'
    assert node.conductor_affinity is not None

    node.instance_uuid = '9a4c0d4c-2f5f-4bb4-9d3f-5f3b3f0f6c0a'
    node = rpc_api.update_node(context, node)
    rpc_api.do_node_tear_down(context, node)
    node = wait_node(node.uuid, 'available', target_provision_state=None)
    assert node.power_state == states.POWER_OFF
    assert node.instance_uuid is None
    assert node.instance_info == {}


def test_rebuild_active_node(context, rpc_api, make_node, wait_node):
    node = make_node(provision_state='active', power_state='power on')
    rpc_api.do_node_deploy(context, node, rebuild=True)
    node = wait_node(node.uuid, 'active', target_provision_state=None)
    assert node.power_state == states.POWER_ON


def test_transitional_state_visible_while_working(config, context, rpc_api,
                                                  make_node, wait_node,
                                                  held_work):
    config.set_override('deploy_delay', 0.5, 'fake')
    node = make_node(provision_state='available')
    rpc_api.do_node_deploy(context, node)
    during = objects.Node.get_by_uuid(context, node.uuid)
    held_work.set()
    assert during.provision_state == states.DEPLOYING
    assert during.target_provision_state == states.ACTIVE
    assert during.reservation == 'test-conductor'
    wait_node(node.uuid, 'active')


def test_inspect(context, rpc_api, make_node, wait_node):
    node = make_node(provision_state='manageable')
    rpc_api.do_provisioning_action(context, node, 'inspect')
    node = wait_node(node.uuid, 'manageable', target_provision_state=None)
    assert node.inspection_started_at is not None
    assert node.inspection_finished_at is not None


def test_adopt(context, rpc_api, make_node, wait_node):
    node = make_node(provision_state='manageable')
    rpc_api.do_provisioning_action(context, node, 'adopt')
    wait_node(node.uuid, 'active', target_provision_state=None)


def test_manage_available_is_synchronous(context, rpc_api, make_node):
    node = make_node(provision_state='available')
    rpc_api.do_provisioning_action(context, node, 'manage')
    node.refresh()
    assert node.provision_state == 'manageable'
    assert node.target_provision_state is None
    assert node.reservation is None


@pytest.mark.parametrize('state,result', [
    (states.CLEANWAIT, states.CLEANFAIL),
    (states.INSPECTWAIT, states.INSPECTFAIL),
])
def test_abort(context, rpc_api, make_node, state, result):
    node = make_node(provision_state=state)
    rpc_api.do_provisioning_action(context, node, 'abort')
    node.refresh()
    assert node.provision_state == result
    assert node.last_error
    assert node.reservation is None


def test_automated_clean_disabled(monkeypatch, context, rpc_api, make_node,
                                  wait_node):
    cleaned = []
    monkeypatch.setattr(fake_hardware.FakeClean, 'clean',
                        lambda self, task: cleaned.append(task.node.uuid))
    node = make_node(provision_state='manageable', automated_clean=False)
    rpc_api.do_provisioning_action(context, node, 'provide')
    wait_node(node.uuid, 'available')
    assert cleaned == []


def test_power_on_off_reboot(context, rpc_api, make_node, wait_node):
    node = make_node(provision_state='manageable', power_state='power off')
    rpc_api.change_node_power_state(context, node, states.POWER_ON)
    node = wait_node(node.uuid, power_state=states.POWER_ON,
                     target_power_state=None)
    rpc_api.change_node_power_state(context, node, states.POWER_OFF)
    node = wait_node(node.uuid, power_state=states.POWER_OFF,
                     target_power_state=None)
    rpc_api.change_node_power_state(context, node, states.REBOOT)
    node = wait_node(node.uuid, power_state=states.POWER_ON,
                     target_power_state=None)
    assert node.last_error is None


def test_power_target_visible_while_working(config, context, rpc_api,
                                            make_node, wait_node, held_work):
    config.set_override('power_delay', 0.5, 'fake')
    node = make_node(power_state='power off')
    rpc_api.change_node_power_state(context, node, states.SOFT_REBOOT)
    during = objects.Node.get_by_uuid(context, node.uuid)
    held_work.set()
    assert during.target_power_state == states.POWER_ON
    assert during.power_state == states.POWER_OFF
    wait_node(node.uuid, power_state=states.POWER_ON, target_power_state=None)


def test_unsupported_power_state(context, rpc_api, make_node):
    node = make_node(power_state='power off')
    with pytest.raises(exception.InvalidParameterValue) as err:
        rpc_api.change_node_power_state(context, node, 'explode')
    assert err.value.code == 400
    node.refresh()
    assert node.target_power_state is None
    assert node.reservation is None


INSTANCE = '9a4c0d4c-2f5f-4bb4-9d3f-5f3b3f0f6c0a'


def _stored(context, node):
    return objects.Node.get_by_uuid(context, node.uuid)


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


# updated_at is not compared: taking and dropping the lock bumps it, as
# in Ironic.
_ROW_FIELDS = ('provision_state', 'target_provision_state', 'power_state',
               'target_power_state', 'reservation', 'last_error',
               'provision_updated_at', 'instance_info', 'driver', 'name',
               'console_interface')


def _row(context, uuid):
    node = objects.Node.get_by_uuid(context, uuid)
    return {f: getattr(node, f) for f in _ROW_FIELDS}


@pytest.mark.parametrize('state,call', [
    ('enroll', ('do_node_deploy',)),
    ('manageable', ('do_node_deploy',)),
    ('enroll', ('do_provisioning_action', 'provide')),
    ('enroll', ('do_provisioning_action', 'inspect')),
    ('available', ('do_provisioning_action', 'inspect')),
    ('available', ('do_provisioning_action', 'abort')),
    ('active', ('do_provisioning_action', 'manage')),
    ('manageable', ('do_provisioning_action', 'clean')),
    ('manageable', ('do_provisioning_action', 'bogus')),
    ('available', ('do_node_tear_down',)),
    ('enroll', ('do_node_tear_down',)),
])
def test_invalid_transition_is_400_and_writes_nothing(context, rpc_api,
                                                      make_node, state, call):
    node = make_node(provision_state=state)
    before = _row(context, node.uuid)
    method, args = call[0], call[1:]
    with pytest.raises(exception.InvalidStateRequested) as err:
        getattr(rpc_api, method)(context, node, *args)
    assert err.value.code == 400
    assert ('can not be performed on node "%s" while it is in state "%s"'
            % (node.uuid, state)) in str(err.value)
    assert _row(context, node.uuid) == before


def test_rebuild_from_available_is_400(context, rpc_api, make_node):
    node = make_node(provision_state='available')
    before = _row(context, node.uuid)
    with pytest.raises(exception.InvalidStateRequested) as err:
        rpc_api.do_node_deploy(context, node, rebuild=True)
    assert 'The requested action "rebuild"' in str(err.value)
    assert _row(context, node.uuid) == before


def test_deploy_in_maintenance_is_refused(context, rpc_api, make_node):
    node = make_node(provision_state='available', maintenance=True)
    before = _row(context, node.uuid)
    with pytest.raises(exception.NodeInMaintenance) as err:
        rpc_api.do_node_deploy(context, node)
    assert err.value.code == 400
    assert _row(context, node.uuid) == before


@pytest.mark.parametrize('method', ['do_node_tear_down', 'rebuild'])
def test_protected_node_is_403(context, rpc_api, make_node, method):
    node = make_node(provision_state='active', protected=True)
    before = _row(context, node.uuid)
    with pytest.raises(exception.NodeProtected) as err:
        if method == 'rebuild':
            rpc_api.do_node_deploy(context, node, rebuild=True)
        else:
            rpc_api.do_node_tear_down(context, node)
    assert err.value.code == 403
    assert _row(context, node.uuid) == before


def test_unknown_node(context, rpc_api, make_node):
    node = make_node()
    objects.Node.get_by_uuid(context, node.uuid).destroy()
    with pytest.raises(exception.NodeNotFound) as err:
        rpc_api.do_provisioning_action(context, node, 'manage')
    assert err.value.code == 404
