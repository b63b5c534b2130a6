"""API access rules (oslo.policy): Ironic 39's secure-RBAC defaults.

The rules are data: one row of ``POLICIES`` per rule (name, check string,
description, operations, and the scope types when they are not both
``system`` and ``project``), with the check strings built, as Ironic's, from
the personas below.  ``list_policies`` and ``get_oslo_policy_enforcer`` are
the oslo.policy entry points (setup.cfg).  ``authorize`` raises
HTTPForbidden (403) on a refusal.

``[oslo_policy] enforce_scope`` and ``enforce_new_defaults`` are true by
default (ironic_lite.conf), as in Ironic 39.  With ``[DEFAULT]auth_strategy
= noauth`` every request is the (unauthenticated) operator and nothing is
checked; ``http_basic`` and ``keystone`` requests are checked.
"""

import threading
import time

from oslo_policy import policy

from ironic_lite.common import exception
# The personas (Ironic's check strings), in their own module.
from ironic_lite.common.policy_personas import (
    ALLOCATION_CREATOR, ALLOCATION_MEMBER, ALLOCATION_READER,
    API_READER, OWNER_ADMIN, RUNBOOK_ADMIN, RUNBOOK_CREATOR, RUNBOOK_READER,
    SYSTEM, SYSTEM_ADMIN, SYSTEM_ADMIN_OR_OWNER_ADMIN,
    SYSTEM_ADMIN_OR_SERVICE, SYSTEM_AND_PROJECT, SYSTEM_MEMBER,
    SYSTEM_MEMBER_OR_OWNER_ADMIN, SYSTEM_MEMBER_OR_OWNER_LESSEE_ADMIN,
    SYSTEM_MEMBER_OR_OWNER_MEMBER,
    SYSTEM_OR_OWNER_MEMBER_AND_LESSEE_ADMIN, SYSTEM_OR_OWNER_READER,
    SYSTEM_OR_PROJECT_MEMBER, SYSTEM_OR_PROJECT_READER, SYSTEM_READER,
    TARGET_PROPERTIES_READER)
from ironic_lite import conf

CONF = conf.CONF
_ENFORCER = None
_CREATING = threading.Lock()

legacy_rules = [
    policy.RuleDefault('show_password', '!',
                       description='Show or mask secrets within node '
                                   'driver information in API responses'),
    policy.RuleDefault('show_instance_secrets', '!',
                       description='Show or mask secrets within instance '
                                   'information in API responses'),
    policy.RuleDefault('service_role',
                       'role:service and '
                       'project_name:%(config.service_project_name)s',
                       description='Rule to match service role usage with '
                                   'a service project, delineated as a '
                                   'separate rule to enable customization.'),
]

# -- the rules: one row each ------------------------------------------------
# (name, check string, description, operations[, scope types])
# operations: "METHOD path" separated by commas.
_N = '/nodes/{node_ident}'
POLICIES = [
    ('baremetal:node:create', SYSTEM_ADMIN_OR_SERVICE,
     'Create Node records', 'POST /nodes'),
    ('baremetal:node:list', API_READER,
     'Retrieve multiple Node records, filtered by an explicit owner or the '
     'client project_id', 'GET /nodes, GET /nodes/detail'),
    ('baremetal:node:list_all', SYSTEM_READER,
     'Retrieve multiple Node records', 'GET /nodes, GET /nodes/detail'),
    ('baremetal:node:get', SYSTEM_OR_PROJECT_READER,
     'Retrieve a single Node record', 'GET ' + _N),
    ('baremetal:node:update', SYSTEM_OR_PROJECT_MEMBER,
     'Generalized update of node records', 'PATCH ' + _N),
    ('baremetal:node:update_extra', SYSTEM_OR_PROJECT_MEMBER,
     'Update Node extra field', 'PATCH ' + _N),
    ('baremetal:node:update_instance_info',
     SYSTEM_OR_OWNER_MEMBER_AND_LESSEE_ADMIN,
     'Update Node instance_info field', 'PATCH ' + _N),
    ('baremetal:node:update:driver_info', SYSTEM_MEMBER_OR_OWNER_MEMBER,
     'Update the driver_info of a Node', 'PATCH ' + _N),
    ('baremetal:node:update:properties', SYSTEM_MEMBER_OR_OWNER_MEMBER,
     'Update the properties of a Node', 'PATCH ' + _N),
    ('baremetal:node:update:chassis_uuid', SYSTEM_ADMIN,
     'Update the chassis_uuid of a Node', 'PATCH ' + _N),
    ('baremetal:node:update:instance_uuid', SYSTEM_MEMBER_OR_OWNER_MEMBER,
     'Update the instance_uuid of a Node', 'PATCH ' + _N),
    ('baremetal:node:update:lessee', SYSTEM_MEMBER_OR_OWNER_MEMBER,
     'Update the lessee of a Node', 'PATCH ' + _N),
    ('baremetal:node:update:owner', SYSTEM_MEMBER,
     'Update the owner of a Node', 'PATCH ' + _N),
    ('baremetal:node:update:driver_interfaces', SYSTEM_MEMBER_OR_OWNER_ADMIN,
     'Update the driver and driver interfaces of a Node', 'PATCH ' + _N),
    ('baremetal:node:update:network_data', SYSTEM_MEMBER_OR_OWNER_MEMBER,
     'Update the network_data of a Node', 'PATCH ' + _N),
    ('baremetal:node:update:conductor_group', SYSTEM_MEMBER,
     'Update the conductor_group of a Node', 'PATCH ' + _N),
    ('baremetal:node:update:name', SYSTEM_MEMBER_OR_OWNER_MEMBER,
     'Update the name of a Node', 'PATCH ' + _N),
    ('baremetal:node:update:retired', SYSTEM_MEMBER_OR_OWNER_MEMBER,
     'Update the retired and retired_reason of a Node', 'PATCH ' + _N),
    ('baremetal:node:update:shard', SYSTEM_ADMIN,
     'Set the shard of a Node (also on create)', 'PATCH %s, POST /nodes' % _N),
    ('baremetal:node:update:parent_node', SYSTEM_MEMBER,
     'Update the parent_node of a Node (make it a child node of another, '
     'or a top-level node again)', 'PATCH ' + _N),
    ('baremetal:node:update:disable_power_off', SYSTEM_ADMIN,
     'Governs if power off can be disabled via the API clients.',
     'PATCH ' + _N),
    ('baremetal:node:delete', SYSTEM_ADMIN, 'Delete Node records',
     'DELETE ' + _N),
    ('baremetal:node:get_states', SYSTEM_OR_PROJECT_READER,
     'View Node power and provision state', 'GET %s/states' % _N),
    ('baremetal:node:set_power_state', SYSTEM_OR_PROJECT_MEMBER,
     'Change Node power status', 'PUT %s/states/power' % _N),
    ('baremetal:node:set_boot_mode', SYSTEM_OR_PROJECT_MEMBER,
     'Change Node boot mode', 'PUT %s/states/boot_mode' % _N),
    ('baremetal:node:set_secure_boot', SYSTEM_OR_PROJECT_MEMBER,
     'Change Node secure boot state', 'PUT %s/states/secure_boot' % _N),
    ('baremetal:node:set_provision_state',
     SYSTEM_OR_OWNER_MEMBER_AND_LESSEE_ADMIN,
     'Change Node provision status', 'PUT %s/states/provision' % _N),
    ('baremetal:node:set_maintenance',
     SYSTEM_OR_OWNER_MEMBER_AND_LESSEE_ADMIN,
     'Set maintenance flag, taking a Node out of service',
     'PUT %s/maintenance' % _N),
    ('baremetal:node:clear_maintenance',
     SYSTEM_OR_OWNER_MEMBER_AND_LESSEE_ADMIN,
     'Clear maintenance flag, placing the Node into service again',
     'DELETE %s/maintenance' % _N),
    ('baremetal:node:validate', SYSTEM_OR_OWNER_MEMBER_AND_LESSEE_ADMIN,
     'Request active validation of Nodes', 'GET %s/validate' % _N),
    ('baremetal:node:get_boot_device', SYSTEM_MEMBER_OR_OWNER_ADMIN,
     'Retrieve Node boot device metadata',
     'GET %s/management/boot_device, '
     'GET %s/management/boot_device/supported' % (_N, _N)),
    ('baremetal:node:set_boot_device', SYSTEM_MEMBER_OR_OWNER_ADMIN,
     'Change Node boot device', 'PUT %s/management/boot_device' % _N),
    ('baremetal:node:vif:list', SYSTEM_OR_PROJECT_READER,
     'List VIFs attached to node', 'GET %s/vifs' % _N),
    ('baremetal:node:vif:attach', SYSTEM_OR_OWNER_MEMBER_AND_LESSEE_ADMIN,
     'Attach a VIF to a node', 'POST %s/vifs' % _N),
    ('baremetal:node:vif:detach', SYSTEM_OR_OWNER_MEMBER_AND_LESSEE_ADMIN,
     'Detach a VIF from a node', 'DELETE %s/vifs/{node_vif_ident}' % _N),
    ('baremetal:node:traits:list', SYSTEM_OR_PROJECT_READER,
     'List node traits', 'GET %s/traits' % _N),
    ('baremetal:node:traits:set', SYSTEM_MEMBER_OR_OWNER_ADMIN,
     'Add a trait to, or replace all traits of, a node',
     'PUT %s/traits, PUT %s/traits/{trait}' % (_N, _N)),
    ('baremetal:node:traits:delete', SYSTEM_MEMBER_OR_OWNER_ADMIN,
     'Remove one or all traits from a node',
     'DELETE %s/traits, DELETE %s/traits/{trait}' % (_N, _N)),
    # Inspection data (API 1.81).
    ('baremetal:node:inventory:get', SYSTEM_OR_OWNER_READER,
     'Retrieve inspection data for a node.', 'GET %s/inventory' % _N),
    # RPC 1.6: rescue, manual cleaning, NMI, console.
    ('baremetal:node:set_provision_state:clean_steps',
     SYSTEM_OR_OWNER_MEMBER_AND_LESSEE_ADMIN,
     'Allow execution of arbitrary steps on a node',
     'PUT %s/states/provision' % _N),
    # RPC 1.12: servicing (API 1.87).
    ('baremetal:node:set_provision_state:service_steps',
     SYSTEM_OR_OWNER_MEMBER_AND_LESSEE_ADMIN,
     'Allow execution of arbitrary steps on a node',
     'PUT %s/states/provision' % _N),
    ('baremetal:node:get_indicator_state', SYSTEM_OR_PROJECT_READER,
     'Retrieve Node indicators and their states',
     'GET %s/management/indicators/{component}/{indicator}, '
     'GET %s/management/indicators' % (_N, _N)),
    ('baremetal:node:set_indicator_state', SYSTEM_MEMBER_OR_OWNER_MEMBER,
     'Change Node indicator state',
     'PUT %s/management/indicators/{component}/{indicator}' % _N),
    ('baremetal:node:inject_nmi', SYSTEM_MEMBER_OR_OWNER_ADMIN,
     'Inject NMI for a node', 'PUT %s/management/inject_nmi' % _N),
    ('baremetal:node:get_console', SYSTEM_MEMBER_OR_OWNER_MEMBER,
     'Get Node console connection information',
     'GET %s/states/console' % _N),
    ('baremetal:node:set_console_state', SYSTEM_MEMBER_OR_OWNER_MEMBER,
     'Change Node console status', 'PUT %s/states/console' % _N),
    # BIOS settings (1.40) and node history (1.78).
    ('baremetal:node:bios:get', SYSTEM_OR_PROJECT_READER,
     'Retrieve Node BIOS information',
     'GET %s/bios, GET %s/bios/{setting}' % (_N, _N)),
    ('baremetal:node:history:get', SYSTEM_OR_OWNER_READER,
     'Filter to allow operators to retrieve history records for a node.',
     'GET %s/history, GET %s/history/{event_ident}' % (_N, _N)),
    # Firmware components (1.86).
    ('baremetal:node:firmware:get', SYSTEM_OR_PROJECT_READER,
     'Retrieve Node Firmware components information',
     'GET %s/firmware' % _N),
    ('baremetal:shards:get', SYSTEM_READER,
     'Retrieve the shards of the nodes and how many nodes each has',
     'GET /shards'),

    ('baremetal:port:get', SYSTEM_OR_PROJECT_READER, 'Retrieve Port records',
     'GET /ports/{port_id}, GET %s/ports' % _N),
    ('baremetal:port:list', API_READER,
     'Retrieve multiple Port records, filtered by owner', 'GET /ports'),
    ('baremetal:port:list_all', SYSTEM_READER,
     'Retrieve multiple Port records', 'GET /ports'),
    ('baremetal:port:create', SYSTEM_ADMIN_OR_OWNER_ADMIN,
     'Create Port records', 'POST /ports'),
    ('baremetal:port:update', SYSTEM_MEMBER_OR_OWNER_ADMIN,
     'Update Port records', 'PATCH /ports/{port_id}'),
    ('baremetal:port:delete', SYSTEM_ADMIN_OR_OWNER_ADMIN,
     'Delete Port records', 'DELETE /ports/{port_id}'),

    ('baremetal:portgroup:get', SYSTEM_OR_PROJECT_READER,
     'Retrieve Portgroup records',
     'GET /portgroups/{portgroup_ident}, GET %s/portgroups' % _N),
    ('baremetal:portgroup:list', API_READER,
     'Retrieve multiple Portgroup records, filtered by owner',
     'GET /portgroups'),
    ('baremetal:portgroup:list_all', SYSTEM_READER,
     'Retrieve multiple Portgroup records', 'GET /portgroups'),
    ('baremetal:portgroup:create', SYSTEM_ADMIN_OR_OWNER_ADMIN,
     'Create Portgroup records', 'POST /portgroups'),
    ('baremetal:portgroup:update', SYSTEM_MEMBER_OR_OWNER_ADMIN,
     'Update Portgroup records', 'PATCH /portgroups/{portgroup_ident}'),
    ('baremetal:portgroup:delete', SYSTEM_ADMIN_OR_OWNER_ADMIN,
     'Delete Portgroup records', 'DELETE /portgroups/{portgroup_ident}'),

    ('baremetal:chassis:get', SYSTEM_READER, 'Retrieve Chassis records',
     'GET /chassis, GET /chassis/{chassis_id}', SYSTEM),
    ('baremetal:chassis:create', SYSTEM_ADMIN, 'Create Chassis records',
     'POST /chassis', SYSTEM),
    ('baremetal:chassis:update', SYSTEM_MEMBER, 'Update Chassis records',
     'PATCH /chassis/{chassis_id}', SYSTEM),
    ('baremetal:chassis:delete', SYSTEM_ADMIN, 'Delete Chassis records',
     'DELETE /chassis/{chassis_id}', SYSTEM),

    # Project scope as well, as Ironic: the service role of the service
    # project passes with [DEFAULT]rbac_service_role_elevated_access.
    ('baremetal:conductor:get', SYSTEM_READER, 'Retrieve Conductor records',
     'GET /conductors, GET /conductors/{hostname}'),

    ('baremetal:driver:get', SYSTEM_READER, 'View list of available drivers',
     'GET /drivers, GET /drivers/{driver_name}', SYSTEM),
    ('baremetal:driver:get_properties', SYSTEM_READER,
     'View driver-specific properties',
     'GET /drivers/{driver_name}/properties', SYSTEM),
] + [
    # Allocations: a project member manages its own.
    ('baremetal:allocation:get', ALLOCATION_READER,
     'Retrieve Allocation records',
     'GET /allocations/{allocation_id}, GET %s/allocation' % _N),
    ('baremetal:allocation:list', API_READER,
     'Retrieve multiple Allocation records, filtered by owner',
     'GET /allocations'),
    ('baremetal:allocation:list_all', SYSTEM_READER,
     'Retrieve multiple Allocation records', 'GET /allocations'),
    ('baremetal:allocation:create', ALLOCATION_CREATOR,
     'Create Allocation records', 'POST /allocations'),
    ('baremetal:allocation:create_restricted', SYSTEM_MEMBER,
     'Create Allocation records with a specific owner.',
     'POST /allocations'),
    ('baremetal:allocation:delete', ALLOCATION_MEMBER,
     'Delete Allocation records',
     'DELETE /allocations/{allocation_id}, DELETE %s/allocation' % _N),
    ('baremetal:allocation:update', ALLOCATION_MEMBER,
     'Change name and extra fields of an allocation',
     'PATCH /allocations/{allocation_id}'),
    # -- volume connectors and targets --
    ('baremetal:volume:list_all', SYSTEM_READER,
     'Retrieve a list of all Volume connector and target records',
     'GET /volume/connectors, GET /volume/targets, '
     'GET %s/volume/connectors, GET %s/volume/targets' % (_N, _N)),
    ('baremetal:volume:list', API_READER,
     'Retrieve a list of Volume connector and target records',
     'GET /volume/connectors, GET /volume/targets, '
     'GET %s/volume/connectors, GET %s/volume/targets' % (_N, _N)),
    ('baremetal:volume:get', SYSTEM_OR_PROJECT_READER,
     'Retrieve Volume connector and target records',
     'GET /volume, GET /volume/connectors, '
     'GET /volume/connectors/{volume_connector_id}, GET /volume/targets, '
     'GET /volume/targets/{volume_target_id}, GET %s/volume, '
     'GET %s/volume/connectors, GET %s/volume/targets' % (_N, _N, _N)),
    ('baremetal:volume:create', SYSTEM_MEMBER_OR_OWNER_LESSEE_ADMIN,
     'Create Volume connector and target records',
     'POST /volume/connectors, POST /volume/targets'),
    ('baremetal:volume:delete', SYSTEM_MEMBER_OR_OWNER_LESSEE_ADMIN,
     'Delete Volume connector and target records',
     'DELETE /volume/connectors/{volume_connector_id}, '
     'DELETE /volume/targets/{volume_target_id}'),
    ('baremetal:volume:update', SYSTEM_OR_OWNER_MEMBER_AND_LESSEE_ADMIN,
     'Update Volume connector and target records',
     'PATCH /volume/connectors/{volume_connector_id}, '
     'PATCH /volume/targets/{volume_target_id}'),
    ('baremetal:volume:view_target_properties', TARGET_PROPERTIES_READER,
     'Ability to view volume target properties',
     'GET /volume/connectors/{volume_connector_id}, '
     'GET /volume/targets/{volume_target_id}'),
]

# Deploy templates (API 1.55), Ironic's rules and defaults.
_T = '/deploy_templates/{deploy_template_ident}'
POLICIES += [
    ('baremetal:deploy_template:get', SYSTEM_READER,
     'Retrieve Deploy Template records',
     'GET /deploy_templates, GET ' + _T),
    ('baremetal:deploy_template:create', SYSTEM_ADMIN,
     'Create Deploy Template records', 'POST /deploy_templates'),
    ('baremetal:deploy_template:delete', SYSTEM_ADMIN,
     'Delete Deploy Template records', 'DELETE ' + _T),
    ('baremetal:deploy_template:update', SYSTEM_ADMIN,
     'Update Deploy Template records', 'PATCH ' + _T),
]

# Virtual media (API 1.89, GET 1.93), Ironic's rules and defaults.
POLICIES += [
    ('baremetal:node:vmedia:attach', SYSTEM_OR_PROJECT_MEMBER,
     'Attach a virtual media device to a node', 'POST %s/vmedia' % _N),
    ('baremetal:node:vmedia:detach', SYSTEM_OR_PROJECT_MEMBER,
     'Detach a virtual media device from a node', 'DELETE %s/vmedia' % _N),
    ('baremetal:node:vmedia:get', SYSTEM_OR_PROJECT_READER,
     'Get virtual media device details from a node', 'GET %s/vmedia' % _N),
]

# Inspection rules (API 1.96), Ironic's rules and defaults.
_IR = '/inspection_rules/{rule_id}'
POLICIES += [
    ('baremetal:inspection_rule:get', SYSTEM_READER,
     'Get inspection rule(s)', 'GET /inspection_rules, GET ' + _IR),
    ('baremetal:inspection_rule:list_all', SYSTEM_READER,
     'Retrieve all inspection_rule records', 'GET /inspection_rules'),
    ('baremetal:inspection_rule:create', SYSTEM_ADMIN,
     'Create inspection rule', 'POST /inspection_rules'),
    ('baremetal:inspection_rule:update', SYSTEM_ADMIN,
     'Update an inspection rule', 'PATCH ' + _IR),
    ('baremetal:inspection_rule:delete', SYSTEM_ADMIN,
     'Delete an inspection rule',
     'DELETE /inspection_rules, DELETE ' + _IR),
]

# Runbooks (API 1.92), Ironic's rules and defaults: a project's managers
# keep their project's runbooks; public ones are for everybody to use.
_RB = '/runbooks/{runbook_ident}'
POLICIES += [
    ('baremetal:runbook:get', RUNBOOK_READER,
     'Retrieve a single runbook record', 'GET ' + _RB),
    ('baremetal:runbook:list', API_READER,
     'Retrieve multiple runbook records, filtered by an explicit owner or '
     'the client project_id', 'GET /runbooks'),
    ('baremetal:runbook:list_all', SYSTEM_READER,
     'Retrieve all runbook records', 'GET /runbooks'),
    ('baremetal:runbook:create', RUNBOOK_CREATOR, 'Create Runbook records',
     'POST /runbooks'),
    ('baremetal:runbook:delete', RUNBOOK_ADMIN, 'Delete a runbook record',
     'DELETE ' + _RB),
    ('baremetal:runbook:update', RUNBOOK_ADMIN, 'Update a runbook record',
     'PATCH ' + _RB),
    ('baremetal:runbook:update:public', SYSTEM_MEMBER,
     'Set and unset a runbook as public', 'PATCH %s/public' % _RB),
    ('baremetal:runbook:update:owner', SYSTEM_MEMBER,
     'Set and unset the owner of a runbook', 'PATCH %s/owner' % _RB),
    ('baremetal:runbook:use', RUNBOOK_ADMIN,
     'Allowed to use a runbook for node operations',
     'PUT /nodes/{node_ident}/states/provision'),
]

# The ramdisk agent's API (1.22), public as in Ironic: no credentials,
# so no scope (the agent proves itself with its token).
POLICIES += [
    ('baremetal:node:ipa_heartbeat', '',
     'Receive heartbeats from IPA ramdisk', 'POST /heartbeat/{node_ident}',
     ()),
    ('baremetal:driver:ipa_lookup', '',
     'Access IPA ramdisk lookup endpoint', 'GET /lookup', ()),
    ('baremetal:driver:ipa_continue_inspection', '',
     'Receive inspection data from the ramdisk',
     'POST /continue_inspection', ()),
]

# RAID (API 1.12) and vendor passthru, Ironic's rules and
# defaults (vendor passthru: a system admin only; project scope is listed
# for nodes, but no project role passes).


def _passthru_operations(path):
    return ', '.join(['GET %s/methods' % path] + [
        '%s %s?method={method_name}' % (verb, path)
        for verb in ('GET', 'PUT', 'POST', 'PATCH', 'DELETE')])


POLICIES += [
    ('baremetal:node:set_raid_state', SYSTEM_MEMBER_OR_OWNER_MEMBER,
     'Set the target RAID configuration of a Node',
     'PUT %s/states/raid' % _N),
    ('baremetal:driver:get_raid_logical_disk_properties', SYSTEM_READER,
     'View the properties of a logical disk of a RAID configuration',
     'GET /drivers/{driver_name}/raid/logical_disk_properties', SYSTEM),
    ('baremetal:node:vendor_passthru', SYSTEM_ADMIN,
     'Access vendor-specific Node functions',
     _passthru_operations('%s/vendor_passthru' % _N)),
    ('baremetal:driver:vendor_passthru', SYSTEM_ADMIN,
     'Access vendor-specific Driver functions',
     _passthru_operations('/drivers/{driver_name}/vendor_passthru'),
     SYSTEM),
]

# Issue 35: the rules Ironic 39 has for a field or action of this API.
# The node fields hidden from a caller outside the owner project: a
# caller failing filter_threshold (the system readers pass) has each
# field checked against its own rule (see api/controllers/v1/node_render).
_GOVERNS = ('Governs if the node %s field is masked from API clients with '
            'insufficient privileges.')
POLICIES += [
    ('baremetal:node:get:filter_threshold', SYSTEM_READER,
     'Filter to allow operators to govern the threshold where information '
     'should be filtered. Non-authorized users will be subjected to '
     'additional API policy checks for API content response bodies.',
     'GET ' + _N),
] + [('baremetal:node:get:' + field, SYSTEM_OR_OWNER_READER,
      _GOVERNS % field, 'GET ' + _N)
     for field in ('last_error', 'reservation', 'driver_internal_info',
                   'driver_info')] + [
    ('baremetal:node:disable_cleaning', SYSTEM_ADMIN,
     'Disable Node disk cleaning', 'PATCH ' + _N),
    ('baremetal:node:update_owner_provisioned', SYSTEM_ADMIN,
     'Update Node owner even when Node is provisioned', 'PATCH ' + _N,
     SYSTEM),
    # [api]project_admin_can_manage_own_nodes (API 1.80).
    ('baremetal:node:create:self_owned_node', '(role:admin) or (role:service)',
     'Create node records which will be tracked as owned by the associated '
     'user project.', 'POST /nodes'),
    ('baremetal:node:delete:self_owned_node', OWNER_ADMIN,
     'Delete node records which are associated with the requesting '
     'project.', 'DELETE ' + _N),
]


def _operations(text):
    ops = []
    for op in text.split(','):
        method, path = op.split()
        ops.append({'method': method, 'path': path})
    return ops


def _default(row):
    name, check_str, description, operations = row[:4]
    scope = row[4] if len(row) > 4 else SYSTEM_AND_PROJECT
    return policy.DocumentedRuleDefault(
        name=name, check_str=check_str, description=description,
        operations=_operations(operations),
        scope_types=list(scope) or None)


def list_policies():
    """Every rule default (oslo.policy.policies entry point)."""
    return legacy_rules + [_default(row) for row in POLICIES]


# How long an enforcer goes without looking at the policy files again.
RELOAD_CHECK_SECONDS = 1.0


class _Enforcer(policy.Enforcer):
    """oslo.policy's Enforcer, looking for changed policy files at most
    once a second.

    oslo.policy looks for the policy file and every ``policy_dirs``
    directory (a search of the config directories, a ``stat`` each) at
    every enforcement: two or three times per request, about a tenth of
    the time of a small one.  An edited policy file still takes effect
    without a restart, within a second.
    """

    _checked_at = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # oslo.policy's load_rules is not thread-safe: its first load adds
        # the defaults to ``self.rules`` while another request's load
        # iterates over them (check_rules), "dictionary changed size during
        # iteration", a 500 on the first requests after a restart.  One
        # load at a time; enforcement only reads the rules.
        self._loading = threading.Lock()

    def _due(self, force_reload):
        return (force_reload or self._checked_at is None or
                time.monotonic() - self._checked_at >= RELOAD_CHECK_SECONDS)

    def load_rules(self, force_reload=False):
        if not self._due(force_reload):
            return
        with self._loading:
            # Another thread may have loaded them while this one waited.
            if self._due(force_reload):
                super().load_rules(force_reload)
                self._checked_at = time.monotonic()

    def clear(self):
        with self._loading:
            super().clear()
            self._checked_at = None


def get_enforcer():
    """The process's enforcer, made (and its rules loaded) on first use,
    by one thread."""
    global _ENFORCER
    if _ENFORCER is None:
        with _CREATING:
            if _ENFORCER is None:
                enforcer = _Enforcer(CONF)
                enforcer.register_defaults(list_policies())
                enforcer.load_rules()
                _ENFORCER = enforcer
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


def _enforce(rule, target, context):
    """oslo.policy's verdict; a token of the wrong scope is a no."""
    try:
        return get_enforcer().enforce(
            rule, dict(context.to_policy_values(), **target), context)
    except policy.InvalidScope:
        return False


def check(rule, target, context):
    """True when ``context`` passes ``rule`` on ``target``."""
    if not enabled():
        return True
    return _enforce(rule, target, context)


def reveals(rule, context):
    """Whether ``rule`` (show_password, show_instance_secrets) lets
    ``context`` see a secret unmasked.  Evaluated under every
    auth_strategy, noauth included: as in Ironic, the default '!' masks
    secrets for everybody."""
    enforcer = get_enforcer()
    enforcer.load_rules()
    if str(enforcer.rules.get(rule)) == '!':
        # The default: nobody -- a policy file's change is loaded above.
        return False
    return _enforce(rule, {}, context)


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
