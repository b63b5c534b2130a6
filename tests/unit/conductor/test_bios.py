"""BIOS settings cached by the conductor (release 5.0): after the bios
steps of a manual cleaning or a deploy, and when a node is verified."""

import logging

import pytest

from ironic_lite.conductor import bios
from ironic_lite.conductor import task_manager
from ironic_lite.drivers import fake_hardware
from ironic_lite import objects


def _settings(context, node):
    return {s.name: s for s in
            objects.BIOSSettingList.get_by_node_id(context, node.id)}


@pytest.fixture
def manageable(make_node):
    return make_node(provision_state='manageable', bios_interface='fake')


def test_manage_caches_the_default_settings(rpc_api, context, make_node,
                                            wait_node):
    node = make_node(bios_interface='fake')
    rpc_api.do_provisioning_action(context, node, 'manage')
    wait_node(node.uuid, 'manageable', target_provision_state=None)
    stored = _settings(context, node)
    assert set(stored) == {s['name'] for s in
                           fake_hardware.DEFAULT_BIOS_SETTINGS}
    assert stored['ProcTurboMode'].allowable_values == ['Enabled',
                                                        'Disabled']
    assert stored['ProcTurboMode'].reset_required is True
    assert stored['SystemSerialNumber'].max_length == 32


def test_manage_without_bios_interface_caches_nothing(rpc_api, context,
                                                      make_node, wait_node):
    node = make_node(bios_interface='no-bios')
    rpc_api.do_provisioning_action(context, node, 'manage')
    wait_node(node.uuid, 'manageable', target_provision_state=None)
    assert _settings(context, node) == {}


def test_no_bios_is_one_warning_not_an_error(context, make_node, caplog):
    # As Ironic: the bios interface is optional; its absence is a line.
    node = make_node(bios_interface='no-bios')
    caplog.set_level(logging.DEBUG, 'ironic_lite.conductor.bios')
    with task_manager.acquire(context, node.id) as task:
        bios.cache_bios_settings_quietly(task)
    records = [r for r in caplog.records
               if r.name == 'ironic_lite.conductor.bios'
               and r.levelno >= logging.WARNING]
    assert [(r.levelno, r.exc_info) for r in records] == [
        (logging.WARNING, None)]
    assert node.uuid in records[0].getMessage()


def test_clean_apply_then_factory_reset(rpc_api, context, manageable,
                                        wait_node):
    apply = {'interface': 'bios', 'step': 'apply_configuration',
             'args': {'settings': [{'name': 'ProcTurboMode',
                                    'value': 'Disabled'},
                                   {'name': 'NewOne', 'value': 7}]}}
    rpc_api.do_node_clean(context, manageable, [apply])
    wait_node(manageable.uuid, 'manageable', target_provision_state=None)
    stored = _settings(context, manageable)
    assert stored['ProcTurboMode'].value == 'Disabled'
    # The registry data of a setting stays; a new name has none.
    assert stored['ProcTurboMode'].attribute_type == 'Enumeration'
    assert stored['NewOne'].value == '7'
    assert stored['NewOne'].attribute_type is None
    assert 'BootMode' in stored
    rpc_api.do_node_clean(context, manageable,
                          [{'interface': 'bios', 'step': 'factory_reset'}])
    wait_node(manageable.uuid, 'manageable', target_provision_state=None)
    # As Ironic's fake (and Tempest's check): no settings after a reset.
    assert _settings(context, manageable) == {}


def test_a_failed_step_caches_nothing(rpc_api, context, manageable,
                                      wait_node):
    bad = {'interface': 'bios', 'step': 'apply_configuration',
           'args': {'settings': 'bad'}}
    rpc_api.do_node_clean(context, manageable, [bad])
    wait_node(manageable.uuid, 'clean failed')
    assert _settings(context, manageable) == {}


def test_sync_updates_and_deletes_in_one_call(context, manageable):
    first = [{'name': 'A', 'value': '1'}, {'name': 'B', 'value': '2'}]
    assert objects.BIOSSettingList.sync(context, manageable.id, first) == (
        ['A', 'B'], [], [])
    second = [{'name': 'A', 'value': '1'}, {'name': 'B', 'value': '3'},
              {'name': 'C', 'value': None}]
    assert objects.BIOSSettingList.sync(context, manageable.id, second) == (
        ['C'], ['B'], [])
    assert objects.BIOSSettingList.sync(
        context, manageable.id, second[1:]) == ([], [], ['A'])
    assert sorted(_settings(context, manageable)) == ['B', 'C']


def test_nothing_is_written_while_pinned_to_4_0(config, context,
                                                manageable):
    config.set_override('pin_release_version', '4.0')
    assert objects.BIOSSettingList.sync(
        context, manageable.id, [{'name': 'A', 'value': '1'}]) == (
            [], [], [])
    assert _settings(context, manageable) == {}


def test_a_setting_without_a_name_is_refused(context, manageable,
                                             monkeypatch):
    monkeypatch.setattr(fake_hardware.FakeBIOS, 'get_bios_settings',
                        lambda self, task: [{'value': 'x'}])
    with task_manager.acquire(context, manageable.id) as task:
        with pytest.raises(Exception, match='without a name'):
            bios.cache_bios_settings(task)
        bios.cache_bios_settings_quietly(task)   # logged, not raised
    assert _settings(context, manageable) == {}


def test_a_deploy_step_caches_the_settings(context, rpc_api, make_node,
                                           wait_node):
    node = make_node(provision_state='available', bios_interface='fake')
    rpc_api.do_node_deploy(context, node, deploy_steps=[
        {'interface': 'bios', 'step': 'apply_configuration',
         'args': {'settings': [{'name': 'BootMode', 'value': 'Bios'}]},
         'priority': 150}])
    wait_node(node.uuid, 'active', target_provision_state=None)
    assert _settings(context, node)['BootMode'].value == 'Bios'
