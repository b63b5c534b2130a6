"""Bare Metal (Ironic) v1 API microversion data for ironic-lite.

Pure data, no behaviour.  Everything here describes the *real* OpenStack
Ironic API so that ironic-lite can gate features exactly like upstream:

* ``VERSIONS`` - every microversion ironic-lite serves, from 1.1 up, as
  ``(minor, NAME, comment)``; every NAME is also a module constant.  The
  last entry is the newest microversion this code implements and serves
  unpinned (a cut release records it in its ``RELEASE_MAPPING`` entry).
  A microversion is added here in the change that implements it.
* ``*_FIELD_MIN_VERSION`` - first minor version at which a key appears in
  the JSON body of a node or a driver.  A key missing from such a dict does
  not exist at all at the newest version served.  Each CRUD resource
  (ports, port groups, chassis, conductors, volume connectors and targets,
  allocations, deploy templates) keeps its own table beside its declaration
  (``FIELD_MIN_VERSION`` of ``api/controllers/v1/<noun>.py``).
* The query parameters of each route, with the microversion each appears
  at, are declared in the request contract (``ironic_lite.api.schemas``).

Where the numbers come from (upstream openstack/ironic):
``ironic/api/controllers/v1/versions.py`` (names 1-72, verbatim),
``ironic/api/controllers/v1/utils.py`` (VERSIONED_FIELDS, MIN_VERB_VERSIONS
and the check_allow_* gates; also the names 73, 74, 75, 78, 81, 82),
the controllers ``node.py``, ``port.py``, ``portgroup.py``, ``chassis.py``
and ``conductor.py``, and
``openstack/ironic:doc/source/contributor/webapi-version-history.rst``.
The names for 76, 77, 79 and 80 are from memory and were not seen in source
here; they are marked below.
"""

BASE_VERSION = 1

# Upstream Ironic's minimum microversion; 1.0 (Juno) was never supported.
# Requests without a version header are treated as this version.
MIN_VERSION = (1, 1)

# (minor, constant name, what changed)
VERSIONS = [
    (1, 'MINOR_1_INITIAL_VERSION',
     'Kilo baseline when versioning was added: maintenance_reason, '
     'maintenance endpoint, sync/async vendor passthru, config drive'),
    (2, 'MINOR_2_AVAILABLE_STATE',
     'NOSTATE (null) provision state renamed to "available"'),
    (3, 'MINOR_3_DRIVER_INTERNAL_INFO', 'node.driver_internal_info'),
    (4, 'MINOR_4_MANAGEABLE_STATE',
     '"manageable" state with the manage/provide verbs'),
    (5, 'MINOR_5_NODE_NAME',
     'node.name; nodes addressable by name (hostname-safe names)'),
    (6, 'MINOR_6_INSPECT_STATE',
     'inspecting/inspect failed states, inspect verb, '
     'inspection_started_at/finished_at'),
    (7, 'MINOR_7_NODE_CLEAN', 'node.clean_step'),
    (8, 'MINOR_8_FETCHING_SUBSET_OF_FIELDS', '?fields= on GET'),
    (9, 'MINOR_9_PROVISION_STATE_FILTER', 'node list ?provision_state='),
    (10, 'MINOR_10_UNRESTRICTED_NODE_NAME',
     'node names may use any RFC 3986 unreserved characters'),
    (11, 'MINOR_11_ENROLL_STATE', 'new nodes start in "enroll"'),
    (12, 'MINOR_12_RAID_CONFIG',
     'node.raid_config/target_raid_config, PUT states/raid'),
    (13, 'MINOR_13_ABORT_VERB', '"abort" verb (from clean wait)'),
    (14, 'MINOR_14_LINKS_NODESTATES_DRIVERPROPERTIES',
     'node "states" link, driver "properties" link'),
    (15, 'MINOR_15_MANUAL_CLEAN', '"clean" verb with clean_steps'),
    (16, 'MINOR_16_DRIVER_FILTER', 'node list ?driver='),
    (17, 'MINOR_17_ADOPT_VERB', '"adopt" verb'),
    (18, 'MINOR_18_PORT_INTERNAL_INFO', 'port.internal_info (read-only)'),
    (19, 'MINOR_19_PORT_ADVANCED_NET_FIELDS',
     'port.local_link_connection and port.pxe_enabled'),
    (20, 'MINOR_20_NETWORK_INTERFACE', 'node.network_interface'),
    (21, 'MINOR_21_RESOURCE_CLASS',
     'node.resource_class and ?resource_class='),
    (22, 'MINOR_22_LOOKUP_HEARTBEAT',
     'ramdisk /v1/lookup and /v1/heartbeat endpoints'),
    (23, 'MINOR_23_PORTGROUPS', '/v1/portgroups'),
    (24, 'MINOR_24_PORTGROUPS_SUBCONTROLLERS',
     '/v1/nodes/<n>/portgroups, /v1/portgroups/<pg>/ports, '
     'port.portgroup_uuid, port list ?portgroup='),
    (25, 'MINOR_25_UNSET_CHASSIS_UUID', 'node chassis_uuid can be removed'),
    (26, 'MINOR_26_PORTGROUP_MODE_PROPERTIES',
     'portgroup.mode and portgroup.properties'),
    (27, 'MINOR_27_SOFT_POWER_OFF',
     'soft rebooting / soft power off targets and power "timeout"'),
    (28, 'MINOR_28_VIFS_SUBCONTROLLER', '/v1/nodes/<n>/vifs'),
    (29, 'MINOR_29_INJECT_NMI', 'PUT /v1/nodes/<n>/management/inject_nmi'),
    (30, 'MINOR_30_DYNAMIC_DRIVERS',
     'driver list ?type= and ?detail=, dynamic driver fields'),
    (31, 'MINOR_31_DYNAMIC_INTERFACES',
     'node boot/console/deploy/inspect/management/power/raid/'
     'vendor_interface'),
    (32, 'MINOR_32_VOLUME',
     '/v1/volume connectors and targets, node "volume" link'),
    (33, 'MINOR_33_STORAGE_INTERFACE', 'node.storage_interface'),
    (34, 'MINOR_34_PORT_PHYSICAL_NETWORK', 'port.physical_network'),
    (35, 'MINOR_35_REBUILD_CONFIG_DRIVE', 'configdrive with "rebuild"'),
    (36, 'MINOR_36_AGENT_VERSION_HEARTBEAT', 'agent_version in heartbeat'),
    (37, 'MINOR_37_NODE_TRAITS', 'node.traits, /v1/nodes/<n>/traits'),
    (38, 'MINOR_38_RESCUE_INTERFACE',
     'rescue/unrescue verbs, node.rescue_interface'),
    (39, 'MINOR_39_INSPECT_WAIT',
     '"inspect wait" state (shown as "inspecting" to older clients); '
     'nodes in "inspecting" can no longer be PATCHed'),
    (40, 'MINOR_40_BIOS_INTERFACE',
     'node.bios_interface, /v1/nodes/<n>/bios'),
    (41, 'MINOR_41_INSPECTION_ABORT', '"abort" from "inspect wait"'),
    (42, 'MINOR_42_FAULT', 'node.fault and ?fault='),
    (43, 'MINOR_43_ENABLE_DETAIL_QUERY', '?detail=True on list endpoints'),
    (44, 'MINOR_44_NODE_DEPLOY_STEP', 'node.deploy_step'),
    (45, 'MINOR_45_RESET_INTERFACES', 'PATCH node ?reset_interfaces='),
    (46, 'MINOR_46_NODE_CONDUCTOR_GROUP',
     'node.conductor_group and ?conductor_group='),
    (47, 'MINOR_47_NODE_AUTOMATED_CLEAN', 'node.automated_clean'),
    (48, 'MINOR_48_NODE_PROTECTED', 'node.protected/protected_reason'),
    (49, 'MINOR_49_CONDUCTORS',
     '/v1/conductors, node.conductor, node list ?conductor='),
    (50, 'MINOR_50_NODE_OWNER', 'node.owner and ?owner='),
    (51, 'MINOR_51_NODE_DESCRIPTION',
     'node.description and ?description_contains='),
    (52, 'MINOR_52_ALLOCATION', '/v1/allocations, node.allocation_uuid'),
    (53, 'MINOR_53_PORT_SMARTNIC', 'port.is_smartnic'),
    (54, 'MINOR_54_EVENTS', 'POST /v1/events'),
    (55, 'MINOR_55_DEPLOY_TEMPLATES', '/v1/deploy_templates'),
    (56, 'MINOR_56_BUILD_CONFIGDRIVE', 'configdrive given as a JSON object'),
    (57, 'MINOR_57_ALLOCATION_UPDATE', 'PATCH allocations'),
    (58, 'MINOR_58_ALLOCATION_BACKFILL', 'allocation backfill'),
    (59, 'MINOR_59_CONFIGDRIVE_VENDOR_DATA', 'configdrive vendor_data'),
    (60, 'MINOR_60_ALLOCATION_OWNER', 'allocation.owner'),
    (61, 'MINOR_61_NODE_RETIRED',
     'node.retired/retired_reason and ?retired='),
    (62, 'MINOR_62_AGENT_TOKEN', 'agent token for agent communication'),
    (63, 'MINOR_63_INDICATORS', 'management/indicators endpoints'),
    (64, 'MINOR_64_LOCAL_LINK_CONNECTION_NETWORK_TYPE',
     'port local_link_connection.network_type'),
    (65, 'MINOR_65_NODE_LESSEE', 'node.lessee and ?lessee='),
    (66, 'MINOR_66_NODE_NETWORK_DATA', 'node.network_data'),
    (67, 'MINOR_67_NODE_VIF_ATTACH_PORT',
     'port_uuid/portgroup_uuid on VIF attach'),
    (68, 'MINOR_68_HEARTBEAT_VERIFY_CA', 'agent_verify_ca in heartbeat'),
    (69, 'MINOR_69_DEPLOY_STEPS', 'deploy_steps in provisioning requests'),
    (70, 'MINOR_70_CLEAN_DISABLE_RAMDISK',
     'disable_ramdisk for manual cleaning'),
    (71, 'MINOR_71_RBAC_SCOPES',
     'marks the scope-based RBAC defaults (no API shape change)'),
    (72, 'MINOR_72_HEARTBEAT_STATUS',
     'agent_status/agent_status_message in heartbeat'),
    (73, 'MINOR_73_DEPLOY_UNDEPLOY_VERBS',
     '"deploy" and "undeploy" aliases for "active" and "deleted"'),
    (74, 'MINOR_74_BIOS_REGISTRY', 'BIOS setting registry fields'),
    (75, 'MINOR_75_NODE_BOOT_MODE',
     'node.boot_mode and node.secure_boot (read-only)'),
    # Name not seen in source here (from memory).
    (76, 'MINOR_76_NODE_CHANGE_BOOT_MODE',
     'PUT /v1/nodes/<n>/states/boot_mode and states/secure_boot'),
    # Name not seen in source here (from memory).
    (77, 'MINOR_77_DRIVER_FIELDS_SELECTOR',
     '?fields= on driver list and show'),
    (78, 'MINOR_78_NODE_HISTORY', '/v1/nodes/<n>/history'),
    # Name not seen in source here (from memory).
    (79, 'MINOR_79_ALLOCATION_NODE_NAME',
     'an allocation whose name matches a candidate node name prefers that '
     'node'),
    # Name not seen in source here (from memory).
    (80, 'MINOR_80_PROJECT_CREATE_DELETE_NODE',
     'project-scoped users can create and delete nodes they own, '
     'subject to policy'),
    (81, 'MINOR_81_NODE_INVENTORY', 'GET /v1/nodes/<n>/inventory'),
    (82, 'MINOR_82_NODE_SHARD',
     'node.shard, node list ?shard= and ?sharded=, port and port group '
     'list ?shard= (upstream: port groups only from 1.106), GET /v1/shards'),
    (83, 'MINOR_83_PARENT_CHILD_NODES',
     'node.parent_node, node list ?parent_node= and ?include_children= '
     '(child nodes are left out of node lists unless asked for), '
     'GET /v1/nodes/<n>/children'),
    (84, 'MINOR_84_CONTINUE_INSPECTION',
     'POST /v1/continue_inspection (the ramdisk\'s inspection data; also '
     'at 1.1, answering only the node\'s UUID), ?node_uuid= on it, the '
     '"agent" inspect interface'),
    (85, 'MINOR_85_UNHOLD_VERB',
     '"unhold" verb (from "clean hold" and "deploy hold", where the "hold" '
     'clean or deploy step leaves a node)'),
    (86, 'MINOR_86_FIRMWARE_INTERFACE',
     'node.firmware_interface, driver default_firmware_interface and '
     'enabled_firmware_interfaces, GET /v1/nodes/<n>/firmware'),
    (87, 'MINOR_87_SERVICE',
     '"service" verb with service_steps (from active, service hold and '
     'service failed), the servicing states, node.service_step'),
    (88, 'MINOR_88_PORT_NAME',
     'port.name (unique; a port is looked up by name too, at every '
     'version)'),
    (89, 'MINOR_89_ATTACH_DETACH_VMEDIA',
     'POST and DELETE /v1/nodes/<n>/vmedia (attach and detach a virtual '
     'media device)'),
    (90, 'MINOR_90_OVN_VTEP',
     'port local_link_connection vtep-logical-switch and '
     'vtep-physical-switch (OVN VTEP switches; served until 1.104)'),
    (91, 'MINOR_91_DOT_JSON',
     'a final ".json" of a node or port group name in a path is part of '
     'the name (below 1.91 it is dropped)'),
    (92, 'MINOR_92_RUNBOOKS',
     '/v1/runbooks (named lists of clean steps a node with a matching '
     'trait may run), "runbook" of the clean verb'),
    (93, 'MINOR_93_GET_VMEDIA',
     'GET /v1/nodes/<n>/vmedia (the virtual media devices)'),
    (94, 'MINOR_94_PORT_NODENAME',
     'port create with node_ident (the node by UUID or name) instead of '
     'node_uuid'),
    (95, 'MINOR_95_DISABLE_POWER_OFF',
     'node.disable_power_off (power off refused, reboots instead)'),
    (96, 'MINOR_96_INSPECTION_RULES',
     '/v1/inspection_rules (rules applied to the node at each '
     'inspection)'),
    (97, 'MINOR_97_PORT_DESCRIPTION',
     'port.description (port list ?description_contains= at every '
     'version, as Ironic)'),
    (98, 'MINOR_98_SUPPORT_SPECIAL_CHAR_IN_ATTRIBUTES',
     'the field a PATCH path names is read with RFC 6901\'s escapes '
     '(~0, ~1) decoded (deeper keys, /extra/a~1b, at every version)'),
    (99, 'MINOR_99_PORT_PORTGROUP_CONDUCTOR_GROUP_FILTER',
     'port and port group list ?conductor_groups= (served at every '
     'version, as Ironic: this only records it)'),
    (100, 'MINOR_100_PORT_VENDOR', 'port.vendor'),
    (101, 'MINOR_101_PORT_CATEGORY', 'port.category'),
    (102, 'MINOR_102_PORTGROUP_PHYSICAL_NETWORK',
     'portgroup.physical_network, which its ports follow (a port\'s own '
     'can no longer be changed while it is in a port group)'),
    (103, 'MINOR_103_PORTGROUP_CATEGORY', 'portgroup.category'),
    (104, 'MINOR_104_NODE_INSTANCE_NAME',
     'node.instance_name (settable), node list ?instance_name='),
    (105, 'MINOR_105_REMOVE_OVN_VTEP',
     'the OVN vtep switches of 1.90 removed (a port is created with them '
     'no more; a local_link_connection with them shows as {})'),
    (106, 'MINOR_106_PORTGROUP_SHARD',
     'port group list ?shard= (ironic-lite serves it from 1.82: see '
     'doc/source/api/differences.rst)'),
    (107, 'MINOR_107_X_OPENSTACK_REQUEST_ID',
     'the request id in X-OpenStack-Request-Id as well as '
     'OpenStack-Request-Id (on every response, whatever the version)'),
    (108, 'MINOR_108_SERVICE_DISABLE_RAMDISK',
     'disable_ramdisk with the "service" verb'),
    (109, 'MINOR_109_NODE_HEALTH',
     'node.health (read only: the BMC\'s health of the system)'),
    (110, 'MINOR_110_DEPLOYWAIT_ABORT', '"abort" from "wait call-back"'),
    (111, 'MINOR_111_DYNAMIC_PORTGROUP',
     'port.available_for_dynamic_portgroup, portgroup.dynamic_portgroup '
     '(read-only)'),
    (112, 'MINOR_112_RUNBOOK_TRAITS',
     'runbook traits (/v1/runbooks/<r>/traits; a node with one of them '
     'may run the runbook), runbook description, runbook names of any '
     'RFC 3986 unreserved characters'),
    (113, 'MINOR_113_NODE_HISTORY_PROJECT',
     'node history events (detailed) show the project of the request that '
     'made them'),
    (114, 'MINOR_114_FIRMWARE_IDENTITY',
     'vendor, model and serial_number of firmware components'),
    (115, 'MINOR_115_NODE_HISTORY_FIELDS',
     'node history events (detailed) show state, target_provision_state '
     'and duration_seconds (the time spent in the previous state)'),
]

# Module constants, one per name above (kept explicit so editors and grep
# can find them).
MINOR_1_INITIAL_VERSION = 1
MINOR_2_AVAILABLE_STATE = 2
MINOR_3_DRIVER_INTERNAL_INFO = 3
MINOR_4_MANAGEABLE_STATE = 4
MINOR_5_NODE_NAME = 5
MINOR_6_INSPECT_STATE = 6
MINOR_7_NODE_CLEAN = 7
MINOR_8_FETCHING_SUBSET_OF_FIELDS = 8
MINOR_9_PROVISION_STATE_FILTER = 9
MINOR_10_UNRESTRICTED_NODE_NAME = 10
MINOR_11_ENROLL_STATE = 11
MINOR_12_RAID_CONFIG = 12
MINOR_13_ABORT_VERB = 13
MINOR_14_LINKS_NODESTATES_DRIVERPROPERTIES = 14
MINOR_15_MANUAL_CLEAN = 15
MINOR_16_DRIVER_FILTER = 16
MINOR_17_ADOPT_VERB = 17
MINOR_18_PORT_INTERNAL_INFO = 18
MINOR_19_PORT_ADVANCED_NET_FIELDS = 19
MINOR_20_NETWORK_INTERFACE = 20
MINOR_21_RESOURCE_CLASS = 21
MINOR_22_LOOKUP_HEARTBEAT = 22
MINOR_23_PORTGROUPS = 23
MINOR_24_PORTGROUPS_SUBCONTROLLERS = 24
MINOR_25_UNSET_CHASSIS_UUID = 25
MINOR_26_PORTGROUP_MODE_PROPERTIES = 26
MINOR_27_SOFT_POWER_OFF = 27
MINOR_28_VIFS_SUBCONTROLLER = 28
MINOR_29_INJECT_NMI = 29
MINOR_30_DYNAMIC_DRIVERS = 30
MINOR_31_DYNAMIC_INTERFACES = 31
MINOR_32_VOLUME = 32
MINOR_33_STORAGE_INTERFACE = 33
MINOR_34_PORT_PHYSICAL_NETWORK = 34
MINOR_35_REBUILD_CONFIG_DRIVE = 35
MINOR_36_AGENT_VERSION_HEARTBEAT = 36
MINOR_37_NODE_TRAITS = 37
MINOR_38_RESCUE_INTERFACE = 38
MINOR_39_INSPECT_WAIT = 39
MINOR_40_BIOS_INTERFACE = 40
MINOR_41_INSPECTION_ABORT = 41
MINOR_42_FAULT = 42
MINOR_43_ENABLE_DETAIL_QUERY = 43
MINOR_44_NODE_DEPLOY_STEP = 44
MINOR_45_RESET_INTERFACES = 45
MINOR_46_NODE_CONDUCTOR_GROUP = 46
MINOR_47_NODE_AUTOMATED_CLEAN = 47
MINOR_48_NODE_PROTECTED = 48
MINOR_49_CONDUCTORS = 49
MINOR_50_NODE_OWNER = 50
MINOR_51_NODE_DESCRIPTION = 51
MINOR_52_ALLOCATION = 52
MINOR_53_PORT_SMARTNIC = 53
MINOR_54_EVENTS = 54
MINOR_55_DEPLOY_TEMPLATES = 55
MINOR_56_BUILD_CONFIGDRIVE = 56
MINOR_57_ALLOCATION_UPDATE = 57
MINOR_58_ALLOCATION_BACKFILL = 58
MINOR_59_CONFIGDRIVE_VENDOR_DATA = 59
MINOR_60_ALLOCATION_OWNER = 60
MINOR_61_NODE_RETIRED = 61
MINOR_62_AGENT_TOKEN = 62
MINOR_63_INDICATORS = 63
MINOR_64_LOCAL_LINK_CONNECTION_NETWORK_TYPE = 64
MINOR_65_NODE_LESSEE = 65
MINOR_66_NODE_NETWORK_DATA = 66
MINOR_67_NODE_VIF_ATTACH_PORT = 67
MINOR_68_HEARTBEAT_VERIFY_CA = 68
MINOR_69_DEPLOY_STEPS = 69
MINOR_70_CLEAN_DISABLE_RAMDISK = 70
MINOR_71_RBAC_SCOPES = 71
MINOR_72_HEARTBEAT_STATUS = 72
MINOR_73_DEPLOY_UNDEPLOY_VERBS = 73
MINOR_74_BIOS_REGISTRY = 74
MINOR_75_NODE_BOOT_MODE = 75
MINOR_76_NODE_CHANGE_BOOT_MODE = 76
MINOR_77_DRIVER_FIELDS_SELECTOR = 77
MINOR_78_NODE_HISTORY = 78
MINOR_79_ALLOCATION_NODE_NAME = 79
MINOR_80_PROJECT_CREATE_DELETE_NODE = 80
MINOR_81_NODE_INVENTORY = 81
MINOR_82_NODE_SHARD = 82
MINOR_83_PARENT_CHILD_NODES = 83
MINOR_84_CONTINUE_INSPECTION = 84
MINOR_85_UNHOLD_VERB = 85
# Ironic 39's later microversions (versions.py): a constant is defined
# before its entry in VERSIONS, which alone says what is served.
MINOR_86_FIRMWARE_INTERFACE = 86
MINOR_87_SERVICE = 87
MINOR_88_PORT_NAME = 88
MINOR_89_ATTACH_DETACH_VMEDIA = 89
MINOR_90_OVN_VTEP = 90
MINOR_91_DOT_JSON = 91
MINOR_92_RUNBOOKS = 92
MINOR_93_GET_VMEDIA = 93
MINOR_94_PORT_NODENAME = 94
MINOR_95_DISABLE_POWER_OFF = 95
MINOR_96_INSPECTION_RULES = 96
MINOR_97_PORT_DESCRIPTION = 97
MINOR_98_SUPPORT_SPECIAL_CHAR_IN_ATTRIBUTES = 98
MINOR_99_PORT_PORTGROUP_CONDUCTOR_GROUP_FILTER = 99
MINOR_100_PORT_VENDOR = 100
MINOR_101_PORT_CATEGORY = 101
MINOR_102_PORTGROUP_PHYSICAL_NETWORK = 102
MINOR_103_PORTGROUP_CATEGORY = 103
MINOR_104_NODE_INSTANCE_NAME = 104
MINOR_105_REMOVE_OVN_VTEP = 105
MINOR_106_PORTGROUP_SHARD = 106
MINOR_107_X_OPENSTACK_REQUEST_ID = 107
MINOR_108_SERVICE_DISABLE_RAMDISK = 108
MINOR_109_NODE_HEALTH = 109
MINOR_110_DEPLOYWAIT_ABORT = 110
MINOR_111_DYNAMIC_PORTGROUP = 111
MINOR_112_RUNBOOK_TRAITS = 112
MINOR_113_NODE_HISTORY_PROJECT = 113
MINOR_114_FIRMWARE_IDENTITY = 114
MINOR_115_NODE_HISTORY_FIELDS = 115

# The highest microversion served: the last of VERSIONS, defined there
# only (the release mapping's ``master`` reads MAX_VERSION_STRING).  The
# real upstream maximum is much higher (1.115 in Ironic 39).
MINOR_MAX_VERSION = VERSIONS[-1][0]
MAX_VERSION = (BASE_VERSION, MINOR_MAX_VERSION)
MAX_VERSION_STRING = '%d.%d' % MAX_VERSION


# /v1/shards (GET only) needs 1.82: below that GET is a 404 and any other
# method a 405, both "The API version does not allow shards".
SHARDS_MIN_VERSION = MINOR_82_NODE_SHARD


# ---------------------------------------------------------------------------
# Provisioning verbs: value of "target" in PUT /v1/nodes/<n>/states/provision
# -> minimum minor version (utils.MIN_VERB_VERSIONS).  Verbs not listed work
# from 1.1.  A verb that is too new for the request gets 406.
# ---------------------------------------------------------------------------
PROVISION_VERB_MIN_VERSION = {
    'active': 1,
    'deleted': 1,
    'rebuild': 1,
    'manage': 4,
    'provide': 4,
    'inspect': 6,
    'abort': 13,       # abort from "inspect wait" also needs 41
    'clean': 15,
    'adopt': 17,
    'rescue': 38,
    'unrescue': 38,
    'deploy': 73,      # alias of 'active'
    'undeploy': 73,    # alias of 'deleted'
    'unhold': MINOR_85_UNHOLD_VERB,
}

# Power targets for PUT /v1/nodes/<n>/states/power -> minimum minor version.
# The "timeout" body key also needs 27.
POWER_TARGET_MIN_VERSION = {
    'power on': 1,
    'power off': 1,
    'rebooting': 1,
    'soft power off': 27,
    'soft rebooting': 27,
}


# ---------------------------------------------------------------------------
# Node fields
# ---------------------------------------------------------------------------
NODE_FIELD_MIN_VERSION = {
    # Present from 1.1.
    'uuid': 1,
    'created_at': 1,
    'updated_at': 1,
    'chassis_uuid': 1,
    'console_enabled': 1,
    'driver': 1,
    'driver_info': 1,
    'extra': 1,
    'instance_info': 1,
    'instance_uuid': 1,
    'last_error': 1,
    'maintenance': 1,
    'maintenance_reason': 1,
    'power_state': 1,
    'properties': 1,
    'provision_state': 1,   # null instead of "available" below 1.2
    'provision_updated_at': 1,
    'reservation': 1,
    'target_power_state': 1,
    'target_provision_state': 1,
    'links': 1,             # [self, bookmark]; kept even with ?fields=
    # Versioned fields (utils.VERSIONED_FIELDS).
    'driver_internal_info': 3,
    'name': 5,
    'inspection_started_at': 6,
    'inspection_finished_at': 6,
    'clean_step': 7,
    'raid_config': 12,
    'target_raid_config': 12,
    'network_interface': 20,
    'resource_class': 21,
    'boot_interface': 31,
    'console_interface': 31,
    'deploy_interface': 31,
    'inspect_interface': 31,
    'management_interface': 31,
    'power_interface': 31,
    'raid_interface': 31,
    'vendor_interface': 31,
    'storage_interface': 33,
    'traits': 37,
    'rescue_interface': 38,
    'bios_interface': 40,
    'fault': 42,
    'deploy_step': 44,
    'conductor_group': 46,
    'automated_clean': 47,
    'protected': 48,
    'protected_reason': 48,
    'conductor': 49,
    'owner': 50,
    'description': 51,
    'allocation_uuid': 52,
    'retired': 61,
    'retired_reason': 61,
    'lessee': 65,
    'network_data': 66,
    'boot_mode': 75,
    'secure_boot': 75,
    'shard': 82,       # free-form string (max 255) or null = unsharded
    'parent_node': 83,  # the parent's UUID, or null for a top-level node
    'service_step': MINOR_87_SERVICE,   # as clean_step
    'instance_name': MINOR_104_NODE_INSTANCE_NAME,
    'firmware_interface': MINOR_86_FIRMWARE_INTERFACE,
    'disable_power_off': MINOR_95_DISABLE_POWER_OFF,
    'health': MINOR_109_NODE_HEALTH,  # OK, Warning, Critical or null
    # Sub-resource links: lists of {href, rel} for self and bookmark.
    # Emitted only when ?fields= is not given.
    'ports': 1,        # sub-resource link
    'states': 14,      # sub-resource link
    'portgroups': 24,  # sub-resource link
    'volume': 32,      # sub-resource link
}

# Keys that are links to sub-resources rather than data fields.
NODE_LINK_FIELDS = ('links', 'ports', 'states', 'portgroups', 'volume')

# Keys returned by GET /v1/nodes without ?detail and without ?fields=
# (node.py _DEFAULT_RETURN_FIELDS), plus 'links'.  Each is still subject
# to NODE_FIELD_MIN_VERSION ('name' needs 1.5).
NODE_DEFAULT_LIST_FIELDS = ('instance_uuid', 'maintenance', 'power_state',
                            'provision_state', 'uuid', 'name')

# Fields that are refused as sort_key for nodes
# (NodesController.invalid_sort_key_list): 400.
NODE_INVALID_SORT_KEYS = ('properties', 'driver_info', 'extra',
                          'instance_info', 'driver_internal_info',
                          'clean_step', 'deploy_step', 'raid_config',
                          'target_raid_config', 'traits', 'network_data',
                          'service_step')


# ---------------------------------------------------------------------------
# Port groups: the whole resource needs 1.23 (/v1/portgroups answers 404
# below that); their fields: api/controllers/v1/portgroup.py
# ---------------------------------------------------------------------------
PORTGROUP_MIN_VERSION = 23


# ---------------------------------------------------------------------------
# Conductors: /v1/conductors needs 1.49 (404 below that); their fields:
# api/controllers/v1/conductor.py.
# ---------------------------------------------------------------------------
CONDUCTOR_MIN_VERSION = 49


# ---------------------------------------------------------------------------
# Driver fields (/v1/drivers: the hardware types alive conductors registered)
# ---------------------------------------------------------------------------
DRIVER_FIELD_MIN_VERSION = {
    'name': 1,
    'hosts': 1,
    'links': 1,
    'properties': 14,   # links to /v1/drivers/<name>/properties
    'type': 30,         # always "dynamic" (classic drivers are gone)
}
# default_<i>_interface / enabled_<i>_interfaces (show, and list with
# ?detail=True) from 1.30, except these (hide_fields_in_newer_versions).
DRIVER_INTERFACE_MIN_VERSION = {
    'storage': 33,
    'rescue': 38,
    'bios': 40,
    'firmware': MINOR_86_FIRMWARE_INTERFACE,
}
# The driver query parameters' versions: api/schemas/driver.py.
# The versions of paths (and of /v1's list of resources): the ``since``
# of their routes (``api/routes.py``), beside each handler.
