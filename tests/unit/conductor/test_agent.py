"""RPC 1.10 through the real conductor on the fake transport: the agent's
token, its heartbeat continuing a ramdisk deploy, the deploy callback
timeout, the ``ramdisk`` deploy interface and the pin."""

import datetime

import pytest

from ironic_lite.common import exception
from ironic_lite.common import states
from ironic_lite.conductor import agent
from ironic_lite.conductor import rpcapi
from ironic_lite.conductor import task_manager
from ironic_lite.drivers import base
from ironic_lite.drivers import factory
from ironic_lite.drivers import fake_hardware
from ironic_lite.drivers import ramdisk
from ironic_lite import objects
from tests.unit.conductor import test_rpcapi_versions

URL = 'http://192.0.2.10:9999'


def _stored(context, node):
    return objects.Node.get_by_uuid(context, node.uuid)


class RecordingBoot(fake_hardware.FakeBoot):
    """The fake boot interface, recording the calls of the contract."""

    calls = []

    def prepare_ramdisk(self, task, ramdisk_params):
        self.calls.append(('prepare_ramdisk', ramdisk_params))
        # The fake boot interface's own work: the next boot from the
        # network.
        super().prepare_ramdisk(task, ramdisk_params)

    def clean_up_ramdisk(self, task):
        self.calls.append(('clean_up_ramdisk',))

    def prepare_instance(self, task):
        self.calls.append(('prepare_instance',))

    def clean_up_instance(self, task):
        self.calls.append(('clean_up_instance',))


@pytest.fixture
def boot_calls(monkeypatch):
    RecordingBoot.calls = []
    original = fake_hardware.FakeHardware.__init__

    def init(self):
        original(self)
        self.boot = RecordingBoot()
    monkeypatch.setattr(fake_hardware.FakeHardware, '__init__', init)
    return RecordingBoot.calls


@pytest.fixture
def waiting(context, rpc_api, make_node, wait_node, boot_calls):
    """A node deployed with the ramdisk interface, now in wait call-back."""
    node = make_node(provision_state='available', deploy_interface='ramdisk',
                     power_state='power off')
    rpc_api.do_node_deploy(context, node)
    return wait_node(node.uuid, states.DEPLOYWAIT,
                     target_provision_state=states.ACTIVE)


def test_ramdisk_deploy_waits_for_the_agent(waiting, boot_calls):
    assert waiting.power_state == 'power on'
    assert waiting.deploy_step['step'] == 'deploy'
    assert waiting.driver_internal_info['deploy_step_index'] == 0
    assert waiting.driver_internal_info['fake_boot_device'] == {
        'boot_device': 'pxe', 'persistent': False}
    assert boot_calls == [('prepare_ramdisk', {})]


def test_heartbeat_with_the_token_deploys(context, rpc_api, waiting,
                                          wait_node, boot_calls):
    token = rpc_api.get_node_with_token(context, waiting).\
        driver_internal_info['agent_secret_token']
    assert len(token) >= 32
    rpc_api.heartbeat(context, waiting, URL, agent_version='10.0.0',
                      agent_token=token, agent_status='start')
    node = wait_node(waiting.uuid, 'active', target_provision_state=None)
    internal = node.driver_internal_info
    assert internal['agent_version'] == '10.0.0'
    assert internal['agent_status'] == 'start'
    assert 'agent_last_heartbeat' in internal
    # The token and URL are good for one deploy (Ironic's wipe).
    assert 'agent_secret_token' not in internal
    assert 'agent_url' not in internal
    assert 'deploy_steps' not in internal and not node.deploy_step
    assert boot_calls == [('prepare_ramdisk', {}), ('clean_up_ramdisk',),
                          ('prepare_instance',)]
    rpc_api.do_node_tear_down(context, node)
    node = wait_node(waiting.uuid, 'available')
    assert node.power_state == 'power off'
    assert not [k for k in node.driver_internal_info
                if k.startswith('agent_')]
    assert boot_calls[3:] == [('clean_up_instance',), ('clean_up_ramdisk',)]


def test_second_token_request_gets_the_mask(context, rpc_api, waiting):
    first = rpc_api.get_node_with_token(context, waiting)
    second = rpc_api.get_node_with_token(context, waiting)
    assert second.driver_internal_info['agent_secret_token'] == '******'
    assert _stored(context, waiting).driver_internal_info[
        'agent_secret_token'] == first.driver_internal_info[
            'agent_secret_token']


@pytest.mark.parametrize('token', [None, '', 'wrong'])
def test_heartbeat_with_a_wrong_token_does_nothing(context, rpc_api, waiting,
                                                   token):
    rpc_api.get_node_with_token(context, waiting)
    with pytest.raises(exception.InvalidParameterValue) as err:
        rpc_api.heartbeat(context, waiting, URL, agent_version='1',
                          agent_token=token)
    assert str(err.value) == 'Invalid or missing agent token received.'
    node = _stored(context, waiting)
    assert node.provision_state == 'wait call-back'
    assert 'agent_url' not in node.driver_internal_info


def test_heartbeat_before_any_lookup_is_refused(context, rpc_api, waiting):
    with pytest.raises(exception.InvalidParameterValue):
        rpc_api.heartbeat(context, waiting, URL, agent_version='1',
                          agent_token='anything')


def test_heartbeat_needs_a_version(context, rpc_api, waiting):
    with pytest.raises(exception.InvalidParameterValue) as err:
        rpc_api.heartbeat(context, waiting, URL, agent_token='x')
    assert 'version is required' in str(err.value)


def _with_token(context, node, state, **values):
    node = _stored(context, node)
    node.provision_state = state
    node.driver_internal_info = dict(node.driver_internal_info,
                                     agent_secret_token='tok')
    for name, value in values.items():
        setattr(node, name, value)
    node.save()
    return node


def test_heartbeat_in_clean_wait_is_recorded_only(context, rpc_api,
                                                  make_node):
    node = make_node(deploy_interface='ramdisk')
    node = _with_token(context, node, 'clean wait')
    rpc_api.heartbeat(context, node, URL, agent_version='2',
                      agent_token='tok')
    node = _stored(context, node)
    assert node.provision_state == 'clean wait'
    assert node.driver_internal_info['agent_url'] == URL


def test_heartbeat_in_other_states_is_ignored(context, rpc_api, make_node):
    node = _with_token(context, make_node(deploy_interface='ramdisk'),
                       'active')
    rpc_api.heartbeat(context, node, URL, agent_version='2',
                      agent_token='tok')
    assert 'agent_url' not in _stored(context, node).driver_internal_info


def test_heartbeat_with_the_fake_deploy_is_ignored(context, rpc_api,
                                                   make_node):
    node = _with_token(context, make_node(), 'wait call-back')
    rpc_api.heartbeat(context, node, URL, agent_version='2',
                      agent_token='tok')
    node = _stored(context, node)
    assert node.provision_state == 'wait call-back'
    assert 'agent_url' not in node.driver_internal_info


def test_heartbeat_in_maintenance_records_and_waits(context, rpc_api,
                                                    waiting):
    token = rpc_api.get_node_with_token(context, waiting).\
        driver_internal_info['agent_secret_token']
    node = _with_token(context, waiting, 'wait call-back', maintenance=True)
    node.driver_internal_info = dict(node.driver_internal_info,
                                     agent_secret_token=token)
    node.save()
    rpc_api.heartbeat(context, node, URL, agent_version='2',
                      agent_token=token)
    node = _stored(context, node)
    assert node.provision_state == 'wait call-back'
    assert node.driver_internal_info['agent_url'] == URL


def test_heartbeat_of_a_node_locked_elsewhere(context, rpc_api, waiting):
    """Another conductor holds the lock: before the agent has a URL on
    record, 409 (it retries soon); after, skipped until the next one."""
    node = _with_token(context, waiting, 'wait call-back')
    objects.Node.reserve(context, 'other-host', node.uuid)
    try:
        with pytest.raises(exception.NodeLocked):
            rpc_api.heartbeat(context, node, URL, agent_version='1',
                              agent_token='tok')
    finally:
        objects.Node.release(context, 'other-host', node.uuid)
    node = _stored(context, node)
    node.driver_internal_info = dict(node.driver_internal_info,
                                     agent_url=URL)
    node.save()
    objects.Node.reserve(context, 'other-host', node.uuid)
    try:
        rpc_api.heartbeat(context, node, URL, agent_version='1',
                          agent_token='tok')
    finally:
        objects.Node.release(context, 'other-host', node.uuid)
    node = _stored(context, node)
    assert node.provision_state == 'wait call-back'
    assert 'agent_version' not in node.driver_internal_info


def test_heartbeat_with_a_lost_lock_writes_nothing(context, waiting,
                                                   conductor, monkeypatch):
    """Crash consistency: the node was taken over (its reservation
    replaced) while the heartbeat held it: the fenced write is dropped."""
    node = _with_token(context, waiting, 'wait call-back')
    original = agent._record

    def take_over(node_obj, *args):
        objects.Node.release(context, task_manager.CONF.host, node_obj.uuid)
        objects.Node.reserve(context, 'new-owner', node_obj.uuid)
        original(node_obj, *args)
    monkeypatch.setattr(agent, '_record', take_over)
    conductor.manager.heartbeat(context, node.uuid, URL, agent_version='1',
                                agent_token='tok')
    stored = _stored(context, node)
    assert stored.reservation == 'new-owner'
    assert stored.provision_state == 'wait call-back'
    assert 'agent_url' not in stored.driver_internal_info
    objects.Node.release(context, 'new-owner', node.uuid)


# -- the deploy callback timeout --------------------------------------------

def _age(context, node, seconds):
    node = _stored(context, node)
    node.provision_updated_at = (datetime.datetime.utcnow()
                                 - datetime.timedelta(seconds=seconds))
    node.save()


def test_deploy_callback_timeout_fails_the_deploy(context, config, waiting,
                                                  boot_calls, conductor):
    config.set_override('deploy_callback_timeout', 60, group='conductor')
    _age(context, waiting, 30)
    assert agent.check_deploy_timeouts(context, conductor.manager.host) == []
    _age(context, waiting, 120)
    assert agent.check_deploy_timeouts(
        context, conductor.manager.host) == [waiting.uuid]
    node = _stored(context, waiting)
    assert node.provision_state == 'deploy failed'
    assert node.last_error == (
        'Timeout reached while waiting for callback for node %s'
        % waiting.uuid)
    assert node.power_state == 'power off'
    assert boot_calls[-1] == ('clean_up_ramdisk',)


def test_deploy_callback_timeout_spares_maintenance_and_zero(
        context, config, waiting, conductor):
    _age(context, waiting, 4000)
    config.set_override('deploy_callback_timeout', 0, group='conductor')
    assert agent.check_deploy_timeouts(context, conductor.manager.host) == []
    config.set_override('deploy_callback_timeout', 60, group='conductor')
    node = _stored(context, waiting)
    node.maintenance = True
    node.save()
    assert agent.check_deploy_timeouts(context, conductor.manager.host) == []
    assert _stored(context, waiting).provision_state == 'wait call-back'


def test_the_timeout_is_a_periodic_task(config, conductor):
    config.set_override('check_provision_state_interval', 10,
                        group='conductor')
    names = [f.__name__ for f, _ in conductor.manager._periodic_tasks()]
    assert '_check_deploy_timeouts' in names
    config.set_override('deploy_callback_timeout', 0, group='conductor')
    names = [f.__name__ for f, _ in conductor.manager._periodic_tasks()]
    assert '_check_deploy_timeouts' not in names


# -- the interface, its steps and the pin ----------------------------------

def test_ramdisk_is_generic_and_chosen_by_the_node(make_node):
    node = make_node(deploy_interface='ramdisk')
    driver = factory.get_driver_for(node)
    assert isinstance(driver.deploy, ramdisk.RamdiskDeploy)
    assert [s['step'] for s in base.get_deploy_steps(driver.deploy)] == [
        'deploy']
    assert isinstance(factory.get_driver_for(make_node()).deploy,
                      fake_hardware.FakeDeploy)


def test_ramdisk_params_name_the_api(config):
    config.set_override('api_url', 'http://ironic:6385', group='conductor')
    assert ramdisk.ramdisk_params() == {'ipa-api-url': 'http://ironic:6385'}


def test_a_step_after_the_wait_runs_on_resume(context, rpc_api, make_node,
                                              wait_node, boot_calls):
    node = make_node(provision_state='available', deploy_interface='ramdisk',
                     raid_interface='fake')
    steps = [{'interface': 'raid', 'step': 'create_configuration',
              'args': {}, 'priority': 50}]
    rpc_api.do_node_deploy(context, node, deploy_steps=steps)
    node = wait_node(node.uuid, 'wait call-back')
    assert 'fake_deploy_steps' not in node.driver_internal_info
    node = _with_token(context, node, 'wait call-back')
    rpc_api.heartbeat(context, node, URL, agent_version='1',
                      agent_token='tok')
    node = wait_node(node.uuid, 'active')
    assert [s['step'] for s in node.driver_internal_info[
        'fake_deploy_steps']] == ['create_configuration']


@pytest.mark.parametrize('pin', ['4.0', '3.0'])
def test_pinned_below_1_10_refuses_the_agent_methods(config, conductor,
                                                     context, make_node,
                                                     monkeypatch, pin):
    config.set_override('pin_release_version', pin)
    try:
        pinned = rpcapi.ConductorAPI()
        calls = test_rpcapi_versions._spy(pinned, monkeypatch)
        node = make_node()
        for method, args in (('get_node_with_token', ()),
                             ('heartbeat', (URL, '1', 'tok'))):
            with pytest.raises(exception.PinnedRelease) as err:
                getattr(pinned, method)(context, node, *args)
            assert err.value.code == 409
        assert calls == []
    finally:
        config.clear_override('pin_release_version')
