"""Inspection rules (API 1.96): what Ironic's rules engine
(``ironic/common/inspection_rules/``) defines, without touching a node.

* the operations' signatures: ``ACTIONS`` (name -> ``Signature``; the
  conductor's ``inspection_rule_actions`` implements them) and the
  conditions' operators (``inspection_rule_operators.OPERATORS``);
* how an operation's ``args`` are read: a dict of named arguments, or a
  list of them in order (deprecated in Ironic, still accepted);
* ``{...}`` formatting of arguments with ``node``, ``inventory``,
  ``plugin_data`` (and ``item`` in a loop);
* the views of the inventory and plugin data whose secrets read as
  ``***`` (``[inspection_rules]mask_secrets``);
* ``validate_rule``: Ironic's checks of a rule beyond its JSON schema.

The conductor applies the rules (``conductor/inspection_rules.py``).
"""

import collections
from collections import abc
import inspect

from oslo_log import log as logging

from ironic_lite.common import exception

LOG = logging.getLogger(__name__)

SENSITIVE_FIELDS = ('password', 'auth_token', 'bmc_password')
MASK = '***'
PHASES = ('main',)
# The highest priority of a rule created through the API (built-in rules
# have no bounds).
MAX_PRIORITY = 9999


class Signature(collections.namedtuple(
        'Signature', 'required optional formatted plugin_data')):
    """The arguments of an operation: required and optional names, those
    ``{...}``-formatted (all of them in a loop), and whether the plugin
    data is passed (Ironic's REQUIRES_PLUGIN_DATA, as the last required
    argument ``plugin_data``)."""


def signature(func, formatted=(), plugin_data=False):
    """The Signature of ``func(task, ...)`` (its first argument is the
    task, or the node for an operator)."""
    params = list(inspect.signature(func).parameters.values())[1:]
    required = tuple(p.name for p in params
                     if p.default is inspect.Parameter.empty)
    optional = tuple(p.name for p in params
                     if p.default is not inspect.Parameter.empty)
    return Signature(required, optional, tuple(formatted), plugin_data)


def _sig(required, optional=(), formatted=(), plugin_data=False):
    return Signature(tuple(required), tuple(optional), tuple(formatted),
                     plugin_data)


# Ironic's actions, in its order, with their arguments.
ACTIONS = collections.OrderedDict([
    ('fail', _sig(['msg'])),
    ('log', _sig(['msg'], ['level'], formatted=['msg'])),
    ('set-attribute', _sig(['path', 'value'], formatted=['value'])),
    ('extend-attribute', _sig(['path', 'value'], ['unique'],
                              formatted=['value'])),
    ('del-attribute', _sig(['path'])),
    ('set-capability', _sig(['name', 'value'], formatted=['value'])),
    ('unset-capability', _sig(['name'])),
    ('add-trait', _sig(['name'])),
    ('remove-trait', _sig(['name'])),
    ('set-plugin-data', _sig(['path', 'value', 'plugin_data'],
                             formatted=['value'], plugin_data=True)),
    ('extend-plugin-data', _sig(['path', 'value', 'plugin_data'],
                                ['unique'], formatted=['value'],
                                plugin_data=True)),
    ('unset-plugin-data', _sig(['path', 'plugin_data'], plugin_data=True)),
    ('set-port-attribute', _sig(['port_id', 'path', 'value'],
                                formatted=['value'])),
    ('extend-port-attribute', _sig(['port_id', 'path', 'value'],
                                   ['unique'], formatted=['value'])),
    ('del-port-attribute', _sig(['port_id', 'path'])),
    ('api-call', _sig(['url'], ['headers', 'proxies', 'timeout', 'retries',
                                'backoff_factor'], formatted=['url'])),
])


def parse_inverted_operator(op):
    """(operator, inverted) of ``op``: ``"!eq"`` is ``("eq", True)``.

    :raises: ValueError for more than one ``!``.
    """
    op = op.strip()
    if op.count('!') > 1:
        raise ValueError(
            'Multiple exclamation marks are not allowed. To apply the '
            'invert of an operation, simply add an exclamation mark (with '
            'an optional space) before the operator, e.g. eq - !eq.')
    return op.lstrip('!').strip(), op.startswith('!')


def normalize_path(path):
    """The parts of a path, slash (``/a/b``) or dot (``a.b``) notation."""
    if '/' in path:
        return path.strip('/').split('/')
    return path.split('.')


def named_args(sig, args, plugin_data=None):
    """The operation's ``args`` as {name: value} (a list's values given
    to the required names, then to the optional ones, in order), with the
    plugin data when the operation takes it.  A copy: the rule is not
    changed.

    :raises: InspectionRuleValidationFailure when a list is too short.
    """
    if isinstance(args, dict):
        result = dict(args)
        if sig.plugin_data:
            result['plugin_data'] = {} if plugin_data is None else plugin_data
        return result
    if not isinstance(args, list):
        return args
    LOG.warning("Specifying inspection rule operation 'args' as a list is "
                "deprecated; use the dictionary (named-argument) form.")
    values = list(args)
    if sig.plugin_data:
        values.append({} if plugin_data is None else plugin_data)
    if len(values) < len(sig.required):
        raise exception.InspectionRuleValidationFailure(
            'Not enough arguments provided. Missing: %s'
            % ', '.join(sig.required[len(values):]))
    result = dict(zip(sig.required, values))
    result.update(zip(sig.optional, values[len(sig.required):]))
    return result


def validate_args(sig, args):
    """Ironic's check of an operation's arguments.

    :raises: InspectionRuleValidationFailure naming the missing and the
        unexpected ones.
    """
    named = named_args(sig, args)
    if not isinstance(named, dict):
        raise exception.InspectionRuleValidationFailure(
            'args must be either a list or dictionary')
    missing = [n for n in sig.required if n not in named]
    unexpected = sorted(set(named) - set(sig.required) - set(sig.optional))
    errors = []
    if missing:
        errors.append('missing required argument(s): %s'
                      % ', '.join(missing))
    if unexpected:
        errors.append('unexpected argument(s): %s' % ', '.join(unexpected))
    if errors:
        raise exception.InspectionRuleValidationFailure('; '.join(errors))


# -- {...} formatting -------------------------------------------------------

def _format(value, context, op):
    if not isinstance(value, str):
        return value
    try:
        return value.format(**context)
    except KeyError:
        if op == 'is-empty':
            # A missing field is empty.
            return None
        LOG.warning('Interpolation failed (missing field): %s', value)
        return value
    except (AttributeError, ValueError, IndexError, TypeError) as exc:
        LOG.warning('Interpolation failed: %s: %s, %s', value,
                    type(exc).__name__, exc)
        return value


def interpolate(value, context, op=None, loop=False):
    """``value`` with its strings formatted with ``context`` (``node``,
    ``inventory``, ``plugin_data``, and ``item`` in a loop), dicts' keys
    included; what cannot be formatted stays as it is (a missing field
    is None for ``is-empty``).  In a loop a string is formatted twice (an
    item may hold ``{...}`` itself), as in Ironic."""
    if loop:
        value = _format(value, context, op)
    if isinstance(value, str):
        return _format(value, context, op)
    if isinstance(value, dict):
        return {_format(k, context, op): interpolate(v, context, op)
                for k, v in value.items()}
    if isinstance(value, list):
        return [_format(v, context, op) if isinstance(v, str)
                else interpolate(v, context, op) for v in value]
    return value


def operation_args(sig, operation, node, inventory, plugin_data,
                   loop_context=None):
    """The arguments an operation is called with: named, the plugin data
    given, the formatted ones formatted (all of them in a loop)."""
    op, _inverted = parse_inverted_operator(operation['op'])
    named = named_args(sig, operation.get('args', {}),
                       plugin_data=plugin_data)
    context = dict({'node': node, 'inventory': inventory,
                    'plugin_data': plugin_data}, **(loop_context or {}))
    loop = bool(loop_context)
    return {k: (interpolate(v, context, op, loop)
                if (k in sig.formatted or loop) and k != 'plugin_data'
                else v)
            for k, v in named.items()}


# -- masked views -----------------------------------------------------------

def _masked(value, enabled):
    if isinstance(value, dict):
        return MaskedDict(value, enabled)
    if isinstance(value, list):
        return MaskedList(value, enabled)
    return value


class MaskedList(abc.MutableSequence):
    """A list read through: its dicts' secrets read as ``***``; writes go
    to the list itself."""

    def __init__(self, data, enabled=True):
        self._data, self._enabled = data, enabled

    def __getitem__(self, index):
        return _masked(self._data[index], self._enabled)

    def __setitem__(self, index, value):
        self._data[index] = value

    def __delitem__(self, index):
        del self._data[index]

    def __len__(self):
        return len(self._data)

    def insert(self, index, value):
        self._data.insert(index, value)

    def __eq__(self, other):
        return list(self) == other

    def __repr__(self):
        return repr(list(self))


class MaskedDict(abc.MutableMapping):
    """A dict read through: the values of SENSITIVE_FIELDS read as
    ``***`` at any depth (when enabled); writes go to the dict itself."""

    def __init__(self, data, enabled=True):
        self._data, self._enabled = data, enabled

    def __getitem__(self, key):
        if self._enabled and key in SENSITIVE_FIELDS:
            return MASK
        return _masked(self._data[key], self._enabled)

    def __setitem__(self, key, value):
        self._data[key] = value

    def __delitem__(self, key):
        del self._data[key]

    def __iter__(self):
        return iter(self._data)

    def __len__(self):
        return len(self._data)

    def __eq__(self, other):
        return dict(self.items()) == other

    def __repr__(self):
        return repr(dict(self.items()))
