"""A node that may never be powered off (disable_power_off, API 1.95):
the conductor refuses to power it off, the power sync leaves it as it is,
and the flows reboot it instead; the hardware's health (API 1.109) read
by the power sync, with its history event."""

import pytest

from ironic_lite.common import exception
from ironic_lite.conductor import power
from ironic_lite.conductor import task_manager
from ironic_lite.drivers import fake_hardware
from ironic_lite.drivers import ramdisk
from ironic_lite import objects
from tests.unit.conductor.conftest import HOST


@pytest.fixture
def power_calls(monkeypatch):
    """What FakePower was asked, in order: ('set', state) and
    ('reboot',)."""
    calls = []
    original = fake_hardware.FakePower.set_power_state

    def set_state(self, task, state, timeout=None):
        calls.append(('set', state))
        original(self, task, state, timeout=timeout)

    def reboot(self, task, timeout=None):
        calls.append(('reboot',))
        task.node.power_state = 'power on'
    monkeypatch.setattr(fake_hardware.FakePower, 'set_power_state',
                        set_state)
    monkeypatch.setattr(fake_hardware.FakePower, 'reboot', reboot)
    return calls


@pytest.mark.parametrize('target', ['power off', 'soft power off'])
def test_power_off_refused_by_the_conductor(context, rpc_api, make_node,
                                            wait_node, power_calls, target):
    node = make_node(provision_state='manageable', power_state='power on',
                     disable_power_off=True)
    rpc_api.change_node_power_state(context, node, target)
    node = wait_node(node.uuid, target_power_state=None)
    assert node.power_state == 'power on'
    assert node.last_error == (
        "Failed to change power state to 'power off' by '%s'. Error: "
        "Failed to set node power state to %s." % (target, target))
    assert power_calls == []


def test_reboot_allowed(context, rpc_api, make_node, wait_node,
                        power_calls):
    node = make_node(provision_state='manageable', power_state='power on',
                     disable_power_off=True)
    rpc_api.change_node_power_state(context, node, 'rebooting')
    node = wait_node(node.uuid, target_power_state=None)
    assert (node.power_state, node.last_error) == ('power on', None)
    assert power_calls == [('reboot',)]


def test_sync_records_instead_of_forcing(context, conductor, make_node,
                                         monkeypatch, power_calls):
    node = make_node(provision_state='active', power_state='power on',
                     disable_power_off=True)
    monkeypatch.setattr(fake_hardware.FakePower, 'get_power_state',
                        lambda self, task: 'power off')
    power.sync_power_states(context, HOST)
    assert objects.Node.get(context, node.uuid).power_state == 'power off'
    assert power_calls == []


def test_ramdisk_deploy_and_tear_down_reboot_instead(context, make_node,
                                                     power_calls):
    node = make_node(provision_state='deploying', power_state='power on',
                     disable_power_off=True)
    deploy = ramdisk.RamdiskDeploy()
    with task_manager.acquire(context, node.id) as task:
        assert deploy.deploy(task) == 'wait call-back'
        deploy.tear_down(task)
    assert power_calls == [('reboot',), ('reboot',)]
    plain = make_node(provision_state='deploying', power_state='power on')
    power_calls.clear()
    with task_manager.acquire(context, plain.id) as task:
        deploy.deploy(task)
        deploy.tear_down(task)
    assert power_calls == [('set', 'power off'), ('set', 'power on'),
                           ('set', 'power off')]


def _health(monkeypatch, value):
    def read(self, task):
        if isinstance(value, Exception):
            raise value
        return value
    monkeypatch.setattr(fake_hardware.FakeManagement, 'get_node_health',
                        read, raising=False)


def test_sync_stores_the_health_and_records_its_change(
        context, conductor, make_node, monkeypatch):
    node = make_node(provision_state='manageable', power_state='power off')
    _health(monkeypatch, 'Warning')
    power.sync_power_states(context, HOST)
    assert objects.Node.get(context, node.uuid).health == 'Warning'
    events = objects.NodeHistory.list_by_node_id(context, node.id)
    assert [(e.severity, e.event_type, e.event) for e in events] == [
        ('INFO', 'monitoring',
         "Node health status changed: health='Warning' (previously "
         "'None')")]
    # The same health again: nothing written.
    power.sync_power_states(context, HOST)
    assert len(objects.NodeHistory.list_by_node_id(context, node.id)) == 1
    _health(monkeypatch, None)
    power.sync_power_states(context, HOST)
    assert objects.Node.get(context, node.uuid).health is None


@pytest.mark.parametrize('value', [
    'Bogus', exception.IronicException('BMC down'),
    exception.UnsupportedDriverExtension(driver='fake-hardware',
                                         extension='get_node_health')])
def test_unknown_health_changes_nothing(context, conductor, make_node,
                                        monkeypatch, value):
    node = make_node(provision_state='manageable', power_state='power off')
    stored = objects.Node.get(context, node.uuid)
    stored.health = 'OK'
    stored.save()
    _health(monkeypatch, value)
    power.sync_power_states(context, HOST)
    assert objects.Node.get(context, node.uuid).health == 'OK'


def test_health_monitoring_can_be_turned_off(context, conductor, make_node,
                                             monkeypatch, config):
    config.set_override('enable_health_monitoring', False, 'conductor')
    node = make_node(provision_state='manageable', power_state='power off')
    _health(monkeypatch, 'Critical')
    power.sync_power_states(context, HOST)
    assert objects.Node.get(context, node.uuid).health is None


def test_fake_hardware_has_no_health(context, make_node):
    node = make_node(provision_state='manageable')
    with task_manager.acquire(context, node.id) as task:
        power.node_cache_health(task)
    assert objects.Node.get(context, node.uuid).health is None
