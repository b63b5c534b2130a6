"""Objects holding objects: ``obj_relationships`` and the downgrade.

``IronicObject.obj_make_compatible`` lets oslo.versionedobjects downgrade
a child object (``Node.traits``, a ``TraitList``) to the version
``obj_relationships`` gives for the parent's target version, then drops
the fields that version lacks.  The table must say what the releases
say: the child version each release's entry lists beside the parent's.
"""

from oslo_utils import versionutils
from oslo_versionedobjects import base as ovo_base
from oslo_versionedobjects import fixture
import pytest

from ironic_lite.common import release_mappings
from ironic_lite import objects
from ironic_lite.objects import base
from ironic_lite.objects import fields
from tests.unit.objects import test_objects

CLASSES = test_objects.registered_classes()
_OBJECT_FIELDS = (fields.ObjectField, fields.ListOfObjectsField)


def _vt(version):
    return versionutils.convert_version_to_tuple(version)


def child_fields():
    """(class name, field name, child class name) of every object field of
    an object (a list's own ``objects`` field is the list's business)."""
    return [(name, field_name, field.objname)
            for name, cls in sorted(CLASSES.items())
            if not issubclass(cls, ovo_base.ObjectListBase)
            for field_name, field in sorted(cls.fields.items())
            if isinstance(field, _OBJECT_FIELDS)]


def child_version(relationships, parent_version):
    """The child version ``relationships`` give for ``parent_version``;
    None before the child existed (as oslo.versionedobjects reads it)."""
    found = None
    for parent, child in relationships:
        if _vt(parent) <= _vt(parent_version):
            found = child
    return found


def test_there_are_child_fields_to_check():
    assert ('Node', 'traits', 'TraitList') in child_fields()


@pytest.mark.parametrize('name,field,child', child_fields())
def test_relationships_start_with_the_field_and_end_at_the_child(
        name, field, child):
    cls = CLASSES[name]
    rows = cls.obj_relationships.get(field)
    assert rows, '%s.obj_relationships has no row for %s' % (name, field)
    added = next(v for v, names in cls.field_history.items()
                 if field in names)
    assert rows[0][0] == added
    assert [r[0] for r in rows] == sorted((r[0] for r in rows), key=_vt)
    assert [r[1] for r in rows] == sorted((r[1] for r in rows), key=_vt)
    assert child_version(rows, cls.VERSION) == CLASSES[child].VERSION, (
        '%s was bumped: bump %s too and add a row to its '
        'obj_relationships[%r]' % (child, name, field))


@pytest.mark.parametrize('release', list(release_mappings.RELEASE_MAPPING))
@pytest.mark.parametrize('name,field,child', child_fields())
def test_relationships_agree_with_the_release_mapping(release, name, field,
                                                      child):
    objects_of = release_mappings.RELEASE_MAPPING[release]['objects']
    if name not in objects_of:
        pytest.skip('%s has no %s' % (release, name))
    parent_version = objects_of[name][0]
    expected = objects_of[child][0] if child in objects_of else None
    assert child_version(CLASSES[name].obj_relationships[field],
                         parent_version) == expected, (
        'release %s lists %s %s beside %s %s, not what '
        '%s.obj_relationships[%r] says'
        % (release, name, parent_version, child, expected, name, field))


def test_oslo_checks_of_the_relationships():
    checker = fixture.ObjectVersionChecker(
        base.IronicObjectRegistry.obj_classes())
    checker.test_relationships_in_order()
    checker.test_compatibility_routines()


class SampleChild(base.IronicObject):
    # Version 1.0: id
    # Version 1.1: color
    VERSION = '1.1'
    fields = dict(base.IronicObject.fields, **{
        'id': fields.IntegerField(),
        'color': fields.StringField(nullable=True),
    })
    field_history = {
        '1.0': ('created_at', 'updated_at', 'id'),
        '1.1': ('color',),
    }


class SampleParent(base.IronicObject):
    # Version 1.0: id
    # Version 1.1: child, children (SampleChild 1.0)
    # Version 1.2: SampleChild 1.1
    VERSION = '1.2'
    fields = dict(base.IronicObject.fields, **{
        'id': fields.IntegerField(),
        'child': fields.ObjectField('SampleChild', nullable=True),
        'children': fields.ListOfObjectsField('SampleChild'),
    })
    field_history = {
        '1.0': ('created_at', 'updated_at', 'id'),
        '1.1': ('child', 'children'),
        '1.2': (),
    }
    obj_relationships = {
        'child': [('1.1', '1.0'), ('1.2', '1.1')],
        'children': [('1.1', '1.0'), ('1.2', '1.1')],
    }


@pytest.fixture
def sample_classes():
    """Register SampleChild and SampleParent for one test only."""
    for cls in (SampleChild, SampleParent):
        base.IronicObjectRegistry.register(cls)
    yield
    for cls in (SampleChild, SampleParent):
        del base.IronicObjectRegistry._registry._obj_classes[cls.__name__]
        delattr(objects, cls.__name__)


def sample_parent():
    def child(ident):
        return SampleChild(id=ident, color='red')
    return SampleParent(id=1, child=child(2), children=[child(3), child(4)])


def data(primitive):
    return primitive['ironic_object.data']


@pytest.mark.parametrize('version,child_version,child_fields', [
    ('1.2', '1.1', {'id', 'color'}),
    ('1.1', '1.0', {'id'}),
])
def test_children_are_downgraded_with_their_parent(
        sample_classes, version, child_version, child_fields):
    primitive = sample_parent().obj_to_primitive(target_version=version)
    children = [data(primitive)['child']] + data(primitive)['children']
    assert [c['ironic_object.version'] for c in children] == [
        child_version] * 3
    assert all(set(data(c)) == child_fields for c in children)


def test_children_are_left_out_before_they_existed(sample_classes):
    primitive = sample_parent().obj_to_primitive(target_version='1.0')
    assert set(data(primitive)) == {'id'}


def test_a_version_manifest_downgrades_the_children(sample_classes):
    primitive = sample_parent().obj_to_primitive(
        target_version='1.2', version_manifest={'SampleChild': '1.0'})
    assert data(primitive)['child']['ironic_object.version'] == '1.0'
    assert set(data(data(primitive)['child'])) == {'id'}
