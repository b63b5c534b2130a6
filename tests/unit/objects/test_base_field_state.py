"""``IronicObject.obj_attr_is_set`` and ``obj_what_changed``: the same
answers as oslo.versionedobjects' own, by a dict lookup.

The library's versions build the list of every field name on each call
of ``obj_attr_is_set``; ironic-lite's skip that (the hot write paths ask
hundreds of times per request).  These tests hold them to the library's
behaviour for every registered class: set, unset and extra fields, an
unknown name, changes of the object itself and of a child object.
"""

from oslo_versionedobjects import base as ovo_base
import pytest

from ironic_lite import objects
from ironic_lite.objects import base
from tests.unit.objects import test_objects

CLASSES = test_objects.registered_classes()


def _library(method, obj, *args):
    return getattr(ovo_base.VersionedObject, method)(obj, *args)


@pytest.mark.parametrize('name', sorted(CLASSES))
def test_attr_is_set_answers_as_the_library(name):
    cls = CLASSES[name]
    obj = cls()
    names = sorted(cls.fields)
    for field in names[::2]:  # half set, half not
        obj._changed_fields.add(field)
        setattr(obj, '_obj_' + field, None)
    for field in list(names) + list(cls.obj_extra_fields):
        assert (obj.obj_attr_is_set(field)
                == _library('obj_attr_is_set', obj, field)), field
    with pytest.raises(AttributeError):
        obj.obj_attr_is_set('no_such_field')
    assert (_library('obj_what_changed', obj) == obj.obj_what_changed()
            == set(names[::2]))
    obj.obj_reset_changes()
    assert obj.obj_what_changed() == set()


def test_a_changed_child_object_is_a_change_of_its_parent():
    trait = objects.Trait(trait='CUSTOM_A')
    node = objects.Node(traits=objects.TraitList(objects=[trait]))
    node.obj_reset_changes(recursive=True)
    assert node.obj_what_changed() == set()
    trait.trait = 'CUSTOM_B'
    assert node.obj_what_changed() == {'traits'}
    assert _library('obj_what_changed', node) == {'traits'}


def test_every_object_class_uses_the_fast_paths():
    for name, cls in CLASSES.items():
        if issubclass(cls, ovo_base.ObjectListBase):
            continue  # a list's changes are its objects' (the library's)
        assert cls.obj_attr_is_set is base.IronicObject.obj_attr_is_set, name
        assert (cls.obj_what_changed
                is base.IronicObject.obj_what_changed), name


def _fields(obj):
    return {name: getattr(obj, name) for name in obj.fields
            if obj.obj_attr_is_set(name)}


@pytest.mark.parametrize('name', sorted(CLASSES))
def test_a_clone_is_the_librarys_copy(name):
    cls = CLASSES[name]
    obj = cls()
    # Every nullable field set, through its coercion, as None.
    nullable = [f for f in sorted(cls.fields) if cls.fields[f].nullable]
    for field in nullable:
        setattr(obj, field, None)
    obj.obj_reset_changes(nullable[::2])
    theirs = ovo_base.VersionedObject.__deepcopy__(obj, {})
    ours = obj.obj_clone()
    assert type(ours) is cls
    assert _fields(ours) == _fields(theirs) == _fields(obj)
    assert ours.obj_what_changed() == theirs.obj_what_changed()


def test_a_clone_of_a_node_holds_copies_of_its_containers():
    trait = objects.Trait(trait='CUSTOM_A')
    node = objects.Node(None, driver='fake-hardware', name='n-1',
                        extra={'a': {'b': [1]}},
                        traits=objects.TraitList(objects=[trait]))
    node.obj_reset_changes(recursive=True)
    node.driver_info = {'x': 1}
    clone = node.obj_clone()
    assert _fields(clone) == _fields(node)
    assert clone.obj_what_changed() == {'driver_info'}
    assert clone._context is node._context
    clone.extra['a']['b'].append(2)
    clone.traits[0].trait = 'CUSTOM_B'
    assert node.extra == {'a': {'b': [1]}}
    assert node.traits[0].trait == 'CUSTOM_A'
