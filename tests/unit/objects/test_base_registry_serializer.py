"""objects/base.py: the newest registered class is ``objects.<Name>``,
and what the serializer does with what it receives: the call's context on
the object, and a clear error for a version this release cannot read."""

from oslo_versionedobjects import base as ovo_base
from oslo_versionedobjects import fields as ovo_fields
import pytest

from ironic_lite.common import context as ir_context
from ironic_lite.common import exception
from ironic_lite import objects
from ironic_lite.objects import base


@pytest.fixture
def registry():
    """Registers classes named ``ProbeThing``; removes them afterwards."""
    classes = ovo_base.VersionedObjectRegistry.obj_classes()
    yield base.IronicObjectRegistry
    classes.pop('ProbeThing', None)
    if hasattr(objects, 'ProbeThing'):
        delattr(objects, 'ProbeThing')


def _thing(version):
    return type('ProbeThing', (base.IronicObject,), {
        'VERSION': version,
        'fields': {'name': ovo_fields.StringField(nullable=True)},
        'field_history': {'1.0': ('created_at', 'updated_at', 'name')},
    })


def test_the_newest_registered_class_is_objects_name(registry):
    v11 = registry.register(_thing('1.1'))
    assert objects.ProbeThing is v11
    # An older version registered later does not replace it ...
    registry.register(_thing('1.0'))
    assert objects.ProbeThing is v11
    # ... nor does the same version again, a newer one does (by version:
    # 1.10 after 1.9).
    registry.register(_thing('1.1'))
    assert objects.ProbeThing is v11
    v19 = registry.register(_thing('1.9'))
    assert objects.ProbeThing is v19
    v110 = registry.register(_thing('1.10'))
    assert objects.ProbeThing is v110


def test_a_received_object_carries_the_calls_context():
    objects.register_all()
    ctx = ir_context.get_admin_context()
    primitive = objects.Port(address='52:54:00:00:00:01').obj_to_primitive()
    port = base.IronicObjectSerializer().deserialize_entity(ctx, primitive)
    assert port._context is ctx


def test_a_version_too_new_is_a_clear_error():
    objects.register_all()
    primitive = objects.Port(address='52:54:00:00:00:01').obj_to_primitive()
    primitive['ironic_object.version'] = '2.0'
    with pytest.raises(exception.IncompatibleObjectVersion) as exc:
        base.IronicObjectSerializer().deserialize_entity(
            ir_context.get_admin_context(), primitive)
    assert str(exc.value) == (
        'Version 2.0 of Port is not supported: the newest this release '
        'knows is %s.' % objects.Port.VERSION)


def test_objects_in_a_list_or_a_dict_are_converted_to_the_latest_too():
    objects.register_all()
    ctx = ir_context.get_admin_context()
    old = objects.Node(uuid='1be26c0b-03f2-4d2e-ae87-c02d7f33c781',
                       driver='fake-hardware').obj_to_primitive(
                           target_version='1.0')
    received = base.IronicObjectSerializer().deserialize_entity(
        ctx, {'nodes': [old], 'one': old})
    for node in received['nodes'] + [received['one']]:
        assert type(node) is objects.Node
        assert node.VERSION == objects.Node.VERSION
