"""``IronicObject.obj_to_primitive`` and ``_obj_from_primitive``: the
library's wire format, without a setter call per field.

ironic-lite's objects copy a value whose field converts it as itself
(a string, an integer, a boolean) instead of running it through the
field's type and coercion; these tests hold both directions to
oslo.versionedobjects' own conversions for every registered class, with
every field set, at the latest version and at an older one, and with a
child object.
"""

import datetime

from oslo_versionedobjects import base as ovo_base
from oslo_versionedobjects import fields as ovo_fields
import pytest

from ironic_lite import objects
from ironic_lite.objects import base
from ironic_lite.objects import field_values
from tests.unit.objects import test_objects

CLASSES = test_objects.registered_classes()

# Whole seconds: the library's primitive of a time drops microseconds.
_WHEN = datetime.datetime(2026, 11, 30, 12, 0, 1,
                          tzinfo=datetime.timezone.utc)


def _sample(name, field):
    """A value of ``field``'s type (None: the field is left unset)."""
    valid = getattr(field._type, '_valid_values', None)
    if valid:
        return sorted(valid)[0]
    kind = type(field).__name__
    return {
        'StringField': 's-' + name, 'IntegerField': 7,
        'BooleanField': True, 'UUIDField':
            '1be26c0b-03f2-4d2e-ae87-c02d7f33c123',
        'DateTimeField': _WHEN, 'MACAddressField': '52:54:00:AB:cd:01',
        'FlexibleDictField': {'k': [1, {'a': None}], 'n': 2.5},
        'ListOfStringsField': ['b', 'a'],
        'DictOfStringsField': {'x': 'y'},
    }.get(kind)


def _filled(cls):
    obj = cls()
    for name, field in sorted(cls.fields.items()):
        value = _sample(name, field)
        if value is not None:
            setattr(obj, name, value)
    return obj


def _library_primitive(obj, *args):
    return ovo_base.VersionedObject.obj_to_primitive(obj, *args)


def _library_object(cls, primitive):
    return ovo_base.VersionedObject._obj_from_primitive.__func__(
        cls, None, primitive['ironic_object.version'], primitive)


def _fields(obj):
    return {name: getattr(obj, name) for name in obj.fields
            if obj.obj_attr_is_set(name)}


def _same_primitive(ours, theirs):
    ours, theirs = dict(ours), dict(theirs)
    # A list of changes in no particular order (both take a set's).
    assert sorted(ours.pop('ironic_object.changes', [])) == sorted(
        theirs.pop('ironic_object.changes', []))
    assert ours == theirs


@pytest.mark.parametrize('name', sorted(CLASSES))
def test_the_librarys_primitive_both_ways(name):
    cls = CLASSES[name]
    obj = _filled(cls)
    assert _fields(obj), 'no field could be filled'
    obj.obj_reset_changes(sorted(cls.fields)[::2])
    ours = obj.obj_to_primitive()
    _same_primitive(ours, _library_primitive(obj))
    back = cls.obj_from_primitive(ours)
    theirs = _library_object(cls, ours)
    assert _fields(back) == _fields(theirs) == _fields(obj)
    assert back.obj_what_changed() == theirs.obj_what_changed()
    assert back.VERSION == theirs.VERSION == cls.VERSION


@pytest.mark.parametrize('name', sorted(CLASSES))
def test_nullable_fields_as_none_both_ways(name):
    cls = CLASSES[name]
    obj = cls()
    for field in sorted(cls.fields):
        if cls.fields[field].nullable:
            setattr(obj, field, None)
    ours = obj.obj_to_primitive()
    _same_primitive(ours, _library_primitive(obj))
    assert _fields(cls.obj_from_primitive(ours)) == _fields(
        _library_object(cls, ours))


def test_an_older_version_and_a_child_object():
    node = _filled(objects.Node)
    node.traits = objects.TraitList(objects=[objects.Trait(
        trait='CUSTOM_A', node_id=7, created_at=_WHEN)])
    for version in sorted(objects.Node.field_history):
        ours = node.obj_to_primitive(target_version=version)
        _same_primitive(ours, _library_primitive(node, version))
        assert ours['ironic_object.version'] == version
        back = objects.Node.obj_from_primitive(ours)
        assert _fields(back) == _fields(_library_object(objects.Node, ours))
    assert back.traits[0].trait == 'CUSTOM_A'
    assert back.traits[0].created_at == _WHEN


def test_a_value_that_needs_its_coercion_still_gets_it():
    # A string field sent an integer, a boolean field an integer: the
    # library's setter converts them, and so does ironic-lite's.
    port = objects.Port(address='52:54:00:12:34:56', pxe_enabled=True,
                        physical_network='net')
    primitive = port.obj_to_primitive()
    primitive['ironic_object.data'].update(physical_network=5,
                                           pxe_enabled=0)
    back = objects.Port.obj_from_primitive(primitive)
    assert back.physical_network == '5'
    assert back.pxe_enabled is False
    assert _fields(back) == _fields(_library_object(objects.Port,
                                                    primitive))
    with pytest.raises(ValueError):
        primitive['ironic_object.data']['pxe_enabled'] = None  # not nullable
        objects.Port.obj_from_primitive(primitive)


def test_every_object_class_uses_the_fast_conversions():
    for name, cls in CLASSES.items():
        assert cls.obj_to_primitive is base.IronicObject.obj_to_primitive
        assert (cls._obj_from_primitive.__func__
                is base.IronicObject._obj_from_primitive.__func__), name
    assert field_values.plain_type(ovo_fields.StringField())
    assert not field_values.plain_type(ovo_fields.DateTimeField())
