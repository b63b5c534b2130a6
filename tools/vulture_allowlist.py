# flake8: noqa  (vulture reads this file; it is never run)
# Names vulture (``--min-confidence 60``) reports as unused in ironic_lite/
# that are used all the same, by name, from outside Python's view.  One
# line per name (a name listed once covers every module), grouped by why,
# with the modules that define it and no line numbers: a line number goes
# stale with the next edit above it, and nothing reads it.
#
# tests/unit/test_dead_code.py runs vulture with this file: a new unused
# name fails it.  Delete dead code rather than listing it here.  A name
# listed that vulture no longer reports would hide the next dead one of
# that spelling: the test fails on it too.  To see what vulture reports:
# vulture ironic_lite --min-confidence 60 (without this file).

# -- setup.cfg: the console scripts' entry points --
run_api  # cmd/scripts.py
run_conductor  # cmd/scripts.py
run_lite  # cmd/scripts.py
run_dbsync  # cmd/scripts.py
run_status  # cmd/scripts.py

# -- pecan: the hook methods
#    (pecan calls them by name) --
_.on_error  # hooks.py
_.on_route  # hooks.py
_.charset  # api/middleware.py: webob's response attribute

# -- api/microversions.py: the ordered list of every microversion, kept
#    whole as the API's history --
MINOR_3_DRIVER_INTERNAL_INFO
MINOR_4_MANAGEABLE_STATE
MINOR_6_INSPECT_STATE
MINOR_7_NODE_CLEAN
MINOR_8_FETCHING_SUBSET_OF_FIELDS
MINOR_10_UNRESTRICTED_NODE_NAME
MINOR_13_ABORT_VERB
MINOR_14_LINKS_NODESTATES_DRIVERPROPERTIES
MINOR_15_MANUAL_CLEAN
MINOR_17_ADOPT_VERB
MINOR_18_PORT_INTERNAL_INFO
MINOR_19_PORT_ADVANCED_NET_FIELDS
MINOR_20_NETWORK_INTERFACE
MINOR_23_PORTGROUPS
MINOR_31_DYNAMIC_INTERFACES
MINOR_33_STORAGE_INTERFACE
MINOR_34_PORT_PHYSICAL_NETWORK
MINOR_38_RESCUE_INTERFACE
MINOR_43_ENABLE_DETAIL_QUERY
MINOR_44_NODE_DEPLOY_STEP
MINOR_47_NODE_AUTOMATED_CLEAN
MINOR_48_NODE_PROTECTED
MINOR_51_NODE_DESCRIPTION
MINOR_53_PORT_SMARTNIC
MINOR_54_EVENTS
MINOR_59_CONFIGDRIVE_VENDOR_DATA
MINOR_61_NODE_RETIRED
MINOR_63_INDICATORS
MINOR_64_LOCAL_LINK_CONNECTION_NETWORK_TYPE
MINOR_66_NODE_NETWORK_DATA
MINOR_71_RBAC_SCOPES
MINOR_73_DEPLOY_UNDEPLOY_VERBS
MINOR_75_NODE_BOOT_MODE
MINOR_79_ALLOCATION_NODE_NAME
MINOR_80_PROJECT_CREATE_DELETE_NODE
# Ironic 39's microversions 1.86-1.115, defined ahead of the changes that
# serve them (release 6.0): each leaves this list when a gate uses it.
MINOR_99_PORT_PORTGROUP_CONDUCTOR_GROUP_FILTER
MINOR_106_PORTGROUP_SHARD
MINOR_107_X_OPENSTACK_REQUEST_ID

# -- db/models.py columns, and the object fields the flows set (the ORM
#    and oslo.versionedobjects read them) --
bios_interface
boot_interface
console_interface
duration_seconds  # NodeHistory column (1.115); the ORM writes it
firmware_interface
initial_version  # FirmwareComponent: db/firmware.py row.update()
available_for_dynamic_portgroup  # Port: port bodies read it by name (_SHOWN)
inspect_interface
is_smartnic  # Port: port bodies read it by name (_SHOWN)
last_version_flashed  # FirmwareComponent: db/firmware.py row.update()
local_link_connection  # Port: port bodies read it by name (_SHOWN)
_.inspection_finished_at  # column; set by conductor/inspection.py
_.inspection_started_at  # column; set by conductor/inspection.py
network_data
power_interface
protected_reason  # conductor/utils.py reads it by name (_FLAG_RULES)
raid_interface
rescue_interface
retired_reason  # conductor/utils.py reads it by name (_FLAG_RULES)
shard_key  # ShardCount's key: written and read by db/shard_counts.py's SQL
vendor_interface

# -- common/states.py: kept as the state machine's vocabulary --
DELETED
DEPLOYDONE
REBUILD

# -- framework hooks and attributes --
client_timeout  # common/rpc.py: oslo.messaging's dispatcher reads it
_.deserialize_context  # common/rpc.py: an oslo.messaging Serializer
task_class  # common/wsgi.py: waitress
channel_class  # common/wsgi.py: waitress
tb  # conductor/task_manager.py: __exit__'s parameter
_sqlite_on_connect  # db/api.py: SQLAlchemy event listener
_sqlite_begin  # db/api.py: SQLAlchemy event listener
_end_autocommit_read  # db/api.py: SQLAlchemy pool event listener
_read_only_is_disconnect  # db/api.py: SQLAlchemy event listener
_.autocommit  # db/api.py: psycopg2's switch, read by the driver
inherit_cache  # db/exact.py: SQLAlchemy's statement cache flag
cache_ok  # db/models.py: SQLAlchemy's statement cache flag
_.process_bind_param  # db/models.py: SQLAlchemy TypeDecorator
_.process_result_value  # db/models.py: SQLAlchemy TypeDecorator
_.basetype  # api/types.py: WSME's UserType (wsme.rest.args reads it)
_.frombasetype  # api/types.py: WSME's UserType (from_param calls it)
_.registration_hook  # objects/base.py: oslo.versionedobjects
OBJ_SERIAL_NAMESPACE  # objects/base.py: oslo.versionedobjects
OBJ_BASE_CLASS  # objects/base.py: oslo.versionedobjects
obj_relationships  # objects/node.py: oslo.versionedobjects
_._obj_from_primitive  # objects/base.py: oslo.versionedobjects (obj_from_primitive)

# -- entry points named in setup.cfg, and the WSGI application --
DrainingCheck  # api/healthcheck.py: an oslo.middleware health check
get_oslo_policy_enforcer  # common/policy.py: oslo.policy's generators
update_opt_defaults  # conf/opts.py: oslo-config-generator
OUTPUT  # api/schemas/reference.py: tools/gen-api-reference.py

# -- read by the tests only, kept as the objects' and the pool's API --

# -- release 4.0: called by name (conductor/rescue.py; conductor/steps.py
#    reads the clean and deploy steps of an interface; task.driver.interface()
#    by type) --
_.unrescue  # conductor/rescue.py: getattr(rescue interface, operation)
_.deploy_template_id  # column of deploy_template_steps (the ORM writes it)
_.apply_configuration  # fake BIOS clean and deploy step, run by its name
_.factory_reset  # fake BIOS clean and deploy step
_.log_passthrough  # fake vendor clean step
_.trigger_servicewait  # fake vendor service step (API 1.87), called by name

# -- release 5.0: columns of bios_settings and node_history (the ORM writes
#    them from the settings' and events' dicts) --
_.attribute_type
_.allowable_values
_.lower_bound
_.max_length
_.min_length
_.reset_required
_.upper_bound
_.event_type
# -- release 5.0: SQLAlchemy's TypeDecorator hook. --
_.load_dialect_impl  # db/models.py LongJSONEncodedDict: SQLAlchemy calls it

# -- release 5.0: vendor passthru methods, called by their name (the API's
#    ?method=) through VendorInterface.vendor_routes / driver_routes --
_.create_configuration  # fake RAID clean and deploy step, run by its name
_.delete_configuration  # fake RAID clean and deploy step, run by its name
_.first_method  # fake vendor passthru method
_.second_method  # fake vendor passthru method
_.third_method_sync  # fake vendor passthru method
_.fourth_method_shared_lock  # fake vendor passthru method
driver_passthru  # drivers/base.py: marks a hardware type's vendor methods

# -- release 6.0: prometheus_client reads it when a sample takes storage --
_.ValueClass  # common/metrics.py share_across_processes: multiprocess mode
