"""The rules a node PATCH checks, as Ironic 39: each field with a rule of
its own checks that rule, ``automated_clean`` set to false checks
``baremetal:node:disable_cleaning``, any other field the generic
``baremetal:node:update`` (the rules themselves are rows of
``policy.POLICIES``).
"""

from oslo_utils import strutils

from ironic_lite.common import interfaces

# Patching a field listed here checks its rule as well as the generic
# baremetal:node:update (as Ironic).
NODE_UPDATE_FIELD_RULES = {
    'extra': 'baremetal:node:update_extra',
    'instance_info': 'baremetal:node:update_instance_info',
    'driver_info': 'baremetal:node:update:driver_info',
    'properties': 'baremetal:node:update:properties',
    'chassis_uuid': 'baremetal:node:update:chassis_uuid',
    'instance_uuid': 'baremetal:node:update:instance_uuid',
    # API 1.104: the instance's name is instance information (Ironic's).
    'instance_name': 'baremetal:node:update_instance_info',
    'lessee': 'baremetal:node:update:lessee',
    'owner': 'baremetal:node:update:owner',
    'driver': 'baremetal:node:update:driver_interfaces',
    'network_data': 'baremetal:node:update:network_data',
    'conductor_group': 'baremetal:node:update:conductor_group',
    'name': 'baremetal:node:update:name',
    'retired': 'baremetal:node:update:retired',
    'retired_reason': 'baremetal:node:update:retired',
    'shard': 'baremetal:node:update:shard',
    'parent_node': 'baremetal:node:update:parent_node',
    'disable_power_off': 'baremetal:node:update:disable_power_off',
}
for _field in interfaces.INTERFACE_FIELDS:
    NODE_UPDATE_FIELD_RULES[_field] = NODE_UPDATE_FIELD_RULES['driver']


def _disables_cleaning(op):
    """Whether a patch operation may set ``automated_clean`` to false.

    As Ironic: a value its bool_from_string reads as false.  A copy or
    move gives it another field's value, unseen here: treated as false
    (Ironic answers 500 there).
    """
    if op['path'].split('/')[1] != 'automated_clean' or op['op'] == 'remove':
        return False
    if op['op'] in ('copy', 'move'):
        return True
    return strutils.bool_from_string(op.get('value'), default=None) is False


def rules(patch):
    """The rules a node PATCH must pass, as Ironic.

    Each field with its own rule checks that rule; setting
    ``automated_clean`` to false checks ``baremetal:node:disable_cleaning``
    (a system admin's, by default); any other field (or a patch with none)
    checks the generic ``baremetal:node:update``.
    """
    found = set()     # (root field, its rule), checked in field order
    generic = not patch
    for op in patch:
        roots = [op['path'].split('/')[1]]
        if 'from' in op and op['op'] == 'move':
            roots.append(str(op['from']).split('/')[1])
        for root in roots:
            rule = NODE_UPDATE_FIELD_RULES.get(root)
            if root == 'automated_clean' and _disables_cleaning(op):
                rule = 'baremetal:node:disable_cleaning'
            if rule is None:
                generic = True
            else:
                found.add((root, rule))
    rules = []
    for _root, rule in sorted(found):
        if rule not in rules:
            rules.append(rule)
    if generic:
        rules.insert(0, 'baremetal:node:update')
    return rules
