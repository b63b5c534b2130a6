"""The inspection rules engine (API 1.96), as Ironic's ``apply_rules``:
run on every inspection, once its data is known (``conductor/
inspection.py``: after the agent's data is processed, or after an
out-of-band inspection stored what it found).

The rules of the phase (``main``, the only one) from the database and
those of ``[inspection_rules]built_in_rules`` (a YAML list; a rule
without a UUID gets a synthetic one), by priority, highest first; for
each rule whose conditions hold, its actions in order.  The inventory
and plugin data a rule sees have their secrets masked as
``[inspection_rules]mask_secrets`` says (``always``; ``sensitive``: but
for sensitive rules; ``never``).  An error fails the inspection.
"""

import jsonschema
from oslo_log import log as logging
import yaml

from ironic_lite.common import exception
from ironic_lite.common import inspection_rule_operators as operators
from ironic_lite.common import inspection_rules as ir
from ironic_lite import conf
from ironic_lite.conductor import inspection_rule_actions as actions
from ironic_lite import objects

CONF = conf.CONF
LOG = logging.getLogger(__name__)


def _synthetic_uuid(index):
    return '00000000-0000-0000-0000-%012x' % index


def _built_in_rule(data, index):
    rule = {'uuid': data.get('uuid') or _synthetic_uuid(index),
            'priority': data.get('priority', 0),
            'description': data.get('description'),
            'sensitive': data.get('sensitive', False),
            'phase': data.get('phase', 'main'),
            'actions': data.get('actions', []),
            'conditions': data.get('conditions', [])}
    try:
        jsonschema.validate(rule, operators.RULE_SCHEMA)
    except jsonschema.ValidationError as exc:
        raise exception.Invalid('Validation failed for inspection rule: %s'
                                % exc.message)
    operators.validate_rule(rule, built_in=True)
    return rule


def get_built_in_rules(path):
    """The rules of the YAML file ``path`` (none without one).

    :raises: IronicException for a file that is not a list of valid
        rules (an inspection then fails, as in Ironic).
    """
    if not path:
        return []
    try:
        with open(path) as f:
            data = yaml.safe_load(f)
    except (OSError, yaml.YAMLError) as exc:
        LOG.error('Error loading built-in rules from %s: %s', path, exc)
        raise exception.IronicException(
            'Built-in inspection rules could not be loaded: %s' % exc)
    if not isinstance(data, list):
        msg = 'Built-in rules file (%s) should contain a list of rules' % path
        LOG.error(msg)
        raise exception.IronicException(msg)
    rules, synthetic = [], 0
    for item in data:
        if not isinstance(item, dict):
            raise exception.IronicException(
                'Built-in rules file (%s): each rule is a mapping' % path)
        rules.append(_built_in_rule(item, synthetic))
        if not item.get('uuid'):
            synthetic += 1
    return rules


def _masked(rule, inventory, plugin_data):
    mode = CONF.inspection_rules.mask_secrets
    enabled = (mode == 'always'
               or (mode == 'sensitive' and not rule.get('sensitive')))
    return (ir.MaskedDict(inventory, enabled),
            ir.MaskedDict(plugin_data, enabled))


def _apply_actions(task, rule, inventory, plugin_data):
    for action in rule['actions']:
        name = action['op']
        if name not in actions.FUNCTIONS:
            raise ValueError("Unsupported action: '%s'. Supported actions "
                             "are: %s." % (name, ', '.join(ir.ACTIONS)))
        sig, func = ir.ACTIONS[name], actions.FUNCTIONS[name]
        loop = action.get('loop')
        items = ([loop] if isinstance(loop, dict)
                 else list(loop) if loop else [None])
        for item in items:
            args = ir.operation_args(
                sig, action, task.node, inventory, plugin_data,
                {'item': item} if loop else None)
            func(task, **args)


def rules_for(context, phase):
    """The rules of ``phase``, highest priority first (the database's in
    creation order, then the built-in ones, at equal priority)."""
    rules = [r.as_rule() for r in objects.InspectionRule.list(
        context, filters={'phase': phase})]
    rules += get_built_in_rules(CONF.inspection_rules.built_in_rules)
    return sorted(rules, key=lambda r: r.get('priority', 0), reverse=True)


def apply_rules(task, inventory, plugin_data, phase='main'):
    """Apply the rules to the node of ``task`` (locked), with what its
    inspection found; ``plugin_data`` is changed in place."""
    node = task.node
    rules = rules_for(task.context, phase)
    if not rules:
        LOG.debug('No inspection rules to apply for phase %s on node %s',
                  phase, node.uuid)
        return
    for rule in rules:
        masked_inventory, masked_plugin_data = _masked(rule, inventory,
                                                       plugin_data)
        try:
            if not operators.check_conditions(task, rule, masked_inventory,
                                              masked_plugin_data):
                continue
            LOG.info('Applying actions for rule %s to node %s',
                     rule['uuid'], node.uuid)
            _apply_actions(task, rule, masked_inventory, masked_plugin_data)
        except exception.IronicException as exc:
            LOG.error('Error applying rule %s to node %s: %s', rule['uuid'],
                      node.uuid, exc)
            raise
        except Exception as exc:
            LOG.exception('Failed to apply rule %s to node %s', rule['uuid'],
                          node.uuid)
            raise exception.IronicException(
                'Failed to apply rule %s to node %s: %s'
                % (rule['uuid'], node.uuid, exc))
    LOG.info('Finished applying inspection rules to node %s', node.uuid)
