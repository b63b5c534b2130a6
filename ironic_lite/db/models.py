"""SQLAlchemy models.  Every table behind an object has a ``version``.

Changes here follow the DB change policy of the rolling-upgrade spec: only
additions.  A column or table that an older release reads is never dropped,
renamed or altered in the same release (tests/unit/db/test_migrations.py).
"""

import json
import re

import orjson
from oslo_db.sqlalchemy import models as oslo_models
from oslo_utils import timeutils
from sqlalchemy import BigInteger, Boolean, Column, DateTime, ForeignKey
from sqlalchemy import Index, Integer, text, true
from sqlalchemy import String, Text, UniqueConstraint
from sqlalchemy.dialects import mysql
from sqlalchemy import orm
from sqlalchemy.types import TypeDecorator


# A string compared case-sensitively on every backend (MySQL's default
# collation folds case), its unique index included.  Still PAD SPACE on
# MySQL: queries compare the bytes (db/exact.py).
CASE_SENSITIVE_STRING_255 = String(255).with_variant(
    mysql.VARCHAR(255, collation='utf8mb4_bin'), 'mysql', 'mariadb')


_LONG_NUMBER = re.compile(r'[0-9]{19}')


class JsonEncodedType(TypeDecorator):
    """A dict or list stored as JSON text (portable over every backend)."""

    impl = Text
    cache_ok = True
    type = dict

    def process_bind_param(self, value, dialect):
        if value is None:
            value = self.type()
        elif not isinstance(value, self.type):
            raise TypeError('%s stores %s objects, got %s'
                            % (type(self).__name__, self.type.__name__,
                               type(value).__name__))
        return json.dumps(value)

    def process_result_value(self, value, dialect):
        if value is None:
            return None
        if value == '{}':  # most such columns of most rows: skip the parser
            return {}
        # orjson is several times faster than the standard library (a
        # node page reads ten such columns of a thousand rows), but it
        # reads an integer beyond 64 bits as a float: text with 19 digits
        # in a row, and what orjson refuses (NaN, which json.dumps
        # writes), is read by the standard library, exactly as written.
        if _LONG_NUMBER.search(value) is None:
            try:
                return orjson.loads(value)
            except orjson.JSONDecodeError:
                pass
        return json.loads(value)


# cache_ok on every subclass: SQLAlchemy reads it from the class's own
# attributes, and a statement naming a column of a type without it is
# compiled anew each time (never cached).
class JSONEncodedDict(JsonEncodedType):
    cache_ok = True
    type = dict


class JSONEncodedList(JsonEncodedType):
    cache_ok = True
    type = list


class LongJSONEncodedDict(JSONEncodedDict):
    """A dict as JSON in LONGTEXT on MySQL/MariaDB (an inspection
    inventory can pass TEXT's 64 KiB), Text elsewhere (as Ironic's)."""

    cache_ok = True

    def load_dialect_impl(self, dialect):
        if dialect.name in ('mysql', 'mariadb'):
            return dialect.type_descriptor(mysql.LONGTEXT())
        return dialect.type_descriptor(Text())


def _now_in_seconds():
    """The time of a row's creation or update, in whole seconds.

    MySQL and MariaDB ``DATETIME`` columns hold whole seconds (MariaDB
    truncates the fraction, MySQL rounds it): a time with microseconds
    would be answered by the write that set it and lost on the next read.
    In whole seconds, every backend stores what the write answers.  The
    times set explicitly (heartbeats, ``provision_updated_at``) keep
    their microseconds.
    """
    return timeutils.utcnow().replace(microsecond=0)


class _Timestamps(object):
    """oslo.db's TimestampMixin, with times in whole seconds."""

    created_at = Column(DateTime, default=_now_in_seconds)
    updated_at = Column(DateTime, onupdate=_now_in_seconds)


class Base(_Timestamps, oslo_models.ModelBase, orm.DeclarativeBase):
    """Base of all models: created_at/updated_at and dict-like access."""


def _table_args(*args):
    return args + ({'mysql_engine': 'InnoDB', 'mysql_charset': 'utf8mb4'},)


class Chassis(Base):
    __tablename__ = 'chassis'
    __table_args__ = _table_args(
        UniqueConstraint('uuid', name='uniq_chassis0uuid'))

    id = Column(Integer, primary_key=True)
    uuid = Column(String(36))
    extra = Column(JSONEncodedDict)
    description = Column(String(255), nullable=True)
    version = Column(String(15), nullable=True)


class Conductor(Base):
    __tablename__ = 'conductors'
    __table_args__ = _table_args(
        UniqueConstraint('hostname', name='uniq_conductors0hostname'))

    id = Column(Integer, primary_key=True)
    hostname = Column(String(255), nullable=False)
    drivers = Column(JSONEncodedList)
    online = Column(Boolean, default=True)
    conductor_group = Column(String(255), nullable=False, default='',
                             server_default='')
    version = Column(String(15), nullable=True)
    # Release 7.0: {type: {interface: {'default', 'enabled'}}}, what the
    # conductor's configuration gives the nodes of the types it serves
    # (drivers/factory.published_interfaces); NULL from older conductors.
    hardware_interfaces = Column(JSONEncodedDict, nullable=True)


class Service(Base):
    """One running ironic-api or ironic-conductor process (release 3.0).

    ``name`` identifies the process within its type: the conductor's host,
    or ``host:port`` for an API.  ``updated_at`` is its heartbeat.
    """
    __tablename__ = 'services'
    __table_args__ = _table_args(
        UniqueConstraint('service_type', 'name',
                         name='uniq_services0service_type0name'))

    id = Column(Integer, primary_key=True)
    service_type = Column(String(32), nullable=False)
    name = Column(String(255), nullable=False)
    host = Column(String(255), nullable=False)
    release = Column(String(32), nullable=False)
    pin = Column(String(32), nullable=True)
    # pin_release_version = auto (pin is the computed one).
    auto_pin = Column(Boolean, nullable=False, default=False,
                      server_default='0')
    online = Column(Boolean, default=True)
    version = Column(String(15), nullable=True)


class Node(Base):
    __tablename__ = 'nodes'
    __table_args__ = _table_args(
        UniqueConstraint('uuid', name='uniq_nodes0uuid'),
        UniqueConstraint('instance_uuid', name='uniq_nodes0instance_uuid'),
        UniqueConstraint('name', name='uniq_nodes0name'),
        Index('reservation_idx', 'reservation'),
        Index('driver_idx', 'driver'),
        Index('provision_state_idx', 'provision_state'),
        Index('conductor_group_idx', 'conductor_group'),
        Index('owner_idx', 'owner'),
        Index('lessee_idx', 'lessee'),
        Index('resource_class_idx', 'resource_class'),
        Index('maintenance_idx', 'maintenance'),
        Index('shard_idx', 'shard'),
        # A parent's children (1.83), and the list of top-level nodes.
        Index('parent_node_idx', 'parent_node'),
        # A page of a shard in id order without a sort.
        # Partial on PostgreSQL, see its migration (c8f1e4b7a2d5).
        Index('shard_id_idx', 'shard', 'id',
              postgresql_where=text('shard IS NOT NULL')))

    id = Column(Integer, primary_key=True)
    uuid = Column(String(36))
    instance_uuid = Column(String(36), nullable=True)
    # Unique byte for byte: a binary collation on MySQL.
    name = Column(CASE_SENSITIVE_STRING_255, nullable=True)
    chassis_id = Column(Integer, ForeignKey('chassis.id'), nullable=True)
    power_state = Column(String(15), nullable=True)
    target_power_state = Column(String(15), nullable=True)
    provision_state = Column(String(15), nullable=True)
    target_provision_state = Column(String(15), nullable=True)
    provision_updated_at = Column(DateTime, nullable=True)
    last_error = Column(Text, nullable=True)
    instance_info = Column(JSONEncodedDict)
    properties = Column(JSONEncodedDict)
    driver = Column(String(255))
    driver_info = Column(JSONEncodedDict)
    driver_internal_info = Column(JSONEncodedDict)
    clean_step = Column(JSONEncodedDict)
    deploy_step = Column(JSONEncodedDict)
    raid_config = Column(JSONEncodedDict)
    target_raid_config = Column(JSONEncodedDict)
    # The host name of the conductor holding the node's lock.
    reservation = Column(String(255), nullable=True)
    # A random token written with each reservation; a task's
    # writes are conditional on it (fencing).  Not an object field: only
    # the DB layer and the task holding the lock see it.
    reservation_token = Column(String(36), nullable=True)
    conductor_affinity = Column(Integer,
                                ForeignKey('conductors.id',
                                           name='nodes_conductor_affinity_fk'),
                                nullable=True)
    conductor_group = Column(String(255), nullable=False, default='',
                             server_default='')
    maintenance = Column(Boolean, default=False)
    maintenance_reason = Column(Text, nullable=True)
    fault = Column(String(255), nullable=True)
    console_enabled = Column(Boolean, default=False)
    inspection_finished_at = Column(DateTime, nullable=True)
    inspection_started_at = Column(DateTime, nullable=True)
    extra = Column(JSONEncodedDict)
    automated_clean = Column(Boolean, nullable=True)
    protected = Column(Boolean, nullable=False, default=False,
                       server_default='0')
    protected_reason = Column(Text, nullable=True)
    owner = Column(String(255), nullable=True)
    lessee = Column(String(255), nullable=True)
    description = Column(Text, nullable=True)
    allocation_id = Column(Integer, nullable=True)
    retired = Column(Boolean, nullable=True, default=False,
                     server_default='0')
    retired_reason = Column(Text, nullable=True)
    network_data = Column(JSONEncodedDict)
    boot_mode = Column(String(16), nullable=True)
    secure_boot = Column(Boolean, nullable=True)
    resource_class = Column(String(80), nullable=True)
    bios_interface = Column(String(255), nullable=True)
    boot_interface = Column(String(255), nullable=True)
    console_interface = Column(String(255), nullable=True)
    deploy_interface = Column(String(255), nullable=True)
    inspect_interface = Column(String(255), nullable=True)
    management_interface = Column(String(255), nullable=True)
    network_interface = Column(String(255), nullable=True)
    power_interface = Column(String(255), nullable=True)
    raid_interface = Column(String(255), nullable=True)
    rescue_interface = Column(String(255), nullable=True)
    storage_interface = Column(String(255), nullable=True)
    vendor_interface = Column(String(255), nullable=True)
    version = Column(String(15), nullable=True)
    # The shard key API consumers split the fleet by.  It is
    # case-sensitive, so MySQL compares it with a binary collation.
    shard = Column(CASE_SENSITIVE_STRING_255, nullable=True)
    # The UUID of the node this one is a child of (a component of it,
    # such as a DPU), or NULL for a top-level node (1.83, Ironic's
    # column and index).
    parent_node = Column(String(36), nullable=True)
    # The service step running (1.87), as clean_step; the instance's name
    # (1.104).  Ironic's columns.
    service_step = Column(JSONEncodedDict)
    instance_name = Column(String(255), nullable=True)
    # Release 6.0 (Ironic's columns): the firmware interface (1.86), a
    # node that must never be powered off (1.95) and the Redfish health
    # of its system as the power sync last read it (1.109).
    firmware_interface = Column(String(255), nullable=True)
    disable_power_off = Column(Boolean, nullable=True, default=False,
                               server_default='0')
    health = Column(String(32), nullable=True)


class NodeTrait(Base):
    """A trait of a node (release 3.0): an os-traits name or CUSTOM_*."""
    __tablename__ = 'node_traits'
    __table_args__ = _table_args(
        Index('node_traits_idx', 'trait'))

    node_id = Column(Integer, ForeignKey('nodes.id'), primary_key=True,
                     nullable=False)
    trait = Column(String(255), primary_key=True, nullable=False)
    version = Column(String(15), nullable=True)


class ShardCount(Base):
    """The number of nodes of a shard, kept by triggers on ``nodes``
    (release 6.0, db/shard_counts.py); not an object's table."""

    __tablename__ = 'shard_counts'
    __table_args__ = _table_args()

    # 's:' + shard, or '-' for the unsharded nodes.  Bytes on MySQL:
    # shards differing in case or trailing spaces are different rows.
    shard_key = Column(String(260).with_variant(
        mysql.VARBINARY(1024), 'mysql', 'mariadb'), primary_key=True)
    shard = Column(CASE_SENSITIVE_STRING_255, nullable=True)
    nodes = Column(Integer, nullable=False, default=0)


class Portgroup(Base):
    __tablename__ = 'portgroups'
    __table_args__ = _table_args(
        UniqueConstraint('uuid', name='uniq_portgroups0uuid'),
        UniqueConstraint('address', name='uniq_portgroups0address'),
        UniqueConstraint('name', name='uniq_portgroups0name'),
        Index('portgroups_node_id_idx', 'node_id'),
        # A page of the port groups of a conductor group's or a
        # project's nodes sorted from the index alone (db/api.paginate's
        # ids_first).
        Index('portgroups_node_id_id_idx', 'node_id', 'id',
              postgresql_where=text('node_id IS NOT NULL')),
        # A page of a shard's port groups in id order.
        Index('portgroups_shard_id_idx', 'shard', 'id',
              postgresql_where=text('shard IS NOT NULL')))

    id = Column(Integer, primary_key=True)
    uuid = Column(String(36))
    # Unique byte for byte: a binary collation on MySQL.
    name = Column(CASE_SENSITIVE_STRING_255, nullable=True)
    node_id = Column(Integer, ForeignKey('nodes.id'), nullable=True)
    address = Column(String(18))
    extra = Column(JSONEncodedDict)
    internal_info = Column(JSONEncodedDict)
    standalone_ports_supported = Column(Boolean, default=True)
    mode = Column(String(255))
    properties = Column(JSONEncodedDict)
    version = Column(String(15), nullable=True)
    # The node's shard, kept by triggers
    # (db/child_shards.py); not a field of the object.
    shard = Column(CASE_SENSITIVE_STRING_255, nullable=True)
    # Release 6.0 (API 1.102, 1.103, 1.111), Ironic's columns.
    physical_network = Column(String(64), nullable=True)
    category = Column(String(80), nullable=True)
    # Made by a network flow for a VIF, not by the API (always false here).
    dynamic_portgroup = Column(Boolean, nullable=True, default=False)


class Port(Base):
    __tablename__ = 'ports'
    __table_args__ = _table_args(
        UniqueConstraint('address', name='uniq_ports0address'),
        UniqueConstraint('uuid', name='uniq_ports0uuid'),
        # Ironic's uniq_ports0name, made as a unique index (added to a
        # live table, built concurrently on PostgreSQL: see b6d2f1a9c4e3).
        Index('uniq_ports0name', 'name', unique=True),
        Index('ports_node_id_idx', 'node_id'),
        Index('ports_portgroup_id_idx', 'portgroup_id'),
        # A page of the ports of a conductor group's or a
        # project's nodes sorted from the index alone (db/api.paginate's
        # ids_first).
        Index('ports_node_id_id_idx', 'node_id', 'id',
              postgresql_where=text('node_id IS NOT NULL')),
        # A page of a shard's ports in id order.
        Index('ports_shard_id_idx', 'shard', 'id',
              postgresql_where=text('shard IS NOT NULL')))

    id = Column(Integer, primary_key=True)
    uuid = Column(String(36))
    address = Column(String(18))
    node_id = Column(Integer, ForeignKey('nodes.id'), nullable=True)
    extra = Column(JSONEncodedDict)
    local_link_connection = Column(JSONEncodedDict)
    portgroup_id = Column(Integer, ForeignKey('portgroups.id'),
                          nullable=True)
    pxe_enabled = Column(Boolean, default=True)
    internal_info = Column(JSONEncodedDict)
    physical_network = Column(String(64), nullable=True)
    is_smartnic = Column(Boolean, nullable=True, default=False)
    version = Column(String(15), nullable=True)
    # The node's shard, kept by triggers
    # (db/child_shards.py); not a field of the object.
    shard = Column(CASE_SENSITIVE_STRING_255, nullable=True)
    # Release 6.0 (API 1.88-1.111), Ironic's columns: a unique name (byte
    # for byte, as port group names), free text and whether the port may
    # join a dynamic port group (true unless said otherwise).
    name = Column(CASE_SENSITIVE_STRING_255, nullable=True)
    description = Column(String(255), nullable=True)
    vendor = Column(String(32), nullable=True)
    category = Column(String(80), nullable=True)
    available_for_dynamic_portgroup = Column(
        Boolean, nullable=False, server_default=true(), default=True)


class Allocation(Base):
    """A request for a node (release 4.0, API 1.52): matched by resource
    class, traits and candidate nodes, then reserved by a conductor."""
    __tablename__ = 'allocations'
    __table_args__ = _table_args(
        UniqueConstraint('name', name='uniq_allocations0name'),
        UniqueConstraint('uuid', name='uniq_allocations0uuid'),
        Index('allocations_node_id_idx', 'node_id'),
        Index('allocations_state_idx', 'state'))

    id = Column(Integer, primary_key=True)
    uuid = Column(String(36), nullable=False)
    # Unique byte for byte, as node names.
    name = Column(CASE_SENSITIVE_STRING_255, nullable=True)
    node_id = Column(Integer, ForeignKey('nodes.id'), nullable=True)
    state = Column(String(15), nullable=False)
    owner = Column(String(255), nullable=True)
    last_error = Column(Text, nullable=True)
    resource_class = Column(String(80), nullable=True)
    traits = Column(JSONEncodedList)
    candidate_nodes = Column(JSONEncodedList)
    extra = Column(JSONEncodedDict)
    # The conductor that last handled the allocation (not in the API).
    conductor_affinity = Column(Integer, nullable=True)
    version = Column(String(15), nullable=True)


# -- volume connectors and targets (API 1.32) -----------------------------
class VolumeConnector(Base):
    __tablename__ = 'volume_connectors'
    __table_args__ = _table_args(
        UniqueConstraint('uuid', name='uniq_volumeconnectors0uuid'),
        UniqueConstraint('type', 'connector_id',
                         name='uniq_volumeconnectors0type0connector_id'),
        Index('volume_connectors_node_id_idx', 'node_id'))

    id = Column(Integer, primary_key=True)
    uuid = Column(String(36))
    node_id = Column(Integer, ForeignKey('nodes.id'), nullable=True)
    type = Column(String(32))
    connector_id = Column(String(255))
    extra = Column(JSONEncodedDict)
    version = Column(String(15), nullable=True)


class VolumeTarget(Base):
    __tablename__ = 'volume_targets'
    __table_args__ = _table_args(
        UniqueConstraint('uuid', name='uniq_volumetargets0uuid'),
        UniqueConstraint('node_id', 'boot_index',
                         name='uniq_volumetargets0node_id0boot_index'),
        Index('volume_targets_node_id_idx', 'node_id'))

    id = Column(Integer, primary_key=True)
    uuid = Column(String(36))
    node_id = Column(Integer, ForeignKey('nodes.id'), nullable=True)
    volume_type = Column(String(64))
    properties = Column(JSONEncodedDict)
    boot_index = Column(Integer)
    volume_id = Column(String(36))
    extra = Column(JSONEncodedDict)
    version = Column(String(15), nullable=True)


# -- deploy templates (API 1.55) --------------------------------------------

class DeployTemplate(Base):
    """A named set of deploy steps; a node whose instance_info traits name
    it runs its steps when deployed."""
    __tablename__ = 'deploy_templates'
    __table_args__ = _table_args(
        UniqueConstraint('uuid', name='uniq_deploytemplates0uuid'),
        UniqueConstraint('name', name='uniq_deploytemplates0name'))

    id = Column(Integer, primary_key=True)
    uuid = Column(String(36))
    name = Column(String(255), nullable=False)
    extra = Column(JSONEncodedDict)
    version = Column(String(15), nullable=True)
    steps = orm.relationship('DeployTemplateStep', lazy='selectin',
                             order_by='DeployTemplateStep.id',
                             cascade='all, delete-orphan')


class DeployTemplateStep(Base):
    """One step of a deploy template (its own table, as Ironic's)."""
    __tablename__ = 'deploy_template_steps'
    __table_args__ = _table_args(
        Index('deploy_template_id', 'deploy_template_id'),
        Index('deploy_template_steps_interface_idx', 'interface'),
        Index('deploy_template_steps_step_idx', 'step'))

    id = Column(Integer, primary_key=True)
    deploy_template_id = Column(Integer, ForeignKey('deploy_templates.id'),
                                nullable=False)
    interface = Column(String(255), nullable=False)
    step = Column(String(255), nullable=False)
    args = Column(JSONEncodedDict, nullable=False)
    priority = Column(Integer, nullable=False)
    version = Column(String(15), nullable=True)


class BIOSSetting(Base):
    """A BIOS setting of a node as its bios interface last reported it,
    with the registry data (1.74) the interface gave."""
    __tablename__ = 'bios_settings'
    __table_args__ = _table_args()

    node_id = Column(Integer, ForeignKey('nodes.id'), primary_key=True,
                     nullable=False)
    name = Column(String(255), primary_key=True, nullable=False)
    value = Column(Text, nullable=True)
    attribute_type = Column(String(255), nullable=True)
    allowable_values = Column(JSONEncodedList, nullable=True)
    lower_bound = Column(BigInteger, nullable=True)
    max_length = Column(Integer, nullable=True)
    min_length = Column(Integer, nullable=True)
    read_only = Column(Boolean, nullable=True)
    reset_required = Column(Boolean, nullable=True)
    unique = Column(Boolean, nullable=True)
    upper_bound = Column(BigInteger, nullable=True)
    version = Column(String(15), nullable=True)


class NodeHistory(Base):
    """An event of a node's history: an error or a state change."""
    __tablename__ = 'node_history'
    __table_args__ = _table_args(
        UniqueConstraint('uuid', name='uniq_history0uuid'),
        Index('history_node_id_idx', 'node_id'),
        Index('history_created_at_idx', 'created_at'))

    id = Column(Integer, primary_key=True)
    uuid = Column(String(36), nullable=False)
    conductor = Column(String(255), nullable=True)
    event_type = Column(String(255), nullable=True)
    severity = Column(String(255), nullable=True)
    event = Column(Text, nullable=True)
    user = Column(String(64), nullable=True)
    node_id = Column(Integer, ForeignKey('nodes.id'), nullable=True)
    version = Column(String(15), nullable=True)
    project = Column(String(80), nullable=True)  # 6.0: 1.113, 1.115
    state = Column(String(255), nullable=True)
    target_provision_state = Column(String(255), nullable=True)
    duration_seconds = Column(Integer, nullable=True)


class NodeInventory(Base):
    """What inspection found on a node (release 5.0, API 1.81)."""
    __tablename__ = 'node_inventory'
    __table_args__ = _table_args(
        Index('inventory_node_id_idx', 'node_id'))

    id = Column(Integer, primary_key=True, nullable=False)
    inventory_data = Column(LongJSONEncodedDict)
    plugin_data = Column(LongJSONEncodedDict)
    node_id = Column(Integer, ForeignKey('nodes.id'), nullable=True)
    version = Column(String(15), nullable=True)


# The largest value a Text column (and so a JSON-encoded dict or list) can
# hold on every supported backend: MariaDB's TEXT, in bytes of UTF-8.
TEXT_MAX_BYTES = 65535


def column_limits(table_name):
    """{column: (kind, limit)} of a table's text columns.

    ``('chars', n)`` for a String(n), ``('bytes', TEXT_MAX_BYTES)`` for a
    Text or JSON column: what the API checks before any write (the request
    contract reads it, so a limit is written once, here).
    """
    table = Base.metadata.tables[table_name]
    limits = {}
    for column in table.columns:
        kind = column.type
        if isinstance(kind, TypeDecorator):
            kind = kind.impl_instance if hasattr(
                kind, 'impl_instance') else kind.impl
        if isinstance(kind, Text):
            limits[column.name] = ('bytes', TEXT_MAX_BYTES)
        elif isinstance(kind, String) and kind.length:
            limits[column.name] = ('chars', kind.length)
    return limits


# The tables of release 6.0, in a module of their own (one module's size);
# imported last, once the base and the types they use are defined.
from ironic_lite.db.models6 import FirmwareComponent  # noqa: E402,F401
from ironic_lite.db.models6 import InspectionRule  # noqa: E402,F401
from ironic_lite.db.models6 import Runbook  # noqa: E402,F401
from ironic_lite.db.models6 import RunbookStep  # noqa: E402,F401
from ironic_lite.db.models6 import RunbookTrait  # noqa: E402,F401
