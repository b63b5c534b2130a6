"""How an object's field values are stored and converted without the
field's property: the fast paths of ``objects.base`` (rows read from the
DB, objects sent over RPC, copies) and of the API's renderers."""

import datetime
import json

from oslo_versionedobjects import fields as ovo_fields


# obj_cls -> {field name: (attribute name, how a DB value is taken)}
_DB_SETTERS = {}
_PRIMITIVE_PLANS = {}
# Values a deep copy shares rather than copies.
IMMUTABLE = frozenset((str, int, float, bool, type(None), datetime.datetime))
_SAME = {ovo_fields.StringField: str, ovo_fields.UUIDField: str,
         ovo_fields.BooleanField: bool, ovo_fields.IntegerField: int}


# The kinds whose values are stored as they are.
AS_IS = (str, bool, int)
# A MAC address field (normalized as its coercion does).
_MAC = 'mac'


def field_attr(name):
    """The instance attribute where an object keeps field ``name``'s value.

    oslo.versionedobjects stores a set field under ``_obj_<name>`` (its
    property reads it from there, ``obj_attr_is_set`` looks for it).  The
    fast paths -- rows read from the DB, large pages rendered -- read and
    write it directly instead of through the field's property;
    ``tests/unit/objects/test_base_field_attr.py`` checks the name against
    the library's public behaviour, so that a library release that changes
    it fails a test rather than a request.
    """
    return '_obj_' + name


def db_setters(obj_cls):
    """How each field of ``obj_cls`` takes a value read from the DB.

    ``(attr, type)``: a value of exactly ``type`` (or None, if the field
    is nullable) is what the field's coercion would return anyway -- a
    str for a string or UUID field, a bool, an int -- and is stored as it
    is.  ``(attr, dict)``: a JSON dict field (``FlexibleDictField``), whose
    coercion is decoding the JSON text.  ``(attr, datetime)``: a
    timezone-aware time field, whose coercion makes a naive time UTC.
    ``(attr, _MAC)``: a MAC address field: a str is normalized as its
    coercion does.
    Every other value or field goes through the field's setter (``setattr``).
    """
    setters = _DB_SETTERS.get(obj_cls)
    if setters is None:
        from ironic_lite.objects import fields as ir_fields
        setters = {}
        for name, field in obj_cls.fields.items():
            attr = field_attr(name)
            if type(field) in _SAME:
                setters[name] = (attr, _SAME[type(field)], field.nullable)
            elif type(field) is ir_fields.FlexibleDictField:
                setters[name] = (attr, dict, field.nullable)
            elif (type(field) is ovo_fields.DateTimeField
                  and field.AUTO_TYPE.tzinfo_aware):
                setters[name] = (attr, datetime.datetime, field.nullable)
            elif type(field) is ir_fields.MACAddressField:
                setters[name] = (attr, _MAC, field.nullable)
        _DB_SETTERS[obj_cls] = setters
    return setters


def plain_type(field):
    """Whether ``field`` converts a value to and from its primitive as the
    value itself (the library's base conversions, not overridden)."""
    return (type(field).to_primitive is ovo_fields.Field.to_primitive
            and type(field).from_primitive is ovo_fields.Field.from_primitive
            and type(field._type).to_primitive
            is ovo_fields.FieldType.to_primitive
            and type(field._type).from_primitive
            is ovo_fields.FieldType.from_primitive)


def object_fields(obj_cls):
    """``[(name, attr)]`` of ``obj_cls``'s fields that hold an object
    (``ObjectField``): the only values that may have changes of their own
    (a list of objects is a list, as in the library's
    ``obj_what_changed``)."""
    found = _OBJECT_FIELDS.get(obj_cls)
    if found is None:
        found = _OBJECT_FIELDS[obj_cls] = tuple(
            (name, field_attr(name)) for name, field in obj_cls.fields.items()
            if isinstance(field._type, ovo_fields.Object))
    return found


_OBJECT_FIELDS = {}


def primitive_plan(obj_cls):
    """``[(name, attr, field, plain, kind)]`` for ``obj_cls``'s fields, in
    the library's order: ``plain`` when the field's value is its own
    primitive (``plain_type``); ``kind`` the type (str, int or bool) of a
    primitive that the field's coercion returns unchanged
    (``db_setters``), ``dict`` for a JSON dict field (whose coercion
    copies a dict), None if there is none."""
    plan = _PRIMITIVE_PLANS.get(obj_cls)
    if plan is None:
        setters = db_setters(obj_cls)
        plan = []
        for name, field in obj_cls.fields.items():
            plain = plain_type(field)
            setter = setters.get(name)
            kind = setter[1] if setter is not None else None
            plan.append((name, field_attr(name), field, plain,
                         kind if plain and (kind in AS_IS or kind is dict)
                         else None))
        _PRIMITIVE_PLANS[obj_cls] = plan
    return plan


def set_from_db(obj, setter, name, value):
    """Store a DB value in ``obj`` as ``setter`` (from db_setters) says;
    the field's own setter when there is none or the value does not fit."""
    if setter is not None:
        attr, kind, nullable = setter
        if value is None:
            if nullable:
                obj.__dict__[attr] = {} if kind is dict else None
                return
        elif kind is dict:
            if value == '{}':  # most JSON columns: no need to parse
                obj.__dict__[attr] = {}
                return
            if type(value) is str:
                value = json.loads(value)
            if isinstance(value, dict) or not value:
                obj.__dict__[attr] = dict(value or {})
                return
        elif kind is _MAC:
            if type(value) is str:
                # The field's coercion itself, without the property's
                # bookkeeping (a port page holds 1,000).
                obj.__dict__[attr] = obj.fields[name].AUTO_TYPE.coerce(
                    obj, name, value)
                return
        elif kind is datetime.datetime:
            if type(value) is kind:
                # A naive time from the DB is UTC (as the field assumes).
                if value.tzinfo is None:
                    value = value.replace(tzinfo=datetime.timezone.utc)
                obj.__dict__[attr] = value
                return
        elif type(value) is kind:
            obj.__dict__[attr] = value
            return
    setattr(obj, name, value)
