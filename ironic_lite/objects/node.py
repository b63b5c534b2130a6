import functools

from oslo_log import log as logging
from oslo_utils import strutils
from oslo_utils import uuidutils

from ironic_lite.common import exception
from ironic_lite.common import interfaces
from ironic_lite.common import messages
from ironic_lite.db import node as db_node
from ironic_lite.db import port as db_port
from ironic_lite.objects import base
from ironic_lite.objects import fields
from ironic_lite.objects import node_history

LOG = logging.getLogger(__name__)

# The changes that may make a node history event (objects/node_history.py).
_HISTORY_FIELDS = frozenset(('provision_state', 'last_error', 'health'))

# The texts a BMC, an agent or a driver may write: bounded to [DEFAULT]
# log_in_db_max_size and scrubbed of credentials on every write (Ironic
# bounds the same two).
MESSAGE_FIELDS = ('last_error', 'maintenance_reason')

# What Node.list(fields=...) always reads (Ironic's list too).
LIST_MANDATORY_FIELDS = frozenset(('id', 'uuid', 'created_at', 'updated_at',
                                   'owner', 'lessee'))


@base.IronicObjectRegistry.register
class Node(base.CrudMixin, base.IronicObject):
    # Version 1.0: initial version (release 1.0)
    # Version 1.1: add shard (release 2.0)
    # Version 1.2: add traits (release 3.0)
    # Version 1.3: add parent_node (release 6.0)
    # Version 1.4: add service_step, instance_name (release 6.0)
    # Version 1.5: add firmware_interface, disable_power_off and health
    #              (release 6.0)
    VERSION = '1.5'

    fields = dict(base.IronicObject.fields, **{
        'id': fields.IntegerField(),
        'uuid': fields.UUIDField(nullable=True),
        'name': fields.StringField(nullable=True),
        'chassis_id': fields.IntegerField(nullable=True),
        'instance_uuid': fields.UUIDField(nullable=True),
        'driver': fields.StringField(nullable=True),
        'driver_info': fields.FlexibleDictField(nullable=True),
        'driver_internal_info': fields.FlexibleDictField(nullable=True),
        'instance_info': fields.FlexibleDictField(nullable=True),
        'properties': fields.FlexibleDictField(nullable=True),
        'extra': fields.FlexibleDictField(nullable=True),
        'clean_step': fields.FlexibleDictField(nullable=True),
        'deploy_step': fields.FlexibleDictField(nullable=True),
        'raid_config': fields.FlexibleDictField(nullable=True),
        'target_raid_config': fields.FlexibleDictField(nullable=True),
        'network_data': fields.FlexibleDictField(nullable=True),
        'reservation': fields.StringField(nullable=True),
        'conductor_affinity': fields.IntegerField(nullable=True),
        'conductor_group': fields.StringField(nullable=True),
        'power_state': fields.StringField(nullable=True),
        'target_power_state': fields.StringField(nullable=True),
        'provision_state': fields.StringField(nullable=True),
        'provision_updated_at': fields.DateTimeField(nullable=True),
        'target_provision_state': fields.StringField(nullable=True),
        'maintenance': fields.BooleanField(),
        'maintenance_reason': fields.StringField(nullable=True),
        'fault': fields.StringField(nullable=True),
        'console_enabled': fields.BooleanField(),
        'last_error': fields.StringField(nullable=True),
        'inspection_finished_at': fields.DateTimeField(nullable=True),
        'inspection_started_at': fields.DateTimeField(nullable=True),
        'automated_clean': fields.BooleanField(nullable=True),
        'protected': fields.BooleanField(),
        'protected_reason': fields.StringField(nullable=True),
        'owner': fields.StringField(nullable=True),
        'lessee': fields.StringField(nullable=True),
        'description': fields.StringField(nullable=True),
        'allocation_id': fields.IntegerField(nullable=True),
        'retired': fields.BooleanField(nullable=True),
        'retired_reason': fields.StringField(nullable=True),
        'boot_mode': fields.StringField(nullable=True),
        'secure_boot': fields.BooleanField(nullable=True),
        'resource_class': fields.StringField(nullable=True),
        'shard': fields.StringField(nullable=True),
        # The UUID of the node this one is a child of (API 1.83).
        'parent_node': fields.StringField(nullable=True),
        # The service step running (API 1.87), as clean_step.
        'service_step': fields.FlexibleDictField(nullable=True),
        # The instance's name, set by its user (API 1.104).
        'instance_name': fields.StringField(nullable=True),
        # Never powered off (API 1.95): reboots instead where a flow would.
        'disable_power_off': fields.BooleanField(nullable=True,
                                                 default=False),
        # The Redfish Status.Health of the node's system (OK, Warning,
        # Critical) as the power sync last read it, or None (API 1.109).
        'health': fields.StringField(nullable=True),
        # Rows of node_traits, not a column: loaded by the lookups, written
        # only through TraitList/Trait (never by save).
        'traits': fields.ObjectField('TraitList', nullable=True),
    }, **{name: fields.StringField(nullable=True)
          for name in interfaces.INTERFACE_FIELDS})

    # What each version added, as it was: history, not derived from the
    # current interfaces (one added later belongs to a later version).
    field_history = {
        '1.0': (
            'created_at', 'updated_at', 'id', 'uuid', 'name', 'chassis_id',
            'instance_uuid', 'driver', 'driver_info', 'driver_internal_info',
            'instance_info', 'properties', 'extra', 'clean_step',
            'deploy_step', 'raid_config', 'target_raid_config',
            'network_data', 'reservation', 'conductor_affinity',
            'conductor_group', 'power_state', 'target_power_state',
            'provision_state', 'provision_updated_at',
            'target_provision_state', 'maintenance', 'maintenance_reason',
            'fault', 'console_enabled', 'last_error',
            'inspection_finished_at', 'inspection_started_at',
            'automated_clean', 'protected', 'protected_reason', 'owner',
            'lessee', 'description', 'allocation_id', 'retired',
            'retired_reason', 'boot_mode', 'secure_boot', 'resource_class',
            'bios_interface', 'boot_interface', 'console_interface',
            'deploy_interface', 'inspect_interface', 'management_interface',
            'network_interface', 'power_interface', 'raid_interface',
            'rescue_interface', 'storage_interface', 'vendor_interface',
        ),
        '1.1': ('shard',),
        '1.2': ('traits',),
        '1.3': ('parent_node',),
        '1.4': ('service_step', 'instance_name'),
        '1.5': ('firmware_interface', 'disable_power_off', 'health'),
    }

    # The version of the child object each version of Node carries (see
    # IronicObject.obj_make_compatible): a new row with every version
    # bump of the child.
    obj_relationships = {
        'traits': [('1.2', '1.0')],
    }

    _db_create = staticmethod(db_node.create_node)
    _db_update = staticmethod(db_node.update_node)
    _db_destroy = staticmethod(db_node.destroy_node)
    _db_get_by_uuid = staticmethod(db_node.get_node_by_uuid)

    # Fields kept in tables of their own (not columns of nodes): never in
    # what save() writes.
    STORED_ELSEWHERE = ('traits',)

    # (host, token) of the reservation the task that read this node holds
    # (set by ``reserve``, not a field: never sent nor stored): when set,
    # save() and destroy() write only while the node is still reserved
    # with them (fencing; NodeLockLost otherwise, nothing written).
    lock_fence = None
    # The node history event type of the next save, when what changed
    # does not tell it (not a field: never sent nor stored).
    history_event_type = None

    # ``check(current)`` and ``as_read`` of the running
    # ``save_unless_locked`` (not fields: never sent nor stored).
    _unlocked_check = None
    _as_read = None

    def save_unless_locked(self, context, check, as_read=None):
        """save(), made while no task holds the node's lock (NodeLocked
        otherwise, nothing written): the row is read once, under a row
        lock that keeps a task from taking the node's lock until the
        write commits, and ``check(current)`` -- the node as read, at the
        latest version, without its traits -- may refuse the write
        (raise) before anything is written.

        :param as_read: {field: value} the caller's checks passed on (the
            node as another read it): the write is first made without
            reading the row, in one statement, if the row still has them
            (``db.node.update_node``); else as above.
        """
        self._unlocked_check, self._as_read = check, as_read
        try:
            self.save(context)
        finally:
            self._unlocked_check = self._as_read = None

    def values_as_read(self, expected, delta):
        """The ``as_read`` of an update of this node (``save_as_read``,
        ``save_unless_locked``) whose changes ``delta`` were computed from
        ``expected`` ({field: value read}, RPC 1.3's): those values and
        the provision state read.  None when there is none: no
        ``expected``, a change without its value read, or nothing that
        differs from what was read (the save then reads the row)."""
        if (not expected or not set(delta) <= set(expected)
                or all(getattr(self, name) == value
                       for name, value in expected.items())):
            return None
        return dict(expected, provision_state=self.provision_state)

    def save_as_read(self, context, as_read):
        """save(), made only as one statement, and only if no task holds
        the node's lock and the row still has ``as_read`` ({field: value}
        the caller read and made the update's checks on, as a conductor
        makes them on the row in ``save_unless_locked``).  False when
        nothing was written: the row differs, is locked or gone, a pin
        holds the node at an older version, or the update takes more
        than one statement (its history, a database without them)."""
        # Pinned, ``_db_update_options`` would not pass ``as_read`` and
        # the update would be made without the statement's conditions.
        if self.get_target_version() != self.VERSION:
            return False
        self._as_read = as_read
        try:
            row = self._updated_row()
        finally:
            self._as_read = None
        if row is None:
            return False
        self._from_db_object(context or self._context, self, row)
        return True

    def _db_update_options(self):
        options = {'fence': self.lock_fence}
        if self._unlocked_check is not None:
            check, context = self._unlocked_check, self._context
            options['unlocked'] = lambda row: check(
                type(self)._from_db_object(context, type(self)(), row))
        if self._as_read is not None and (
                self.get_target_version() == self.VERSION):
            # Values of the latest version are the columns' own.
            options['as_read'] = self._as_read
        if self.obj_what_changed() & _HISTORY_FIELDS:
            options['history'] = functools.partial(
                node_history.events_for_update, self)
        return options

    def _make_messages_safe(self):
        """What a BMC, an agent or a driver wrote into the node's messages
        (``MESSAGE_FIELDS``), bounded and without credentials before it is
        stored (and shown, and recorded in the node's history): here, the
        one place every write of a node goes through."""
        changed = self.obj_what_changed()
        for name in MESSAGE_FIELDS:
            text = getattr(self, name) if name in changed else None
            if not text:
                continue
            secrets, users = messages.node_secrets(self)
            safe = messages.safe(text, secrets, users)
            if safe != text:
                LOG.info('The %s of node %s is stored shortened to %d '
                         'characters and with its credentials masked',
                         name, self.uuid, len(safe))
                setattr(self, name, safe)

    def destroy(self, context=None):
        if self.lock_fence is None:
            return super().destroy(context)
        db_node.write_if_held(self.id, self.lock_fence,
                              lambda: db_node.destroy_node(self.uuid))
        self.obj_reset_changes()

    def do_version_changes_for_db(self):
        self._make_messages_safe()
        changes = super().do_version_changes_for_db()
        for name in self.STORED_ELSEWHERE:
            changes.pop(name, None)
        return changes

    def _set_traits(self, traits):
        """Attach the node's TraitList as read (not a change to save)."""
        self.traits = traits
        self.obj_reset_changes(['traits'])
        return self

    def _load_traits(self, context):
        from ironic_lite.objects import trait
        return self._set_traits(
            trait.TraitList.get_by_node_id(context, self.id))

    @classmethod
    def _load(cls, context, row):
        return cls._from_db_object(context, cls(), row)._load_traits(context)

    # -- lookups ----------------------------------------------------------

    @classmethod
    def get(cls, context, node_id):
        """Find a node by id, UUID or name."""
        if strutils.is_int_like(node_id):
            return cls.get_by_id(context, int(node_id))
        if uuidutils.is_uuid_like(node_id):
            return cls.get_by_uuid(context, node_id)
        return cls.get_by_name(context, node_id)

    # The row and its traits are read in one statement (an outer join).

    @classmethod
    def _get_by(cls, context, column, value):
        from ironic_lite.objects import trait
        row, traits = db_node.get_node_and_traits(column, value)
        return cls._from_db_object(context, cls(), row)._set_traits(
            trait.TraitList._from_rows(context, traits))

    @classmethod
    def get_by_id(cls, context, node_id):
        return cls._get_by(context, 'id', node_id)

    @classmethod
    def get_by_uuid(cls, context, uuid):
        return cls._get_by(context, 'uuid', uuid)

    @classmethod
    def get_by_name(cls, context, name):
        return cls._get_by(context, 'name', name)

    @classmethod
    def get_by_port_addresses(cls, context, addresses):
        """The one node with a port of one of ``addresses`` (Ironic's):
        NodeNotFound for none and for several.  Two statements, however
        many addresses."""
        node_ids = db_port.get_node_ids_by_port_addresses(addresses)
        if len(node_ids) != 1:
            raise exception.NodeNotFound(
                node='with the port addresses given (%d nodes)'
                     % len(node_ids))
        return cls.get_by_id(context, node_ids[0])

    @classmethod
    def ids_by_port_addresses(cls, context, addresses):
        """The ids of the nodes with a port of one of ``addresses``
        (none, one, or several: the inspection lookup tells them
        apart)."""
        return list(db_port.get_node_ids_by_port_addresses(addresses))

    @classmethod
    def uuids_by_id(cls, context, ids):
        """{id: uuid} of the nodes among ``ids`` (a page's parents)."""
        return db_node.get_uuids_by_ids(sorted(ids))

    @classmethod
    def list(cls, context, limit=None, marker=None, sort_key=None,
             sort_dir=None, filters=None, fields=None):
        """A page of nodes.

        :param fields: as Ironic's: if given, only these fields are read
            from the database (plus ``LIST_MANDATORY_FIELDS``); the others
            are left unset on the objects, which are then for rendering
            only (reading an unset field raises; do not save them).  A
            default-page listing reads a handful of the ~60 columns.
        """
        if fields is not None:
            fields = (set(fields) | LIST_MANDATORY_FIELDS) & set(cls.fields)
        rows = db_node.get_node_list(filters=filters, limit=limit,
                                     marker=marker, sort_key=sort_key,
                                     sort_dir=sort_dir, columns=fields)
        nodes = cls._from_db_object_list(context, rows, fields)
        if fields is None or 'traits' in fields:
            from ironic_lite.objects import trait
            found = trait.TraitList.get_for_nodes(
                context, [n.id for n in nodes])
            for node in nodes:
                node._set_traits(found[node.id])
        return nodes

    @classmethod
    def get_shard_list(cls, context):
        """[{'name': shard or None, 'count': nodes}], biggest first."""
        return [{'name': name, 'count': count}
                for name, count in db_node.get_shard_list()]

    @classmethod
    def count_by_provision_state(cls, context):
        """{provision state: node count} of the nodes there are."""
        return dict(db_node.count_by_provision_state())

    # -- locking ----------------------------------------------------------

    @classmethod
    def reserve(cls, context, tag, node_id):
        """Take the node's lock for host ``tag``; returns the node, whose
        writes are fenced by that reservation (``lock_fence``)."""
        row = db_node.reserve_node(tag, node_id)
        node = cls._load(context, row)
        node.lock_fence = (tag, row.reservation_token)
        return node

    @classmethod
    def write_unless_locked(cls, context, node_id, write):
        """``write()`` in one transaction that also makes sure no task
        holds the node's lock and keeps one from taking it meanwhile
        (NodeLocked otherwise)."""
        return db_node.write_if_unlocked(node_id, write)

    @classmethod
    def write_if_held(cls, context, node_id, fence, write):
        """``write()`` in one transaction, only while the node (its id) is
        still reserved under ``fence`` (a ``lock_fence``); NodeLockLost
        otherwise, nothing written."""
        return db_node.write_if_held(node_id, fence, write)

    @classmethod
    def release(cls, context, tag, node_id, token=None):
        """Release ``tag``'s lock; with ``token``, only that reservation
        (a task's own), not one taken since its lock was broken."""
        db_node.release_node(tag, node_id, token=token)

    @classmethod
    def list_reserved_ids(cls, context, host):
        """(id, uuid) of every node ``host`` has reserved."""
        return db_node.get_nodeinfo_list(['id', 'uuid'],
                                         filters={'reservation': host})

    @classmethod
    def release_all_for_host(cls, context, host):
        """Drop every lock ``host`` holds (it restarted or died).

        :returns: the number of nodes released.
        """
        return db_node.clear_node_reservations_for_conductor(host)

    @classmethod
    def list_interrupted(cls, context, states, grace):
        """Unlocked nodes in one of ``states`` (transitional ones, which a
        task holds the lock through) for more than ``grace`` seconds:
        their operation was interrupted."""
        return cls.list(context, filters={
            'provision_state': list(states), 'reserved': False,
            'provision_unchanged_for': grace})

    @classmethod
    def list_locked_by(cls, context, hosts):
        """The nodes locked by any of ``hosts``."""
        if not hosts:
            return []
        return cls.list(context, filters={'reserved_by_any_of': list(hosts)})
