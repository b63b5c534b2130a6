"""The operators of inspection rule conditions (API 1.96), as Ironic's
``ironic/common/inspection_rules/operators.py``, and how a rule's
conditions are checked (``check_conditions``).

A condition is ``{"op": "eq", "args": {...}}``, ``"!eq"`` inverting it;
with a ``loop`` (a list, or a dict taken as one item) it is checked once
per ``item`` and ``multiple`` (``any``, the default, ``all``, ``first``,
``last``) says which results count.
"""

import collections
import operator
import re

import netaddr
from oslo_log import log as logging

from ironic_lite.common import exception
from ironic_lite.common import inspection_rules as ir

LOG = logging.getLogger(__name__)


def _comparison(compare, name):
    def check(task, values, force_strings=False):
        if not isinstance(values, list):
            msg = ("Failed to check condition: '%s' on values: %s: Expected "
                   "list for 'values', got: %s"
                   % (name, values, type(values).__name__))
            LOG.error(msg)
            raise exception.RuleConditionCheckFailure(reason=msg)
        if len(values) < 2:
            return True
        if force_strings:
            values = [str(v) for v in values]
        return all(compare(values[i], values[i + 1])
                   for i in range(len(values) - 1))
    return check


def _is_empty(task, value):
    return str(value) in ('', 'None', '[]', '{}')


def _in_net(task, address, subnet):
    try:
        network = netaddr.IPNetwork(subnet)
    except netaddr.AddrFormatError as exc:
        raise exception.InspectionRuleExecutionFailure(
            reason='invalid value: %s' % exc)
    return netaddr.IPAddress(address) in network


def _is_true(task, value):
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return bool(value)
    if isinstance(value, str):
        return value.lower() in ('yes', 'true')
    return False


def _is_false(task, value):
    if isinstance(value, bool):
        return not value
    if isinstance(value, (int, float)):
        return not bool(value)
    if isinstance(value, str):
        return value.lower() in ('no', 'false')
    return value is None


def _is_none(task, value):
    return value is None


def _one_of(task, value, values=()):
    return value in values


def _regex(regex):
    try:
        re.compile(regex)
    except re.error as exc:
        raise exception.InspectionRuleExecutionFailure(
            reason='invalid regular expression: %s' % exc)
    return regex


def _matches(task, value, regex):
    regex = _regex(regex)
    if regex[-1] != '$':
        regex += '$'
    return re.match(regex, str(value)) is not None


def _contains(task, value, regex):
    return re.search(_regex(regex), str(value)) is not None


Operator = collections.namedtuple('Operator', 'check signature')


def _op(check, formatted):
    return Operator(check, ir.signature(check, formatted))


# Ironic's operators, in its order.
OPERATORS = collections.OrderedDict([
    ('eq', _op(_comparison(operator.eq, 'eq'), ['values'])),
    ('lt', _op(_comparison(operator.lt, 'lt'), ['values'])),
    ('gt', _op(_comparison(operator.gt, 'gt'), ['values'])),
    ('is-empty', _op(_is_empty, ['value'])),
    ('in-net', _op(_in_net, ['address', 'subnet'])),
    ('matches', _op(_matches, ['value'])),
    ('contains', _op(_contains, ['value'])),
    ('one-of', _op(_one_of, ['value'])),
    ('is-none', _op(_is_none, ['value'])),
    ('is-true', _op(_is_true, ['value'])),
    ('is-false', _op(_is_false, ['value'])),
])


def get_operator(name):
    if name not in OPERATORS:
        raise exception.Invalid("Unsupported operator '%s'." % name)
    return OPERATORS[name]


def check_condition(task, condition, inventory, plugin_data,
                    loop_context=None):
    """Whether one condition holds (once, for one loop item if given)."""
    name, inverted = ir.parse_inverted_operator(condition['op'])
    op = get_operator(name)
    args = ir.operation_args(op.signature, condition, task.node, inventory,
                             plugin_data, loop_context)
    if loop_context and 'force_strings' in op.signature.optional:
        # Formatting made the numbers strings: compare strings.
        args['force_strings'] = True
    result = op.check(task, **args)
    return not result if inverted else result


def check_with_loop(task, condition, inventory, plugin_data):
    """A condition with a ``loop``, checked per item as ``multiple``
    says."""
    items = condition['loop']
    multiple = condition.get('multiple', 'any')
    if isinstance(items, dict):
        return check_condition(task, condition, inventory, plugin_data,
                               {'item': items})
    results = []
    for item in items:
        result = check_condition(task, condition, inventory, plugin_data,
                                 {'item': item})
        if multiple == 'first' and result:
            return True
        results = [result] if multiple == 'last' else results + [result]
    if multiple == 'any':
        return any(results)
    if multiple == 'all':
        return all(results)
    return results[0] if results else False


def check_conditions(task, rule, inventory, plugin_data):
    """Whether every condition of ``rule`` holds (no condition: True)."""
    for condition in rule.get('conditions') or ():
        name, _inverted = ir.parse_inverted_operator(condition['op'])
        if name not in OPERATORS:
            raise ValueError(
                "Unsupported operator: '%s'. Supported operators are: %s."
                % (name, ', '.join(OPERATORS)))
        if condition.get('loop'):
            result = check_with_loop(task, condition, inventory,
                                     plugin_data)
        else:
            result = check_condition(task, condition, inventory,
                                     plugin_data)
        if not result:
            LOG.debug("Skipping rule %s on node %s: condition check "
                      "'%s': '%s' failed", rule['uuid'], task.node.uuid,
                      condition['op'], condition.get('args'))
            return False
    return True


def validate_rule(rule, built_in=False):
    """Ironic's checks of a rule beyond its JSON schema: the phase, the
    priority of a user's rule, each operation's arguments.

    :raises: Invalid (400) with Ironic's message.
    """
    errors = []
    phase = rule.get('phase', 'main')
    if phase not in ir.PHASES:
        errors.append('Invalid phase: %s. Valid phases are: %s'
                      % (phase, ', '.join(ir.PHASES)))
    priority = rule.get('priority', 0)
    if not built_in and priority < 0:
        errors.append('Priority cannot be negative for user-defined rules.')
    if not built_in and priority > ir.MAX_PRIORITY:
        errors.append('Priority must be between 0 and 9999 for '
                      'user-defined rules.')
    for condition in rule.get('conditions') or ():
        name, _inverted = ir.parse_inverted_operator(condition['op'])
        ir.validate_args(get_operator(name).signature,
                         condition.get('args', {}))
    for action in rule['actions']:
        if action['op'] not in ir.ACTIONS:
            raise exception.Invalid("Unsupported action '%s'." % action['op'])
        ir.validate_args(ir.ACTIONS[action['op']], action.get('args', {}))
    if len(errors) == 1:
        raise exception.Invalid(errors[0])
    if errors:
        raise exception.Invalid('Multiple validation errors occurred: %s'
                                % '; '.join(errors))


# -- a rule's JSON schema (Ironic's create_request_body) ---------------------

def _operation(ops, extra):
    properties = {'op': {'enum': ops},
                  'args': {'type': ['array', 'object']},
                  'loop': {'type': ['array', 'object']}}
    properties.update(extra)
    return {'type': 'object', 'required': ['op', 'args'],
            'properties': properties, 'additionalProperties': True}


RULE_SCHEMA = {
    'type': 'object',
    'properties': {
        'actions': {'type': 'array', 'minItems': 1,
                    'items': _operation(list(ir.ACTIONS), {})},
        'conditions': {
            'type': 'array', 'minItems': 0,
            'items': _operation(
                list(OPERATORS) + ['!%s' % op for op in OPERATORS],
                {'multiple': {'enum': ['any', 'all', 'first', 'last']}})},
        'description': {'type': ['string', 'null'], 'maxLength': 255},
        'phase': {'type': ['string', 'null'], 'maxLength': 16},
        'priority': {'type': 'integer', 'minimum': 0},
        'sensitive': {'type': ['boolean', 'null']},
        'uuid': {'type': ['string', 'null']},
    },
    'required': ['actions'],
    'additionalProperties': False,
}
