"""Conversion cases generated from every object's ``field_history``.

For each object and each version in its history (the latest included, so
every object is tested now; older versions join automatically once they
exist) an object converted to that version must carry exactly that
version's fields, and reading it back must give a latest object whose
defaulted fields are not marked changed (so saving it does not overwrite
what is stored).  A two-version test-only object checks the machinery
itself before any real object has a second version.
"""

import pytest

from ironic_lite.common import context as ir_context
from ironic_lite import objects
from ironic_lite.objects import base
from ironic_lite.objects import fields
from tests.unit.objects import test_objects
from tests.unit.objects import utils

CLASSES = test_objects.registered_classes()
CASES = [(name, version) for name, cls in sorted(CLASSES.items())
         for version in cls.field_history]


class SampleWidget(base.IronicObject):
    # Version 1.0: id, name
    # Version 1.1: color (defaults to 'blue' for 1.0 senders), size
    VERSION = '1.1'
    fields = dict(base.IronicObject.fields, **{
        'id': fields.IntegerField(),
        'name': fields.StringField(nullable=True),
        'color': fields.StringField(nullable=True),
        'size': fields.IntegerField(nullable=True, default=3),
    })
    field_history = {
        '1.0': ('created_at', 'updated_at', 'id', 'name'),
        '1.1': ('color', 'size'),
    }
    field_upgrade_defaults = {'color': 'blue'}


@pytest.fixture
def widget():
    """Register SampleWidget for one test only."""
    base.IronicObjectRegistry.register(SampleWidget)
    yield SampleWidget
    del base.IronicObjectRegistry._registry._obj_classes['SampleWidget']
    delattr(objects, 'SampleWidget')


def newer_fields(cls, version):
    return cls.fields_at(cls.VERSION) - cls.fields_at(version)


def check_primitive(cls, version):
    primitive = utils.sample_object(cls).obj_to_primitive(
        target_version=version)
    assert primitive['ironic_object.version'] == version
    assert set(primitive['ironic_object.data']) == cls.fields_at(version)
    assert not newer_fields(cls, version) & set(
        primitive['ironic_object.data'])


def check_round_trip(cls, version):
    """Old primitive -> latest object; defaulted fields not changed."""
    obj = utils.sample_object(cls)
    obj.obj_reset_changes()
    primitive = obj.obj_to_primitive(target_version=version)
    serializer = base.IronicObjectSerializer()
    new = serializer.deserialize_entity(ir_context.get_admin_context(),
                                        primitive)
    assert type(new) is cls and new.VERSION == cls.VERSION
    assert new.obj_what_changed() == set()
    for name in cls.fields_at(version):
        assert getattr(new, name) == getattr(obj, name)
    for name in newer_fields(cls, version):
        assert new.obj_attr_is_set(name), name


def check_changes_survive(cls, version):
    """Fields changed by an old sender stay changed; defaults do not."""
    primitive = utils.sample_object(cls).obj_to_primitive(
        target_version=version)
    new = base.IronicObjectSerializer().deserialize_entity(
        ir_context.get_admin_context(), primitive)
    assert new.obj_what_changed() == cls.fields_at(version)


@pytest.mark.parametrize('name,version', CASES)
def test_primitive_has_exactly_the_version_fields(name, version):
    check_primitive(CLASSES[name], version)


@pytest.mark.parametrize('name,version', CASES)
def test_old_primitive_reads_back_as_latest(name, version):
    check_round_trip(CLASSES[name], version)


@pytest.mark.parametrize('name,version', CASES)
def test_changes_of_old_sender_survive(name, version):
    check_changes_survive(CLASSES[name], version)


@pytest.mark.parametrize('version', ['1.0', '1.1'])
def test_machinery_on_two_version_object(widget, version):
    check_primitive(widget, version)
    check_round_trip(widget, version)
    check_changes_survive(widget, version)


def test_upgrade_defaults_fill_newer_fields(widget):
    primitive = utils.sample_object(widget).obj_to_primitive(
        target_version='1.0')
    new = base.IronicObjectSerializer().deserialize_entity(
        ir_context.get_admin_context(), primitive)
    assert (new.color, new.size) == ('blue', 3)


def test_pinned_db_changes_omit_newer_fields(widget, monkeypatch):
    monkeypatch.setattr(widget, 'get_target_version',
                        classmethod(lambda cls: '1.0'))
    changes = utils.sample_object(widget).do_version_changes_for_db()
    assert changes.pop('version') == '1.0'
    assert set(changes) == widget.fields_at('1.0')


def test_pinned_rpc_send_uses_pinned_version(widget, monkeypatch):
    monkeypatch.setattr(widget, 'get_target_version',
                        classmethod(lambda cls: '1.0'))
    primitive = base.IronicObjectSerializer().serialize_entity(
        ir_context.get_admin_context(), utils.sample_object(widget))
    assert primitive['ironic_object.version'] == '1.0'
    assert 'color' not in primitive['ironic_object.data']
