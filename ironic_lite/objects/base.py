"""The versioned object base: the one conversion engine of ironic-lite.

Objects are always at their latest version in memory.  Versions change at
exactly four places, all here:

1. DB row -> object (``_from_db_object``): the row's ``version`` column says
   what it was written as; the object is converted to the latest version,
   and keeps the changes the conversion made so that a later save writes
   them.
2. object -> DB (``do_version_changes_for_db``): when pinned, the changes
   are converted to the pinned version; a field the pinned version does not
   have is left out, so its column keeps what is stored (a pinned service
   never erases data written by an unpinned one).  The ``version`` written
   is always part of the changes.
3. object -> RPC (``IronicObjectSerializer.serialize_entity``): when
   pinned, the primitive is made for the pinned version.
4. RPC -> object (``IronicObjectSerializer.deserialize_entity``): whatever
   version arrives is converted to the latest.

Each object class declares data, no conversion code of its own unless a
field changes meaning:

* ``VERSION`` and a version-history comment;
* ``field_history``: ``{version: (fields added in that version, ...)}``,
  which must cover every field (a unit test checks it, and another one
  generates the conversion cases from it);
* optionally ``field_upgrade_defaults``: the value a field added after an
  older version takes when such an older object arrives over RPC (default:
  the field's own default or None), and a ``_convert_hook`` for semantic
  changes between versions;
* for a field holding an object (``ObjectField``, ``ListOfObjectsField``),
  ``obj_relationships``: ``{field: [(own version, child version), ...]}``,
  oldest first, as oslo.versionedobjects reads it to downgrade the child
  along with its parent.
"""

import copy

from oslo_log import log as logging
from oslo_utils import versionutils
from oslo_versionedobjects import base as ovo_base
from oslo_versionedobjects import exception as ovo_exception
from oslo_versionedobjects import fields as ovo_fields
from sqlalchemy import engine as sa_engine

from ironic_lite.common import exception
from ironic_lite.common import release_mappings
from ironic_lite.common import release_pin
from ironic_lite.db import api as db_api
from ironic_lite.db import migration as db_migration
from ironic_lite.objects import field_values

LOG = logging.getLogger(__name__)

# Where an object keeps a field's value (used by the fast paths elsewhere).
field_attr = field_values.field_attr


def column_limits(table_name):
    """{column: (kind, limit)}: the length limits of a table's text
    columns, from the model (``('chars', n)`` or ``('bytes', n)``)."""
    return db_api.column_limits(table_name)


class IronicObjectRegistry(ovo_base.VersionedObjectRegistry):
    def registration_hook(self, cls, index):
        # Make the newest registered class reachable as objects.<Name>:
        # replace the current one unless it is at least as new as cls.
        from ironic_lite import objects
        current = getattr(objects, cls.obj_name(), None)
        if current is None or not versionutils.is_compatible(
                cls.VERSION, current.VERSION, same_major=False):
            setattr(objects, cls.obj_name(), cls)


# (object class, ORM model class) -> the object's fields the model maps.
_ROW_FIELDS = {}


def _row_fields(obj_cls, db_object):
    """The names of ``obj_cls``'s fields that ``db_object`` has.

    Cached for ORM model instances (their attributes are the model
    class's); anything else (a test double) is looked at each time.
    """
    row_cls = type(db_object)
    if not hasattr(row_cls, '__table__'):
        return [name for name in obj_cls.fields if hasattr(db_object, name)]
    key = (obj_cls, row_cls)
    names = _ROW_FIELDS.get(key)
    if names is None:
        names = _ROW_FIELDS[key] = tuple(
            name for name in obj_cls.fields if hasattr(row_cls, name))
    return names


# (object class, a Core row's column names) ->
# (((field, position), ...), position of ``version``)
_ROW_POSITIONS = {}


def _row_positions(obj_cls, columns):
    """The object's fields a Core row (a list page read without ORM
    instances) has, with their positions in it, and the position of the
    row's ``version``; cached by column names."""
    key = (obj_cls, columns)
    found = _ROW_POSITIONS.get(key)
    if found is None:
        found = _ROW_POSITIONS[key] = (
            tuple((name, columns.index(name)) for name in obj_cls.fields
                  if name in columns),
            columns.index('version'))
    return found


class IronicObject(ovo_base.VersionedObject):
    """Base of every ironic-lite object."""

    OBJ_SERIAL_NAMESPACE = 'ironic_object'
    OBJ_PROJECT_NAMESPACE = 'ironic'
    # True for an object that is only stored, never sent over RPC (see
    # get_target_version).
    DB_ONLY = False
    # Fields kept in tables of their own, not columns of the object's row:
    # never written by save(), set by their own loader after a DB read.
    STORED_ELSEWHERE = ()
    # Newer fields written whatever the target version: their columns are
    # ones the older releases' models do not map, so a row at an older
    # version may carry them (Service.auto_pin, see there).
    WRITTEN_AT_ANY_VERSION = ()

    # Every object carries these; they are part of each field_history's
    # first version.
    fields = {
        'created_at': ovo_fields.DateTimeField(nullable=True),
        'updated_at': ovo_fields.DateTimeField(nullable=True),
    }

    field_history = {}
    field_upgrade_defaults = {}

    # -- field state, without oslo.versionedobjects' per-call list ---------
    #
    # The library's obj_attr_is_set builds the list of all field names
    # (``obj_fields``) and searches it on every call; obj_what_changed and
    # obj_to_primitive call it once per field, so a node (70 fields) paid
    # for some 5,000 list entries per call -- about 460 calls per node
    # PATCH in the conductor alone.  Same answers, by a dict lookup; and
    # obj_what_changed looks into the fields that hold an object only
    # (a node's one, of 70), not into every field's value.

    def obj_attr_is_set(self, attrname):
        if attrname in self.fields:
            return hasattr(self, field_attr(attrname))
        return super().obj_attr_is_set(attrname)  # extra fields, errors

    def obj_what_changed(self):
        fields = self.fields
        changes = {name for name in self._changed_fields if name in fields}
        values = self.__dict__
        for name, attr in field_values.object_fields(type(self)):
            value = values.get(attr)
            if (isinstance(value, ovo_base.VersionedObject)
                    and value.obj_what_changed()):
                changes.add(name)
        return changes

    def __deepcopy__(self, memo):
        """oslo.versionedobjects' copy (``obj_clone``), with each value
        stored as it is: a value an object holds has passed its field's
        coercion already, which the library's copy runs again for every
        field (a node's 70, on each conductor write of a node).  Values
        of the immutable types are shared, as a deep copy shares them."""
        nobj = self.__class__()
        memo[id(self)] = nobj
        nobj._context = self._context
        source, target = self.__dict__, nobj.__dict__
        for _name, attr, _f, _p, _k in field_values.primitive_plan(
                type(self)):
            if attr in source:
                value = source[attr]
                target[attr] = (value if type(value) in field_values.IMMUTABLE
                                else copy.deepcopy(value, memo))
        nobj._changed_fields = set(self._changed_fields)
        return nobj

    # -- the RPC boundary, without a setter per field ----------------------
    #
    # oslo.versionedobjects converts each field through its type (and, on
    # the way in, its setter's coercion again): a node's 70 fields, on
    # each side of each call and of its reply.  A field whose type
    # converts a value as itself (``field_values.primitive_plan``) is
    # copied as it is; the others convert as the library does.  The wire
    # format is the library's: ``tests/unit/objects/test_base_primitive.py``.

    def obj_to_primitive(self, target_version=None, version_manifest=None):
        if target_version is None:
            target_version = self.VERSION
        if target_version != self.VERSION and (
                versionutils.convert_version_to_tuple(target_version)
                > versionutils.convert_version_to_tuple(self.VERSION)):
            raise ovo_exception.InvalidTargetVersion(version=target_version)
        values = self.__dict__
        data = {}
        plan = field_values.primitive_plan(type(self))
        for name, attr, field, plain, _kind in plan:
            if attr in values:
                value = values[attr]
                data[name] = (value if plain or value is None
                              else field.to_primitive(self, name, value))
        if target_version != self.VERSION or version_manifest:
            self.obj_make_compatible_from_manifest(data, target_version,
                                                   version_manifest)
        key = self._obj_primitive_key
        primitive = {key('name'): self.obj_name(),
                     key('namespace'): self.OBJ_PROJECT_NAMESPACE,
                     key('version'): target_version,
                     key('data'): data}
        changes = [name for name in self.obj_what_changed() if name in data]
        if changes:
            primitive[key('changes')] = changes
        return primitive

    @classmethod
    def _obj_from_primitive(cls, context, objver, primitive):
        self = cls()
        self._context = context
        self.VERSION = objver
        data = cls._obj_primitive_field(primitive, 'data')
        values = self.__dict__
        for name, attr, field, plain, kind in field_values.primitive_plan(cls):
            if name not in data:
                continue
            value = data[name]
            if kind is dict:
                if type(value) is dict:
                    values[attr] = dict(value)  # the coercion's copy
                    continue
            elif kind is not None and (
                    type(value) is kind
                    or (value is None and field.nullable)):
                values[attr] = value  # what the coercion would give
                continue
            setattr(self, name, field.from_primitive(self, name, value))
        changes = cls._obj_primitive_field(primitive, 'changes', [])
        self._changed_fields = {name for name in changes
                                if name in self.fields}
        return self

    # -- version arithmetic -------------------------------------------------

    @classmethod
    def fields_at(cls, version):
        """The names of the fields an object of ``version`` has."""
        names = set()
        for since, added in cls.field_history.items():
            if versionutils.is_compatible(since, version, same_major=False):
                names.update(added)
        return names

    @classmethod
    def get_target_version(cls):
        """The version to write and send: the pinned one, else the latest.

        The pin is the one in force now (``common/release_pin.py``): with
        ``pin_release_version = auto`` it changes as services come and go.

        An object that the pinned release does not know at all is written
        at its latest version when it is ``DB_ONLY`` (never sent over RPC):
        the older release never reads its table.

        :raises: ObjectVersionNotSupported if the pinned release does not
            know this object at all and it may be sent over RPC.
        """
        pin = release_pin.effective()
        if not pin:
            return cls.VERSION
        entry = release_mappings.get_release(pin)
        versions = entry['objects'].get(cls.obj_name())
        if not versions and cls.DB_ONLY:
            return cls.VERSION
        if not versions:
            raise exception.ObjectVersionNotSupported(
                objname=cls.obj_name(), version='(none in %s)' % pin)
        return versions[0]

    @classmethod
    def known_to_pin(cls):
        """Whether the release in force (the pin, if any) knows this
        object: rows of a table an older release does not know are not
        written while pinned to it (its code would not delete them with
        their node)."""
        return cls.obj_name() in release_pin.entry()['objects']

    def _convert_hook(self, from_version, to_version):
        """Subclasses: move data between fields whose meaning changed.

        Called on the in-memory object after the generic field handling,
        when converting up (DB load, RPC receive).  Anything set here is
        marked changed, so a later save writes it.
        """

    @classmethod
    def _primitive_hook(cls, primitive, target_version):
        """Subclasses: fix up a primitive or DB changes for an old version."""

    def convert_to_latest(self, skip=()):
        """Bring an object read at an older version to the latest one.

        ``skip``: fields not to give an upgrade default (read from the DB,
        the fields kept in other tables: their loader sets them, whatever
        the row's version).
        """
        from_version = self.VERSION
        latest = type(self).VERSION
        if from_version == latest:
            return
        if not versionutils.is_compatible(from_version, latest,
                                          same_major=False):
            # Written by a newer release (possible only if an operator
            # unpinned too early): keep what we know, drop nothing stored.
            LOG.warning('%s %s was written at version %s, newer than this '
                        'release knows (%s); reading what it can.',
                        self.obj_name(), getattr(self, 'uuid', ''),
                        from_version, latest)
        else:
            for name in self.fields_at(latest) - self.fields_at(from_version):
                if name not in skip and not self.obj_attr_is_set(name):
                    self._set_upgrade_default(name)
            self._convert_hook(from_version, latest)
        self.VERSION = latest

    def _set_upgrade_default(self, name):
        field = self.fields[name]
        if name in self.field_upgrade_defaults:
            value = self.field_upgrade_defaults[name]
        elif field.default != ovo_fields.UnspecifiedDefault:
            value = field.default
        else:
            value = None
        setattr(self, name, value)
        # A default filled in for an old sender is not a change: saving it
        # must not overwrite the stored column.
        self._changed_fields.discard(name)

    def obj_make_compatible(self, primitive, target_version):
        """Downgrade a primitive to ``target_version``.

        oslo.versionedobjects' own handling first: a child object (an
        ``ObjectField`` or ``ListOfObjectsField``) is downgraded to the
        version ``obj_relationships`` (or the version manifest) gives for
        ``target_version``, and left out if it did not exist then.  Then
        the fields ``target_version`` lacks are dropped, and
        ``_primitive_hook`` fixes up what remains.
        """
        super().obj_make_compatible(primitive, target_version)
        keep = self.fields_at(target_version)
        for name in list(primitive):
            if name not in keep:
                del primitive[name]
        self._primitive_hook(primitive, target_version)

    # -- the DB boundary ----------------------------------------------------

    @classmethod
    def _readable_once(cls, seen, table, column, older):
        """(fields, columns) to read: None, None (every one) once
        ``table`` has ``column``; ``older``'s fields and columns on the
        previous release's schema, which ironic-status reads before
        "ironic-dbsync upgrade".  ``seen``: the class attribute that
        remembers the column once it is there (it is never dropped)."""
        if not getattr(cls, seen):
            setattr(cls, seen, db_migration.has_column(table, column))
        if getattr(cls, seen):
            return None, None
        fields = cls.fields_at(older)
        return fields, sorted(fields) + ['version']

    @staticmethod
    def _from_db_object(context, obj, db_object, fields=None,
                        positions=None):
        """Fill ``obj`` from a DB row and convert it to the latest version.

        ``fields``: when the row was read with only some columns, the
        names to copy (the others stay unset); None copies every field the
        row has.  ``positions``: a Core row's ``_row_positions``, if known
        (a row builds its column names anew each time it is asked).

        A value that the field's coercion would return unchanged (a str
        for a string field, ...) or a JSON text of a dict field is stored
        directly (``field_values.set_from_db``); every other value goes
        through the field's coercion (the ovo setter).  The fields a row
        has are cached per model class, and a loaded row's values are read
        from its ``__dict__`` rather than through the ORM's instrumented
        attributes; a Core row's (a list page's) by position.
        """
        if isinstance(db_object, sa_engine.Row):
            # A Core row (a list page): its values by position.
            positions, at_version = positions or _row_positions(
                type(obj), db_object._fields)  # the list's, if given
            items = [(name, db_object[i]) for name, i in positions
                     if fields is None or name in fields]
            row_version = db_object[at_version]
        else:
            loaded = getattr(db_object, '__dict__', {})
            names = _row_fields(type(obj), db_object)
            if fields is not None:
                names = [name for name in names if name in fields]
            items = [(name, loaded[name] if name in loaded
                      else getattr(db_object, name)) for name in names]
            row_version = db_object.version
        setters = field_values.db_setters(type(obj))
        stored = obj.__dict__
        for name, value in items:
            setter = setters.get(name)
            # The common case inline: a value that is already right.
            if (setter is not None and setter[1] in field_values.AS_IS
                    and (type(value) is setter[1]
                         or (value is None and setter[2]))):
                stored[setter[0]] = value
            elif type(value) is dict and setter and setter[1] is dict:
                stored[setter[0]] = dict(value)
            else:
                field_values.set_from_db(obj, setter, name, value)
        obj.VERSION = row_version or type(obj).VERSION
        obj.obj_reset_changes()
        obj.convert_to_latest(skip=obj.STORED_ELSEWHERE)
        obj._context = context
        return obj

    @classmethod
    def _from_db_object_list(cls, context, db_objects, fields=None):
        """Objects of ``db_objects``: the rows of one statement."""
        extra = {}
        if db_objects and isinstance(db_objects[0], sa_engine.Row):
            # One set of columns for the whole list (Core rows of one
            # statement).  (Objects with children of their own read ORM
            # instances and keep the shorter signature.)
            extra['positions'] = _row_positions(cls, db_objects[0]._fields)
        return [cls._from_db_object(context, cls(), row, fields, **extra)
                for row in db_objects]

    def do_version_changes_for_db(self):
        """The changes to write, at the target version, with ``version``."""
        target = self.get_target_version()
        changes = self.obj_get_changes()
        if target != self.VERSION:
            keep = self.fields_at(target).union(self.WRITTEN_AT_ANY_VERSION)
            changes = {k: v for k, v in changes.items() if k in keep}
            self._primitive_hook(changes, target)
        changes['version'] = target
        return changes

    def obj_refresh(self, loaded_object):
        """Copy every field of a freshly loaded object into this one."""
        for name in self.fields:
            if loaded_object.obj_attr_is_set(name):
                setattr(self, name, getattr(loaded_object, name))
        self.obj_reset_changes()

    def __repr__(self):
        ident = None
        if 'uuid' in self.fields and self.obj_attr_is_set('uuid'):
            ident = self.uuid
        return '<%s %s v%s>' % (self.obj_name(), ident, self.VERSION)


def _to_latest(entity):
    """Convert the objects of a deserialized entity to the latest version:
    the entity itself, or those of a list, tuple, set or dict's values
    (the containers whose objects oslo.versionedobjects deserializes)."""
    if isinstance(entity, IronicObject):
        entity.convert_to_latest()
    elif isinstance(entity, dict):
        for value in entity.values():
            _to_latest(value)
    elif isinstance(entity, (list, tuple, set)):
        for value in entity:
            _to_latest(value)


class IronicObjectSerializer(ovo_base.VersionedObjectSerializer):
    """Sends objects at the pinned version, reads them at the latest."""

    OBJ_BASE_CLASS = IronicObject

    def deserialize_entity(self, context, entity):
        """The entity with its objects built from their primitives (by
        oslo.versionedobjects) and converted to the latest version."""
        try:
            entity = super().deserialize_entity(context, entity)
        except ovo_exception.IncompatibleObjectVersion as err:
            raise exception.IncompatibleObjectVersion(
                objname=err.kwargs.get('objname'),
                objver=err.kwargs.get('objver'),
                supported=err.kwargs.get('supported')) from err
        _to_latest(entity)
        return entity

    def serialize_entity(self, context, entity):
        if isinstance(entity, IronicObject):
            target = entity.get_target_version()
            return entity.obj_to_primitive(target_version=target)
        return super().serialize_entity(context, entity)


class CrudMixin(object):
    """create/save/destroy/refresh over a resource's DB module functions.

    A class sets ``_db_create``, ``_db_update`` and ``_db_destroy`` to the
    query functions (as staticmethods) and ``_db_get_by_uuid``.
    """

    def create(self, context=None):
        values = self.do_version_changes_for_db()
        row = self._db_create(values)
        self._from_db_object(context or self._context, self, row)

    # A resource whose rows belong to a node (a port, a port group):
    # its db module's ``create_<resource>_unless_node_locked``.
    _db_create_unless_node_locked = None

    def create_unless_node_locked(self, context=None):
        """create(), in one statement made only while no task holds the
        lock of the object's node (``node_id``), which keeps one from
        taking it until the row is committed.  False when nothing was
        written -- the node locked or gone, or a database where there is
        no such statement: the caller then writes it under the node's
        row lock (``child_writes``)."""
        if self._db_create_unless_node_locked is None:
            return False
        row = self._db_create_unless_node_locked(
            self.do_version_changes_for_db())
        if row is None:
            return False
        self._from_db_object(context or self._context, self, row)
        return True

    def save(self, context=None):
        self._from_db_object(context or self._context, self,
                             self._updated_row())

    def _updated_row(self):
        """The row as ``_db_update`` wrote this object's changes (or what
        it returns when it wrote nothing)."""
        updates = self.do_version_changes_for_db()
        return self._db_update(self.uuid, updates,
                               known_version=type(self).VERSION,
                               **self._db_update_options())

    def _db_update_options(self):
        """Further keyword arguments of ``_db_update`` (none here)."""
        return {}

    def destroy(self, context=None):
        self._db_destroy(self.uuid)
        self.obj_reset_changes()

    def refresh(self, context=None):
        row = self._db_get_by_uuid(self.uuid)
        current = self._from_db_object(context or self._context,
                                       type(self)(), row)
        self.obj_refresh(current)
