"""API access rules (oslo.policy), named and defaulted like Ironic's.

``list_policies`` and ``get_oslo_policy_enforcer`` are the oslo.policy
entry points (setup.cfg).  ``authorize`` raises HTTPForbidden (403) on a
refusal.  With ``[DEFAULT]auth_strategy = noauth`` every request is the
(unauthenticated) operator, and nothing is checked.
"""

import itertools

from oslo_policy import policy

from ironic_lite.common import exception
from ironic_lite import conf

CONF = conf.CONF
_ENFORCER = None

# -- building blocks (Ironic's) -------------------------------------------
SYSTEM_ADMIN = 'role:admin and system_scope:all'
SYSTEM_MEMBER = 'role:member and system_scope:all'
SYSTEM_READER = 'role:reader and system_scope:all'
PROJECT_MEMBER = ('role:member and (project_id:%(node.owner)s or '
                  'project_id:%(node.lessee)s)')
PROJECT_READER = ('role:reader and (project_id:%(node.owner)s or '
                  'project_id:%(node.lessee)s)')
SYSTEM_OR_PROJECT_MEMBER = '(%s) or (%s)' % (SYSTEM_MEMBER, PROJECT_MEMBER)
SYSTEM_OR_PROJECT_READER = '(%s) or (%s)' % (SYSTEM_READER, PROJECT_READER)
SYSTEM_MEMBER_OR_OWNER_ADMIN = ('(%s) or (role:admin and '
                                'project_id:%%(node.owner)s)' % SYSTEM_MEMBER)
SYSTEM_OR_OWNER_MEMBER_AND_LESSEE_ADMIN = (
    '(%s) or (role:member and project_id:%%(node.owner)s) or '
    '(role:admin and project_id:%%(node.lessee)s)' % SYSTEM_MEMBER)
API_READER = 'role:reader'
# The "service" role (Ironic 2023.2+): system-scoped, or in the service
# project (rule ``service_role``, which operators may redefine).
SYSTEM_SERVICE = 'role:service and system_scope:all'
SERVICE_ROLE = 'rule:service_role'
SYSTEM_READER_OR_SERVICE = '(%s) or (%s) or %s' % (
    SYSTEM_READER, SYSTEM_SERVICE, SERVICE_ROLE)

SYSTEM = ['system']
SYSTEM_AND_PROJECT = ['system', 'project']

legacy_rules = [
    policy.RuleDefault('admin_api', 'role:admin or role:administrator',
                       description='Legacy rule for cloud admin access'),
    policy.RuleDefault('public_api', 'is_public_api:True',
                       description='Internal flag for public API routes'),
    policy.RuleDefault('show_password', '!',
                       description='Show or mask secrets within node '
                                   'driver information in API responses'),
    policy.RuleDefault('show_instance_secrets', '!',
                       description='Show or mask secrets within instance '
                                   'information in API responses'),
    policy.RuleDefault('service_role',
                       'role:service and project_name:service',
                       description='Rule to match service role usage with '
                                   'a service project, delineated as a '
                                   'separate rule to enable customization.'),
]


def _rule(name, check, description, operations, scope=SYSTEM_AND_PROJECT):
    return policy.DocumentedRuleDefault(
        name=name, check_str=check, scope_types=scope,
        description=description,
        operations=[{'path': p, 'method': m} for m, p in operations])


_NODE = '/nodes/{node_ident}'
node_rules = [
    _rule('baremetal:node:create', SYSTEM_ADMIN, 'Create Node records',
          [('POST', '/nodes')], SYSTEM),
    _rule('baremetal:node:list', API_READER,
          'Retrieve multiple Node records, filtered by the owner or lessee',
          [('GET', '/nodes'), ('GET', '/nodes/detail')]),
    _rule('baremetal:node:list_all', SYSTEM_READER,
          'Retrieve multiple Node records',
          [('GET', '/nodes'), ('GET', '/nodes/detail')]),
    _rule('baremetal:node:get', SYSTEM_OR_PROJECT_READER,
          'Retrieve a single Node record', [('GET', _NODE)]),
    _rule('baremetal:node:update', SYSTEM_OR_PROJECT_MEMBER,
          'Update Node records', [('PATCH', _NODE)]),
    _rule('baremetal:node:delete', SYSTEM_ADMIN, 'Delete Node records',
          [('DELETE', _NODE)], SYSTEM),
    _rule('baremetal:node:get_states', SYSTEM_OR_PROJECT_READER,
          'View Node power and provision state',
          [('GET', _NODE + '/states')]),
    _rule('baremetal:node:set_power_state', SYSTEM_OR_PROJECT_MEMBER,
          'Change Node power status',
          [('PUT', _NODE + '/states/power')]),
    _rule('baremetal:node:set_provision_state',
          SYSTEM_OR_OWNER_MEMBER_AND_LESSEE_ADMIN,
          'Change Node provision status',
          [('PUT', _NODE + '/states/provision')]),
    _rule('baremetal:node:set_maintenance',
          SYSTEM_OR_OWNER_MEMBER_AND_LESSEE_ADMIN,
          'Put a Node into maintenance mode',
          [('PUT', _NODE + '/maintenance')]),
    _rule('baremetal:node:clear_maintenance',
          SYSTEM_OR_OWNER_MEMBER_AND_LESSEE_ADMIN,
          'Remove a Node from maintenance mode',
          [('DELETE', _NODE + '/maintenance')]),
]

# Per-field update rules: patching a field listed here checks its rule
# instead of the generic baremetal:node:update.
NODE_UPDATE_FIELD_RULES = {
    'extra': ('baremetal:node:update_extra', SYSTEM_OR_PROJECT_MEMBER),
    'instance_info': ('baremetal:node:update_instance_info',
                      SYSTEM_OR_PROJECT_MEMBER),
    'driver_info': ('baremetal:node:update:driver_info',
                    SYSTEM_MEMBER_OR_OWNER_ADMIN),
    'properties': ('baremetal:node:update:properties',
                   SYSTEM_MEMBER_OR_OWNER_ADMIN),
    'chassis_uuid': ('baremetal:node:update:chassis_uuid', SYSTEM_ADMIN),
    'instance_uuid': ('baremetal:node:update:instance_uuid',
                      SYSTEM_OR_PROJECT_MEMBER),
    'lessee': ('baremetal:node:update:lessee', SYSTEM_MEMBER_OR_OWNER_ADMIN),
    'owner': ('baremetal:node:update:owner', SYSTEM_MEMBER),
    'driver': ('baremetal:node:update:driver_interfaces',
               SYSTEM_MEMBER_OR_OWNER_ADMIN),
    'network_data': ('baremetal:node:update:network_data',
                     SYSTEM_MEMBER_OR_OWNER_ADMIN),
    'conductor_group': ('baremetal:node:update:conductor_group',
                        SYSTEM_MEMBER),
    'name': ('baremetal:node:update:name', SYSTEM_MEMBER_OR_OWNER_ADMIN),
    'retired': ('baremetal:node:update:retired',
                SYSTEM_MEMBER_OR_OWNER_ADMIN),
    'retired_reason': ('baremetal:node:update:retired',
                       SYSTEM_MEMBER_OR_OWNER_ADMIN),
    # Also checked when a node is created with a shard.
    'shard': ('baremetal:node:update:shard', SYSTEM_ADMIN),
}
for _iface in ('bios', 'boot', 'console', 'deploy', 'inspect', 'management',
               'network', 'power', 'raid', 'rescue', 'storage', 'vendor'):
    NODE_UPDATE_FIELD_RULES['%s_interface' % _iface] = (
        NODE_UPDATE_FIELD_RULES['driver'])

node_update_rules = [
    _rule(name, check, 'Update the %s of a Node' % name.split(':')[-1],
          [('PATCH', _NODE)])
    for name, check in sorted(set(NODE_UPDATE_FIELD_RULES.values()))]


def _child_rules(kind, path, get_check, write_check, scope=SYSTEM_AND_PROJECT):
    items = '/%s' % path
    one = '/%s/{%s_ident}' % (path, kind)
    rules = [
        _rule('baremetal:%s:get' % kind, get_check,
              'Retrieve a %s record' % kind, [('GET', one)], scope),
        _rule('baremetal:%s:create' % kind, write_check,
              'Create %s records' % kind, [('POST', items)], SYSTEM),
        _rule('baremetal:%s:update' % kind, write_check,
              'Update %s records' % kind, [('PATCH', one)], SYSTEM),
        _rule('baremetal:%s:delete' % kind, write_check,
              'Delete %s records' % kind, [('DELETE', one)], SYSTEM),
    ]
    if scope == SYSTEM_AND_PROJECT:
        rules += [
            _rule('baremetal:%s:list' % kind, API_READER,
                  'Retrieve multiple %s records, filtered by the owner or '
                  'lessee of their node' % kind, [('GET', items)]),
            _rule('baremetal:%s:list_all' % kind, SYSTEM_READER,
                  'Retrieve multiple %s records' % kind, [('GET', items)]),
        ]
    else:
        rules[0].operations.append({'path': items, 'method': 'GET'})
    return rules


port_rules = _child_rules('port', 'ports', SYSTEM_OR_PROJECT_READER,
                          SYSTEM_ADMIN)
portgroup_rules = _child_rules('portgroup', 'portgroups',
                               SYSTEM_OR_PROJECT_READER, SYSTEM_ADMIN)
chassis_rules = _child_rules('chassis', 'chassis', SYSTEM_READER,
                             SYSTEM_ADMIN, scope=SYSTEM)
conductor_rules = [
    _rule('baremetal:conductor:get', SYSTEM_READER,
          'Retrieve Conductor records',
          [('GET', '/conductors'), ('GET', '/conductors/{hostname}')],
          SYSTEM),
]


shard_rules = [
    _rule('baremetal:shards:get', SYSTEM_READER_OR_SERVICE,
          'Retrieve the shards of the nodes and how many nodes each has',
          [('GET', '/shards')]),
]


def list_policies():
    """Every rule default (oslo.policy.policies entry point)."""
    return list(itertools.chain(legacy_rules, node_rules, node_update_rules,
                                port_rules, portgroup_rules, chassis_rules,
                                conductor_rules, shard_rules))


def get_enforcer():
    """The process's enforcer, made on first use."""
    global _ENFORCER
    if _ENFORCER is None:
        _ENFORCER = policy.Enforcer(CONF)
        _ENFORCER.register_defaults(list_policies())
    return _ENFORCER


def get_oslo_policy_enforcer():
    """oslo.policy.enforcer entry point (for oslopolicy-* tools)."""
    CONF([], project='ironic')
    return get_enforcer()


def reset():
    global _ENFORCER
    if _ENFORCER is not None:
        _ENFORCER.clear()
    _ENFORCER = None


def enabled():
    return CONF.auth_strategy != 'noauth'


def check(rule, target, context):
    """True when ``context`` passes ``rule`` on ``target``."""
    if not enabled():
        return True
    try:
        return get_enforcer().enforce(rule, target, context)
    except policy.InvalidScope:
        return False


def authorize(rule, target, context):
    """Raise HTTPForbidden (403) unless ``context`` passes ``rule``."""
    if not check(rule, target, context):
        raise exception.HTTPForbidden(resource=rule)
    return True


def node_target(node, context):
    """The policy target of a node (also used for its ports)."""
    return {'node.owner': node.owner if node is not None else None,
            'node.lessee': node.lessee if node is not None else None,
            'project_id': context.project_id}


def list_project_filter(kind, context, owner=None):
    """The ``project`` filter a list must apply for this caller.

    None when the caller may see everything (``<kind>:list_all``);
    otherwise the caller's project (``<kind>:list``), and a 403 when the
    caller asks for another project's records.
    """
    target = {'project_id': context.project_id}
    if check('baremetal:%s:list_all' % kind, target, context):
        return None
    authorize('baremetal:%s:list' % kind, target, context)
    project = context.project_id
    if not project or (owner is not None and owner != project):
        raise exception.HTTPForbidden(resource='baremetal:%s:list' % kind)
    return project
