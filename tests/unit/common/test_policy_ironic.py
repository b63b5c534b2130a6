"""ironic-lite's policy rules beside Ironic 39's, rule by rule.

Each rule of Ironic 39 (``ironic/common/policy.py`` of openstack/ironic,
master at 7bc6aba7d, 38.0.0-113, August 2026: ``list_policies()``) is either
registered here with the same default check string and scope types, or
listed in ABSENT with the reason it is not.  A rule here that Ironic does
not have fails as well.  The data below was read from Ironic's source:
its composite check strings under Ironic's own names, then each rule's.
"""

from ironic_lite.api import microversions as mv
from ironic_lite.common import policy

_PAST_SERVED = ('guards an API of microversion %%s, past ironic-lite\'s %s'
                % mv.MAX_VERSION_STRING)
_PRE_RBAC = ('pre-RBAC legacy rule (deprecated since Wallaby), used only by '
             'the deprecated fallbacks of Ironic\'s rules; ironic-lite has '
             'the secure-RBAC defaults only')

# Ironic's rules ironic-lite deliberately does not register, and why.
ABSENT = {
    'admin_api': _PRE_RBAC,
    'is_member': _PRE_RBAC,
    'is_observer': _PRE_RBAC,
    'is_admin': _PRE_RBAC,
    'is_node_owner': _PRE_RBAC,
    'is_node_lessee': _PRE_RBAC,
    'is_allocation_owner': _PRE_RBAC,
    'public_api': ('pre-RBAC flag of the public routes; their own rules '
                   '(ipa_heartbeat, ipa_lookup) are registered, empty as '
                   'in Ironic'),
    'baremetal:allocation:create_pre_rbac': (
        'checked by Ironic only with [oslo_policy] enforce_new_defaults '
        'off, on top of deprecated rules ironic-lite does not register'),
    'baremetal:events:post': ('POST /v1/events (1.54) is not implemented '
                              '(doc/source/api/differences.rst)'),
}

# Ironic's scope types where they are not ['system', 'project'].
IRONIC_SCOPES = {
    'baremetal:node:update_owner_provisioned': ['system'],
    'baremetal:chassis:get': ['system'],
    'baremetal:chassis:create': ['system'],
    'baremetal:chassis:delete': ['system'],
    'baremetal:chassis:update': ['system'],
    'baremetal:driver:get': ['system'],
    'baremetal:driver:get_properties': ['system'],
    'baremetal:driver:get_raid_logical_disk_properties': ['system'],
    'baremetal:driver:vendor_passthru': ['system'],
    'baremetal:node:ipa_heartbeat': [],
    'baremetal:driver:ipa_lookup': [],
    'baremetal:driver:ipa_continue_inspection': [],
    'show_password': [],
    'show_instance_secrets': [],
    'service_role': [],
}

IRONIC_CHECKS = {
    'ALLOCATION_CREATOR':
        ('((role:member and system_scope:all) or rule:service_role) or '
         '(role:member)'),
    'ALLOCATION_MEMBER':
        ('((role:member and system_scope:all) or rule:service_role) or '
         '(role:member and project_id:%(allocation.owner)s)'),
    'ALLOCATION_READER':
        ('((role:reader and system_scope:all) or (role:service and '
         'system_scope:all) or rule:service_role) or (role:reader and '
         'project_id:%(allocation.owner)s)'),
    'API_READER':
        '(role:reader) or (role:service)',
    'PROJECT_OWNER_ADMIN':
        'role:admin and project_id:%(node.owner)s',
    'RUNBOOK_ADMIN':
        ('((role:member and system_scope:all) or rule:service_role) or '
         '(role:manager and project_id:%(runbook.owner)s) or '
         'role:service'),
    'RUNBOOK_CREATOR':
        ('((role:member and system_scope:all) or rule:service_role) or '
         'role:manager or role:service'),
    'RUNBOOK_READER':
        ('((role:reader and system_scope:all) or (role:service and '
         'system_scope:all) or rule:service_role) or (role:reader and '
         'project_id:%(runbook.owner)s) or role:service'),
    'SYSTEM_ADMIN':
        'role:admin and system_scope:all',
    'SYSTEM_ADMIN_OR_OWNER_ADMIN':
        ('(role:admin and system_scope:all) or (role:service and '
         'system_scope:all) or (role:admin and '
         'project_id:%(node.owner)s) or (role:manager and '
         'project_id:%(node.owner)s) or (role:service and '
         'project_id:%(node.owner)s)'),
    'SYSTEM_MEMBER':
        '(role:member and system_scope:all) or rule:service_role',
    'SYSTEM_MEMBER_OR_OWNER_ADMIN':
        ('((role:member and system_scope:all) or rule:service_role) or '
         '(role:service and system_scope:all) or (role:admin and '
         'project_id:%(node.owner)s) or (role:manager and '
         'project_id:%(node.owner)s) or (role:service and '
         'project_id:%(node.owner)s)'),
    'SYSTEM_MEMBER_OR_OWNER_LESSEE_ADMIN':
        ('((role:member and system_scope:all) or rule:service_role) or '
         '(role:service and system_scope:all) or (role:admin and '
         'project_id:%(node.owner)s) or (role:manager and '
         'project_id:%(node.owner)s) or (role:admin and '
         'project_id:%(node.lessee)s) or (role:manager and '
         'project_id:%(node.lessee)s) or (role:service and '
         'project_id:%(node.owner)s)'),
    'SYSTEM_MEMBER_OR_OWNER_MEMBER':
        ('((role:member and system_scope:all) or rule:service_role) or '
         '(role:service and system_scope:all) or (role:member and '
         'project_id:%(node.owner)s) or (role:service and '
         'project_id:%(node.owner)s)'),
    'SYSTEM_OR_OWNER_MEMBER_AND_LESSEE_ADMIN':
        ('((role:member and system_scope:all) or rule:service_role) or '
         '(role:service and system_scope:all) or (role:member and '
         'project_id:%(node.owner)s) or (role:admin and '
         'project_id:%(node.lessee)s) or (role:manager and '
         'project_id:%(node.lessee)s) or (role:service and '
         'project_id:%(node.owner)s)'),
    'SYSTEM_OR_OWNER_READER':
        ('((role:reader and system_scope:all) or (role:service and '
         'system_scope:all) or rule:service_role) or (role:service and '
         'system_scope:all) or (role:reader and '
         'project_id:%(node.owner)s) or (role:service and '
         'project_id:%(node.owner)s)'),
    'SYSTEM_OR_PROJECT_MEMBER':
        ('((role:member and system_scope:all) or rule:service_role) or '
         '(role:member and (project_id:%(node.owner)s or '
         'project_id:%(node.lessee)s)) or (role:service and '
         'system_scope:all)'),
    'SYSTEM_OR_PROJECT_READER':
        ('((role:reader and system_scope:all) or (role:service and '
         'system_scope:all) or rule:service_role) or (role:reader and '
         '(project_id:%(node.owner)s or project_id:%(node.lessee)s)) or '
         '(role:service and project_id:%(node.owner)s)'),
    'SYSTEM_READER':
        ('(role:reader and system_scope:all) or (role:service and '
         'system_scope:all) or rule:service_role'),
    'TARGET_PROPERTIES_READER':
        ('((role:reader and system_scope:all) or (role:service and '
         'system_scope:all) or rule:service_role) or (role:admin)'),
}

# (rule name, default check string: a name of IRONIC_CHECKS, or the string)
IRONIC_RULES = [
    ('admin_api', 'role:admin or role:administrator'),
    ('public_api', 'is_public_api:True'),
    ('show_password', '!'),
    ('show_instance_secrets', '!'),
    ('service_role',
     'role:service and project_name:%(config.service_project_name)s'),
    ('is_member',
     ('(project_domain_id:default or project_domain_id:None) and '
      '(project_name:demo or project_name:baremetal)')),
    ('is_observer',
     'rule:is_member and (role:observer or role:baremetal_observer)'),
    ('is_admin',
     'rule:admin_api or (rule:is_member and role:baremetal_admin)'),
    ('is_node_owner', 'project_id:%(node.owner)s'),
    ('is_node_lessee', 'project_id:%(node.lessee)s'),
    ('is_allocation_owner', 'project_id:%(allocation.owner)s'),
    ('baremetal:node:create',
     ('(role:admin and system_scope:all) or (role:service and '
      'system_scope:all)')),
    ('baremetal:node:create:self_owned_node',
     '(role:admin) or (role:service)'),
    ('baremetal:node:list', 'API_READER'),
    ('baremetal:node:list_all', 'SYSTEM_READER'),
    ('baremetal:node:get', 'SYSTEM_OR_PROJECT_READER'),
    ('baremetal:node:get:filter_threshold', 'SYSTEM_READER'),
    ('baremetal:node:get:last_error', 'SYSTEM_OR_OWNER_READER'),
    ('baremetal:node:get:reservation', 'SYSTEM_OR_OWNER_READER'),
    ('baremetal:node:get:driver_internal_info', 'SYSTEM_OR_OWNER_READER'),
    ('baremetal:node:get:driver_info', 'SYSTEM_OR_OWNER_READER'),
    ('baremetal:node:update:driver_info', 'SYSTEM_MEMBER_OR_OWNER_MEMBER'),
    ('baremetal:node:update:properties', 'SYSTEM_MEMBER_OR_OWNER_MEMBER'),
    ('baremetal:node:update:chassis_uuid', 'SYSTEM_ADMIN'),
    ('baremetal:node:update:instance_uuid', 'SYSTEM_MEMBER_OR_OWNER_MEMBER'),
    ('baremetal:node:update:lessee', 'SYSTEM_MEMBER_OR_OWNER_MEMBER'),
    ('baremetal:node:update:owner', 'SYSTEM_MEMBER'),
    ('baremetal:node:update:driver_interfaces',
     'SYSTEM_MEMBER_OR_OWNER_ADMIN'),
    ('baremetal:node:update:network_data', 'SYSTEM_MEMBER_OR_OWNER_MEMBER'),
    ('baremetal:node:update:conductor_group', 'SYSTEM_MEMBER'),
    ('baremetal:node:update:name', 'SYSTEM_MEMBER_OR_OWNER_MEMBER'),
    ('baremetal:node:update:retired', 'SYSTEM_MEMBER_OR_OWNER_MEMBER'),
    ('baremetal:node:update', 'SYSTEM_OR_PROJECT_MEMBER'),
    ('baremetal:node:update_extra', 'SYSTEM_OR_PROJECT_MEMBER'),
    ('baremetal:node:update_instance_info',
     'SYSTEM_OR_OWNER_MEMBER_AND_LESSEE_ADMIN'),
    ('baremetal:node:update_owner_provisioned', 'SYSTEM_ADMIN'),
    ('baremetal:node:delete', 'SYSTEM_ADMIN'),
    ('baremetal:node:delete:self_owned_node', 'PROJECT_OWNER_ADMIN'),
    ('baremetal:node:validate', 'SYSTEM_OR_OWNER_MEMBER_AND_LESSEE_ADMIN'),
    ('baremetal:node:set_maintenance',
     'SYSTEM_OR_OWNER_MEMBER_AND_LESSEE_ADMIN'),
    ('baremetal:node:clear_maintenance',
     'SYSTEM_OR_OWNER_MEMBER_AND_LESSEE_ADMIN'),
    ('baremetal:node:get_boot_device', 'SYSTEM_MEMBER_OR_OWNER_ADMIN'),
    ('baremetal:node:set_boot_device', 'SYSTEM_MEMBER_OR_OWNER_ADMIN'),
    ('baremetal:node:get_indicator_state', 'SYSTEM_OR_PROJECT_READER'),
    ('baremetal:node:set_indicator_state', 'SYSTEM_MEMBER_OR_OWNER_MEMBER'),
    ('baremetal:node:inject_nmi', 'SYSTEM_MEMBER_OR_OWNER_ADMIN'),
    ('baremetal:node:get_states', 'SYSTEM_OR_PROJECT_READER'),
    ('baremetal:node:set_power_state', 'SYSTEM_OR_PROJECT_MEMBER'),
    ('baremetal:node:set_boot_mode', 'SYSTEM_OR_PROJECT_MEMBER'),
    ('baremetal:node:set_secure_boot', 'SYSTEM_OR_PROJECT_MEMBER'),
    ('baremetal:node:set_provision_state',
     'SYSTEM_OR_OWNER_MEMBER_AND_LESSEE_ADMIN'),
    ('baremetal:node:set_provision_state:clean_steps',
     'SYSTEM_OR_OWNER_MEMBER_AND_LESSEE_ADMIN'),
    ('baremetal:node:set_provision_state:service_steps',
     'SYSTEM_OR_OWNER_MEMBER_AND_LESSEE_ADMIN'),
    ('baremetal:node:set_raid_state', 'SYSTEM_MEMBER_OR_OWNER_MEMBER'),
    ('baremetal:node:get_console', 'SYSTEM_MEMBER_OR_OWNER_MEMBER'),
    ('baremetal:node:set_console_state', 'SYSTEM_MEMBER_OR_OWNER_MEMBER'),
    ('baremetal:node:vif:list', 'SYSTEM_OR_PROJECT_READER'),
    ('baremetal:node:vif:attach', 'SYSTEM_OR_OWNER_MEMBER_AND_LESSEE_ADMIN'),
    ('baremetal:node:vif:detach', 'SYSTEM_OR_OWNER_MEMBER_AND_LESSEE_ADMIN'),
    ('baremetal:node:traits:list', 'SYSTEM_OR_PROJECT_READER'),
    ('baremetal:node:traits:set', 'SYSTEM_MEMBER_OR_OWNER_ADMIN'),
    ('baremetal:node:traits:delete', 'SYSTEM_MEMBER_OR_OWNER_ADMIN'),
    ('baremetal:node:bios:get', 'SYSTEM_OR_PROJECT_READER'),
    ('baremetal:node:disable_cleaning', 'SYSTEM_ADMIN'),
    ('baremetal:node:history:get', 'SYSTEM_OR_OWNER_READER'),
    ('baremetal:node:inventory:get', 'SYSTEM_OR_OWNER_READER'),
    ('baremetal:node:update:shard', 'SYSTEM_ADMIN'),
    ('baremetal:shards:get', 'SYSTEM_READER'),
    ('baremetal:node:update:parent_node', 'SYSTEM_MEMBER'),
    ('baremetal:node:update:disable_power_off', 'SYSTEM_ADMIN'),
    ('baremetal:node:firmware:get', 'SYSTEM_OR_PROJECT_READER'),
    ('baremetal:node:vmedia:attach', 'SYSTEM_OR_PROJECT_MEMBER'),
    ('baremetal:node:vmedia:detach', 'SYSTEM_OR_PROJECT_MEMBER'),
    ('baremetal:node:vmedia:get', 'SYSTEM_OR_PROJECT_READER'),
    ('baremetal:port:get', 'SYSTEM_OR_PROJECT_READER'),
    ('baremetal:port:list', 'API_READER'),
    ('baremetal:port:list_all', 'SYSTEM_READER'),
    ('baremetal:port:create', 'SYSTEM_ADMIN_OR_OWNER_ADMIN'),
    ('baremetal:port:delete', 'SYSTEM_ADMIN_OR_OWNER_ADMIN'),
    ('baremetal:port:update', 'SYSTEM_MEMBER_OR_OWNER_ADMIN'),
    ('baremetal:portgroup:get', 'SYSTEM_OR_PROJECT_READER'),
    ('baremetal:portgroup:create', 'SYSTEM_ADMIN_OR_OWNER_ADMIN'),
    ('baremetal:portgroup:delete', 'SYSTEM_ADMIN_OR_OWNER_ADMIN'),
    ('baremetal:portgroup:update', 'SYSTEM_MEMBER_OR_OWNER_ADMIN'),
    ('baremetal:portgroup:list', 'API_READER'),
    ('baremetal:portgroup:list_all', 'SYSTEM_READER'),
    ('baremetal:chassis:get', 'SYSTEM_READER'),
    ('baremetal:chassis:create', 'SYSTEM_ADMIN'),
    ('baremetal:chassis:delete', 'SYSTEM_ADMIN'),
    ('baremetal:chassis:update', 'SYSTEM_MEMBER'),
    ('baremetal:driver:get', 'SYSTEM_READER'),
    ('baremetal:driver:get_properties', 'SYSTEM_READER'),
    ('baremetal:driver:get_raid_logical_disk_properties', 'SYSTEM_READER'),
    ('baremetal:node:vendor_passthru', 'SYSTEM_ADMIN'),
    ('baremetal:driver:vendor_passthru', 'SYSTEM_ADMIN'),
    ('baremetal:node:ipa_heartbeat', ''),
    ('baremetal:driver:ipa_lookup', ''),
    ('baremetal:driver:ipa_continue_inspection', ''),
    ('baremetal:volume:list_all', 'SYSTEM_READER'),
    ('baremetal:volume:list', 'API_READER'),
    ('baremetal:volume:get', 'SYSTEM_OR_PROJECT_READER'),
    ('baremetal:volume:create', 'SYSTEM_MEMBER_OR_OWNER_LESSEE_ADMIN'),
    ('baremetal:volume:delete', 'SYSTEM_MEMBER_OR_OWNER_LESSEE_ADMIN'),
    ('baremetal:volume:update', 'SYSTEM_OR_OWNER_MEMBER_AND_LESSEE_ADMIN'),
    ('baremetal:volume:view_target_properties', 'TARGET_PROPERTIES_READER'),
    ('baremetal:conductor:get', 'SYSTEM_READER'),
    ('baremetal:allocation:get', 'ALLOCATION_READER'),
    ('baremetal:allocation:list', 'API_READER'),
    ('baremetal:allocation:list_all', 'SYSTEM_READER'),
    ('baremetal:allocation:create', 'ALLOCATION_CREATOR'),
    ('baremetal:allocation:create_restricted', 'SYSTEM_MEMBER'),
    ('baremetal:allocation:delete', 'ALLOCATION_MEMBER'),
    ('baremetal:allocation:update', 'ALLOCATION_MEMBER'),
    ('baremetal:allocation:create_pre_rbac',
     ('(rule:is_member and role:baremetal_admin) or '
      '(is_admin_project:True and role:admin)')),
    ('baremetal:events:post', 'SYSTEM_ADMIN'),
    ('baremetal:deploy_template:get', 'SYSTEM_READER'),
    ('baremetal:deploy_template:create', 'SYSTEM_ADMIN'),
    ('baremetal:deploy_template:delete', 'SYSTEM_ADMIN'),
    ('baremetal:deploy_template:update', 'SYSTEM_ADMIN'),
    ('baremetal:runbook:get', 'RUNBOOK_READER'),
    ('baremetal:runbook:list', 'API_READER'),
    ('baremetal:runbook:list_all', 'SYSTEM_READER'),
    ('baremetal:runbook:create', 'RUNBOOK_CREATOR'),
    ('baremetal:runbook:delete', 'RUNBOOK_ADMIN'),
    ('baremetal:runbook:update', 'RUNBOOK_ADMIN'),
    ('baremetal:runbook:update:public', 'SYSTEM_MEMBER'),
    ('baremetal:runbook:update:owner', 'SYSTEM_MEMBER'),
    ('baremetal:runbook:use', 'RUNBOOK_ADMIN'),
    ('baremetal:inspection_rule:get', 'SYSTEM_READER'),
    ('baremetal:inspection_rule:list_all', 'SYSTEM_READER'),
    ('baremetal:inspection_rule:create', 'SYSTEM_ADMIN'),
    ('baremetal:inspection_rule:update', 'SYSTEM_ADMIN'),
    ('baremetal:inspection_rule:delete', 'SYSTEM_ADMIN'),
]


def _ironic_rules():
    return {name: IRONIC_CHECKS.get(check, check)
            for name, check in IRONIC_RULES}


def _ours():
    return {rule.name: rule for rule in policy.list_policies()}


def test_the_data_is_whole():
    assert len(IRONIC_RULES) == len(_ironic_rules()) == 133
    assert set(ABSENT) <= set(_ironic_rules())
    assert set(IRONIC_SCOPES) <= set(_ironic_rules()) - set(ABSENT)


def test_each_ironic_rule_is_here_alike_or_absent_for_a_reason():
    ours = _ours()
    wrong = []
    for name, check in sorted(_ironic_rules().items()):
        if name in ABSENT:
            if name in ours:
                wrong.append((name, 'registered, yet listed as absent'))
        elif name not in ours:
            wrong.append((name, 'missing'))
        elif ours[name].check_str != check:
            wrong.append((name, 'default %r, Ironic %r'
                          % (ours[name].check_str, check)))
    assert wrong == []


def test_each_rule_has_ironics_scope_types():
    wrong = []
    for name, rule in sorted(_ours().items()):
        scopes = sorted(getattr(rule, 'scope_types', None) or [])
        expected = sorted(IRONIC_SCOPES.get(name, ['system', 'project']))
        if scopes != expected:
            wrong.append((name, scopes, expected))
    assert wrong == []


def test_every_rule_here_is_ironics():
    assert sorted(set(_ours()) - set(_ironic_rules())) == []
