"""The conditions of inspection rules (API 1.96): each of Ironic's
operators, inversion, loops and ``multiple``, {...} formatting from the
node, inventory and plugin data, and the checks of a rule's arguments."""

import types

import pytest

from ironic_lite.common import exception
from ironic_lite.common import inspection_rule_operators as operators

NODE = types.SimpleNamespace(uuid='node-1', driver='fake-hardware',
                             properties={'cpu_arch': 'x86_64'},
                             driver_info={'bmc_password': 'pw'})
TASK = types.SimpleNamespace(node=NODE)
INVENTORY = {'cpu': {'count': 4, 'architecture': 'x86_64'},
             'bmc_address': '192.0.2.5',
             'interfaces': [{'name': 'eth0', 'ipv4_address': '10.0.0.5'}],
             'system_vendor': {'manufacturer': 'Dell Inc.'},
             'flag': True}


def _check(op, args, loop=None, multiple=None, inventory=INVENTORY,
           plugin_data=None):
    condition = {'op': op, 'args': args}
    if loop is not None:
        condition['loop'] = loop
    if multiple is not None:
        condition['multiple'] = multiple
    return operators.check_conditions(
        TASK, {'uuid': 'r', 'conditions': [condition]}, inventory,
        plugin_data or {})


@pytest.mark.parametrize('op, args, expected', [
    ('eq', {'values': [1, 1, 1]}, True),
    ('eq', {'values': [1, 2]}, False),
    ('eq', {'values': [1]}, True),
    ('eq', {'values': ['{inventory[cpu][count]}', '4']}, True),
    # Formatting makes a string: a number is not equal to it.
    ('eq', {'values': ['{inventory[cpu][count]}', 4]}, False),
    ('lt', {'values': [1, 2, 3]}, True),
    ('lt', {'values': [1, 3, 2]}, False),
    ('gt', {'values': [3, 2]}, True),
    ('is-empty', {'value': ''}, True),
    ('is-empty', {'value': []}, True),
    ('is-empty', {'value': {}}, True),
    ('is-empty', {'value': None}, True),
    ('is-empty', {'value': '{inventory[missing]}'}, True),
    ('is-empty', {'value': '{inventory[bmc_address]}'}, False),
    ('in-net', {'address': '{inventory[bmc_address]}',
                'subnet': '192.0.2.0/24'}, True),
    ('in-net', {'address': '10.1.0.1', 'subnet': '10.0.0.0/16'}, False),
    ('matches', {'value': '{inventory[system_vendor][manufacturer]}',
                 'regex': 'Dell.*'}, True),
    ('matches', {'value': 'Dell Inc.', 'regex': 'Dell'}, False),
    ('contains', {'value': 'Dell Inc.', 'regex': 'Inc'}, True),
    ('contains', {'value': 'HPE', 'regex': 'Inc'}, False),
    ('one-of', {'value': '{node.properties[cpu_arch]}',
                'values': ['aarch64', 'x86_64']}, True),
    ('one-of', {'value': 'ppc64le', 'values': ['x86_64']}, False),
    ('is-none', {'value': None}, True),
    ('is-none', {'value': 0}, False),
    ('is-true', {'value': True}, True),
    ('is-true', {'value': 'Yes'}, True),
    ('is-true', {'value': 1}, True),
    ('is-true', {'value': '{inventory[flag]}'}, True),
    ('is-true', {'value': 'no'}, False),
    ('is-true', {'value': None}, False),
    ('is-false', {'value': False}, True),
    ('is-false', {'value': 'FALSE'}, True),
    ('is-false', {'value': 0}, True),
    ('is-false', {'value': None}, True),
    ('is-false', {'value': 'yes'}, False),
    ('!eq', {'values': [1, 2]}, True),
    ('! is-none', {'value': None}, False),
])
def test_each_operator(op, args, expected):
    assert _check(op, args) is expected


def test_list_args_in_order():
    assert _check('eq', [[2, 2]]) is True
    assert _check('in-net', ['192.0.2.1', '192.0.2.0/30']) is True


def test_errors_of_the_operators():
    with pytest.raises(exception.RuleConditionCheckFailure) as err:
        _check('eq', {'values': 'x'})
    assert "Expected list for 'values', got: str" in str(err.value)
    with pytest.raises(exception.InspectionRuleExecutionFailure) as err:
        _check('in-net', {'address': '10.0.0.1', 'subnet': 'nope/99'})
    assert 'invalid value' in str(err.value)
    with pytest.raises(exception.InspectionRuleExecutionFailure) as err:
        _check('matches', {'value': 'x', 'regex': '('})
    assert 'invalid regular expression' in str(err.value)
    with pytest.raises(ValueError) as err:
        _check('nope', {})
    assert "Unsupported operator: 'nope'" in str(err.value)


@pytest.mark.parametrize('multiple, loop, expected', [
    ('any', [1, 2, 3], True),
    ('all', [2, 2], True),
    ('all', [1, 2], False),
    ('first', [1, 2], True),
    ('first', [1, 3], False),
    ('last', [2, 1], False),
    ('last', [1, 2], True),
    (None, [1, 3], False),
])
def test_loops_and_multiple(multiple, loop, expected):
    # In a loop every argument is formatted: numbers compared as strings.
    assert _check('eq', {'values': ['{item}', 2]}, loop=loop,
                  multiple=multiple) is expected


def test_a_dict_loop_is_one_item():
    assert _check('eq', {'values': ['{item[a]}', '{item[b]}']},
                  loop={'a': 1, 'b': 1}) is True


def test_every_condition_must_hold():
    rule = {'uuid': 'r', 'conditions': [
        {'op': 'eq', 'args': {'values': [1, 1]}},
        {'op': 'eq', 'args': {'values': [1, 2]}}]}
    assert operators.check_conditions(TASK, rule, {}, {}) is False
    assert operators.check_conditions(TASK, {'uuid': 'r'}, {}, {}) is True


@pytest.mark.parametrize('rule, message', [
    ({'actions': [{'op': 'fail', 'args': {}}]},
     'missing required argument(s): msg'),
    ({'actions': [{'op': 'log', 'args': {'msg': 'm', 'x': 1, 'y': 2}}]},
     'unexpected argument(s): x, y'),
    ({'actions': [{'op': 'fail', 'args': {'msg': 'm'}}], 'phase': None},
     'Invalid phase: None. Valid phases are: main'),
    ({'actions': [{'op': 'fail', 'args': {'msg': 'm'}}], 'phase': 'x',
      'priority': 10000},
     'Multiple validation errors occurred: Invalid phase: x. Valid phases '
     'are: main; Priority must be between 0 and 9999 for user-defined '
     'rules.'),
    ({'actions': [{'op': 'fail', 'args': {'msg': 'm'}}],
      'conditions': [{'op': 'matches', 'args': ['x']}]},
     'Not enough arguments provided. Missing: regex'),
])
def test_validation(rule, message):
    with pytest.raises(exception.Invalid) as err:
        operators.validate_rule(rule)
    assert str(err.value) == message
    assert err.value.code == 400


def test_validation_of_built_in_rules_allows_any_priority():
    rule = {'actions': [{'op': 'set-plugin-data',
                         'args': {'path': 'a', 'value': 1}}],
            'priority': 10000}
    operators.validate_rule(rule, built_in=True)
    # The plugin data is the engine's to give: not added to the rule.
    assert rule['actions'][0]['args'] == {'path': 'a', 'value': 1}
