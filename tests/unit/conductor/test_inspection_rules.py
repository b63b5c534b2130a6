"""The inspection rules engine (API 1.96) in the conductor: each action
on a locked node, the order and masking of the rules, the built-in rules
file, and the rules applied by an in-band (agent) and an out-of-band
inspection."""

import json

import pytest

from ironic_lite.common import exception
from ironic_lite.common import inspection_rules as ir
from ironic_lite.common import states
from ironic_lite.conductor import inspection_rule_actions as actions
from ironic_lite.conductor import inspection_rules
from ironic_lite.conductor import task_manager
from ironic_lite.drivers import fake_hardware
from ironic_lite import objects
from tests.unit.conductor import test_inspection

INVENTORY = {'cpu': {'count': 4, 'architecture': 'x86_64'},
             'memory': {'physical_mb': 2048},
             'bmc_address': '192.0.2.5', 'bmc_password': 'secret'}


def _rule(context, actions_, conditions=None, **fields):
    rule = objects.InspectionRule(
        context, uuid=fields.pop('uuid', None) or __import__(
            'uuid').uuid4().__str__(), actions=actions_,
        conditions=conditions or [], **fields)
    rule.create()
    return rule


def _apply(context, node, inventory=INVENTORY, plugin_data=None):
    plugin_data = {} if plugin_data is None else plugin_data
    with task_manager.acquire(context, node.uuid, purpose='test') as task:
        inspection_rules.apply_rules(task, inventory, plugin_data)
    return objects.Node.get_by_uuid(context, node.uuid), plugin_data


def test_the_functions_take_the_declared_arguments():
    assert set(actions.FUNCTIONS) == set(ir.ACTIONS)
    for name, func in actions.FUNCTIONS.items():
        assert ir.signature(func)[:2] == ir.ACTIONS[name][:2], name


def test_node_actions(context, conductor, make_node):
    node = make_node(properties={'capabilities': 'boot_mode:uefi'},
                     extra={'drop': 1, 'keep': 2})
    _rule(context, [
        {'op': 'set-attribute', 'args': {
            'path': '/properties/cpus', 'value': '{inventory[cpu][count]}'}},
        {'op': 'set-attribute', 'args': {'path': 'driver_info.bmc',
                                         'value': '{inventory[bmc_address]}'}},
        {'op': 'extend-attribute', 'args': {'path': '/extra/tags',
                                            'value': 'a', 'unique': True}},
        {'op': 'extend-attribute', 'args': {'path': '/extra/tags',
                                            'value': 'a', 'unique': True}},
        {'op': 'del-attribute', 'args': {'path': '/extra/drop'}},
        {'op': 'set-capability', 'args': {'name': 'arch',
                                          'value': '{node.driver}'}},
        {'op': 'unset-capability', 'args': {'name': 'boot_mode'}},
        {'op': 'add-trait', 'args': {'name': 'CUSTOM_{item}'},
         'loop': ['A', 'B']},
        {'op': 'remove-trait', 'args': {'name': 'CUSTOM_A'}},
        {'op': 'remove-trait', 'args': {'name': 'CUSTOM_NEVER'}},
        {'op': 'log', 'args': {'msg': 'node {node.uuid}',
                               'level': 'warning'}},
    ])
    node, _plugin_data = _apply(context, node)
    assert node.properties == {'cpus': '4',
                               'capabilities': 'arch:fake-hardware'}
    assert node.driver_info['bmc'] == '192.0.2.5'
    assert node.extra == {'keep': 2, 'tags': ['a']}
    assert node.traits.get_trait_names() == ['CUSTOM_B']


def test_plugin_data_actions(context, conductor, make_node):
    node = make_node()
    _rule(context, [
        {'op': 'set-plugin-data', 'args': {'path': 'a.b', 'value': 1}},
        {'op': 'extend-plugin-data', 'args': ['list', 'x']},
        {'op': 'extend-plugin-data', 'args': {'path': 'list', 'value': 'x',
                                              'unique': True}},
        {'op': 'unset-plugin-data', 'args': {'path': 'gone.k'}},
        {'op': 'unset-plugin-data', 'args': {'path': 'missing'}},
    ])
    plugin_data = {'gone': {'k': 1}, 'stay': 2}
    _node, plugin_data = _apply(context, node, plugin_data=plugin_data)
    assert plugin_data == {'a': {'b': 1}, 'list': ['x'], 'stay': 2}
    # Plain data, as stored (no view of the masked data left in it).
    assert json.loads(json.dumps(plugin_data)) == plugin_data


def test_port_actions(context, conductor, make_node):
    node = make_node()
    port = objects.Port(context, node_id=node.id, address='52:54:00:00:00:01',
                        extra={'old': 1})
    port.create()
    rule = _rule(context, [
        {'op': 'set-port-attribute', 'args': {
            'port_id': port.uuid, 'path': '/extra/switch', 'value': 'sw1'}},
        {'op': 'extend-port-attribute', 'args': {
            'port_id': port.uuid, 'path': 'extra.vlans', 'value': 10}},
        {'op': 'del-port-attribute', 'args': {
            'port_id': port.uuid, 'path': '/extra/old'}},
        {'op': 'set-port-attribute', 'args': {
            'port_id': port.uuid, 'path': 'pxe_enabled', 'value': False}},
    ])
    _apply(context, node)
    port = objects.Port.get_by_uuid(context, port.uuid)
    assert port.extra == {'switch': 'sw1', 'vlans': [10]}
    assert port.pxe_enabled is False
    rule.destroy()
    _rule(context, [{'op': 'set-port-attribute', 'args': {
        'port_id': 'no-such-port', 'path': '/extra/a', 'value': 1}}])
    with pytest.raises(exception.PortNotFound):
        _apply(context, node)


def test_conditions_priority_and_masking(context, conductor, make_node,
                                         config):
    node = make_node()
    # Highest priority first: the later write wins.
    _rule(context, [{'op': 'set-attribute', 'args': {
        'path': '/extra/who', 'value': 'low'}}], priority=1)
    _rule(context, [{'op': 'set-attribute', 'args': {
        'path': '/extra/who', 'value': 'high'}}], priority=50)
    _rule(context, [{'op': 'set-attribute', 'args': {
        'path': '/extra/never', 'value': 1}}], conditions=[
        {'op': 'gt', 'args': {'values': [1, 2]}}], priority=99)
    _rule(context, [{'op': 'set-attribute', 'args': {
        'path': '/extra/pw', 'value': '{inventory[bmc_password]}'}}],
        sensitive=True)
    node, _ = _apply(context, node)
    assert node.extra == {'who': 'low', 'pw': '***'}
    config.set_override('mask_secrets', 'sensitive',
                        group='inspection_rules')
    node, _ = _apply(context, node)
    assert node.extra['pw'] == 'secret'


def test_fail_and_action_errors(context, conductor, make_node):
    node = make_node()
    rule = _rule(context, [{'op': 'fail', 'args': {'msg': 'no {node.uuid}'}}])
    with pytest.raises(exception.HardwareInspectionFailure) as err:
        _apply(context, node)
    assert str(err.value) == 'Failed to inspect hardware. Reason: no ' \
        '{node.uuid}'
    rule.destroy()
    _rule(context, [{'op': 'extend-attribute', 'args': {
        'path': '/extra/x', 'value': 1}}])
    node.extra = {'x': 'not a list'}
    node.save()
    with pytest.raises(exception.RuleActionExecutionFailure) as err:
        _apply(context, node)
    assert 'Cannot extend non-list attribute /extra/x' in str(err.value)


def test_api_call(context, conductor, make_node, monkeypatch):
    calls = []

    class Response(object):
        def raise_for_status(self):
            calls.append('checked')

    def get(session, url, timeout=None, **kwargs):
        calls.append((url, timeout, kwargs))
        return Response()
    monkeypatch.setattr(actions.requests.Session, 'get', get)
    node = make_node()
    _rule(context, [{'op': 'api-call', 'args': {
        'url': 'http://hook.example/{node.uuid}', 'timeout': '2',
        'headers': {'X': 'y'}}}])
    _apply(context, node)
    assert calls == [('http://hook.example/%s' % node.uuid, 2.0,
                      {'headers': {'X': 'y'}}), 'checked']


def test_built_in_rules(context, conductor, make_node, config, tmp_path):
    path = tmp_path / 'rules.yaml'
    path.write_text(
        '- description: built in\n'
        '  priority: 20000\n'
        '  actions:\n'
        '  - op: add-trait\n'
        '    args: {name: CUSTOM_BUILT_IN}\n')
    config.set_override('built_in_rules', str(path),
                        group='inspection_rules')
    rules = inspection_rules.get_built_in_rules(str(path))
    assert rules[0]['uuid'] == '00000000-0000-0000-0000-000000000000'
    node, _ = _apply(context, make_node())
    assert node.traits.get_trait_names() == ['CUSTOM_BUILT_IN']
    path.write_text('{}')
    with pytest.raises(exception.IronicException) as err:
        _apply(context, node)
    assert 'should contain a list of rules' in str(err.value)
    path.write_text('- actions: [{op: fail, args: {}}]\n')
    with pytest.raises(exception.Invalid):
        inspection_rules.get_built_in_rules(str(path))


# -- applied by the inspections ---------------------------------------------

def test_agent_inspection_applies_the_rules(context, rpc_api, make_node,
                                            wait_node):
    _rule(context, [
        {'op': 'set-attribute', 'args': {
            'path': '/properties/memory_mb',
            'value': '{inventory[cpu][architecture]}'}},
        {'op': 'set-plugin-data', 'args': {'path': 'by_rule', 'value': 1}},
    ], conditions=[{'op': 'is-true', 'args': {'value': True}}])
    node = test_inspection._agent_inspecting(context, rpc_api, make_node,
                                             wait_node)
    rpc_api.continue_inspection(context, node, test_inspection.INVENTORY)
    node = wait_node(node.uuid, 'manageable')
    assert node.properties['memory_mb'] == 'x86_64'
    stored = objects.NodeInventory.get_by_node_id(context, node.id)
    assert stored.plugin_data['by_rule'] == 1


def test_a_failing_rule_fails_the_agent_inspection(
        context, rpc_api, make_node, wait_node):
    _rule(context, [{'op': 'fail', 'args': {'msg': 'unwanted'}}])
    node = test_inspection._agent_inspecting(context, rpc_api, make_node,
                                             wait_node)
    rpc_api.continue_inspection(context, node, test_inspection.INVENTORY)
    node = wait_node(node.uuid, 'inspect failed')
    assert node.last_error == ('Failed to finish inspection: Failed to '
                               'inspect hardware. Reason: unwanted')


def test_out_of_band_inspection_applies_the_rules(
        context, rpc_api, make_node, wait_node, monkeypatch):
    def inspect_hardware(self, task):
        task.inspection_data = {'inventory': INVENTORY, 'plugin_data': {},
                                'macs': ['52:54:00:00:00:09']}
        return states.MANAGEABLE
    monkeypatch.setattr(fake_hardware.FakeInspect, 'inspect_hardware',
                        inspect_hardware)
    node = make_node(provision_state='manageable', power_state='power off')
    _rule(context, [{'op': 'set-attribute', 'args': {
        'path': '/extra/memory', 'value': '{inventory[memory][physical_mb]}'}},
    ], conditions=[{'op': 'eq', 'args': {
        'values': ['{inventory[cpu][count]}', '4']}}])
    rpc_api.do_provisioning_action(context, node, 'inspect')
    node = wait_node(node.uuid, 'manageable')
    assert node.extra == {'memory': '2048'}
    # After the data and the ports were stored (Ironic's redfish order).
    assert [p.address for p in objects.Port.list_by_node_id(
        context, node.id)] == ['52:54:00:00:00:09']


def test_a_failing_rule_fails_the_out_of_band_inspection(
        context, rpc_api, make_node, wait_node, monkeypatch):
    def inspect_hardware(self, task):
        task.inspection_data = {'inventory': INVENTORY, 'plugin_data': {}}
        return states.MANAGEABLE
    monkeypatch.setattr(fake_hardware.FakeInspect, 'inspect_hardware',
                        inspect_hardware)
    node = make_node(provision_state='manageable', power_state='power off')
    _rule(context, [{'op': 'fail', 'args': {'msg': 'too small'}}])
    rpc_api.do_provisioning_action(context, node, 'inspect')
    node = wait_node(node.uuid, 'inspect failed')
    assert 'too small' in node.last_error
