"""The contract of ``/v1/nodes`` and of a node's sub-resources: query
parameters and body schemas (the routes: ``controllers/v1/node.py``)."""

from ironic_lite.api import microversions as mv
from ironic_lite.api import schemas as s
from ironic_lite.api import query as v
from ironic_lite.common import interfaces
from ironic_lite.objects import base as objects_base

# Keys of a POST /v1/nodes body.
CREATE_FIELDS = dict(
    {name: s.TEXT for name in interfaces.INTERFACE_FIELDS},
    automated_clean=s.BOOL, chassis_uuid=s.TEXT, conductor_group=s.TEXT,
    console_enabled=s.BOOL, description=s.TEXT, disable_power_off=s.BOOL,
    driver=s.TEXT,
    driver_info=s.DICT, extra=s.DICT, instance_info=s.DICT,
    instance_name=s.TEXT, instance_uuid=s.TEXT, lessee=s.TEXT,
    maintenance=s.BOOL, name=s.TEXT,
    network_data=s.DICT, owner=s.TEXT, parent_node=s.TEXT, properties=s.DICT,
    resource_class=s.TEXT, retired=s.BOOL, retired_reason=s.TEXT,
    shard=s.TEXT, uuid=s.TEXT)
# A node after a JSON patch: the create keys (but uuid) and patch-only
# ones.
PATCH_FIELDS = dict(CREATE_FIELDS, protected=s.BOOL, protected_reason=s.TEXT)
del PATCH_FIELDS['uuid']

# Ironic's NODE_VALIDATE_EXTRA (args.uuid), in its order.
CREATE = s.body('nodes', CREATE_FIELDS, required=('driver',),
                uuids=('chassis_uuid', 'instance_uuid', 'uuid'))
PATCHED = s.body('nodes', PATCH_FIELDS, required=('driver',),
                 uuids=('chassis_uuid', 'instance_uuid'))
# instance_name (1.104): not empty, as Ironic's schema.
for _schema in (CREATE, PATCHED):
    _schema['properties']['instance_name']['minLength'] = 1
# What a PATCH may change: console_enabled is set through its own
# endpoint in Ironic, not patched.
PATCH_ALLOWED = frozenset(PATCH_FIELDS) - {'console_enabled'}
# Fields a PATCH may not change (Ironic answers "Cannot patch /<f>. Only
# the following can be updated: ..."): every other field of the body, each
# once (uuid and console_enabled included), alphabetically.
READ_ONLY = tuple(sorted(
    set(mv.NODE_FIELD_MIN_VERSION) - PATCH_ALLOWED
    - set(mv.NODE_LINK_FIELDS)))

# PUT .../states/console: Ironic's boolean handler argument.
CONSOLE = s.body('nodes', {'enabled': ('string', 'boolean')},
                 required=('enabled',))
POWER = s.body('nodes', {'target': ('string',),
                         'timeout': ('integer', 'string', 'null')},
               required=('target',))
PROVISION = s.body('nodes', {
    'target': ('string',),
    'configdrive': ('string', 'object', 'null'),
    'clean_steps': s.LIST_,
    'deploy_steps': s.LIST_,
    'rescue_password': s.TEXT,
    'disable_ramdisk': s.BOOL,
    'service_steps': s.LIST_,
    # A runbook's UUID or name (1.92: runbook_use).
    'runbook': s.TEXT,
}, required=('target',), columns={'configdrive': 'instance_info',
                                  'runbook': 'name'})
# Kept in instance_info while the node is rescued: a length limit of its
# own (Ironic has none), so that it cannot fill the column.
PROVISION['properties']['rescue_password']['maxLength'] = 255
# PUT .../states/boot_mode and .../states/secure_boot (1.76): Ironic's
# handler argument ``target``, read by the handler as Ironic's args.string
# (a string or null) and args.boolean (any JSON value, as its string).
BOOT_SETTING = {'type': 'object', 'properties': {'target': {}},
                'required': ['target'], 'additionalProperties': False}

# PUT .../states/raid (1.12): the body is the target RAID configuration,
# Ironic's ``args.types(dict)``; its contents are the RAID interface's to
# check (on the conductor), its size the column's.
RAID = {'type': 'object',
        'description': 'the target RAID configuration (``logical_disks``); '
                       '``{}`` clears it',
        'maxBytes': objects_base.column_limits('nodes')[
            'target_raid_config'][1]}
MAINTENANCE = s.body('nodes', {'reason': s.TEXT},
                     columns={'reason': 'maintenance_reason'})

LIST_QUERY = s.PAGING + (
    v.Param('associated', v.BOOL, doc='with (or without) an instance'),
    v.Param('maintenance', v.BOOL),
    v.Param('chassis_uuid', v.UUID),
    v.Param('instance_uuid', v.UUID),
    s.fields_param(),
    v.Param('provision_state', since=mv.MINOR_9_PROVISION_STATE_FILTER),
    v.Param('driver', since=mv.MINOR_16_DRIVER_FILTER, gate=v.GATE_VERSION),
    v.Param('resource_class', since=mv.MINOR_21_RESOURCE_CLASS,
            gate=v.GATE_VERSION),
    v.Param('fault', since=mv.MINOR_42_FAULT, gate=v.GATE_VERSION),
    s.detail_param(),
    v.Param('conductor_group', since=mv.MINOR_46_NODE_CONDUCTOR_GROUP,
            gate=v.GATE_VERSION),
    v.Param('conductor', since=mv.MINOR_49_CONDUCTORS, gate=v.GATE_VERSION),
    v.Param('owner', since=mv.MINOR_50_NODE_OWNER, gate=v.GATE_VERSION),
    # Not version-gated by Ironic's node list (older requests are served).
    v.Param('description_contains'),
    v.Param('retired', v.BOOL),
    v.Param('project', doc='owner or lessee'),
    v.Param('lessee', since=mv.MINOR_65_NODE_LESSEE, gate=v.GATE_VERSION),
    v.Param('shard', v.LIST, since=mv.MINOR_82_NODE_SHARD,
            gate=v.GATE_VERSION,
            doc='shard names; none, None or null: the unsharded nodes'),
    v.Param('sharded', v.BOOL, since=mv.MINOR_82_NODE_SHARD,
            gate=v.GATE_VERSION),
    v.Param('include_children', v.BOOL,
            since=mv.MINOR_83_PARENT_CHILD_NODES, gate=v.GATE_VERSION,
            doc='true: child nodes too (they are left out otherwise)'),
    v.Param('parent_node', since=mv.MINOR_83_PARENT_CHILD_NODES,
            gate=v.GATE_VERSION,
            doc="the children of the node of this UUID (not a name, as "
                "Ironic); ignored with include_children=true"),
    v.Param('instance_name', since=mv.MINOR_104_NODE_INSTANCE_NAME,
            gate=v.GATE_VERSION, doc='the instance\'s name, exactly'),
)
SHOW_QUERY = (s.fields_param(),)
VALIDATE_QUERY = (
    v.Param('node', doc='UUID or name of the node'),
    v.Param('node_uuid', v.UUID, doc='deprecated: use node'))
