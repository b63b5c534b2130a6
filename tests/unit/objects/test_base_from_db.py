"""Reading a row stores exactly what the fields' coercion would store."""

import datetime
import types

from oslo_utils import versionutils
import pytest

from ironic_lite.db import models
from ironic_lite import objects
from ironic_lite.objects import base

objects.register_all()


def _version_before(field):
    """The Node version just before the one that added ``field``."""
    versions = sorted(objects.Node.field_history,
                      key=versionutils.convert_version_to_tuple)
    added = next(v for v in versions
                 if field in objects.Node.field_history[v])
    return versions[versions.index(added) - 1]


def _row(**values):
    """A nodes row as the ORM returns one: every column of the model
    (NULL unless given a value here), written at the current version."""
    row = dict.fromkeys(models.Node.__table__.columns.keys())
    row.update(
        id=7, uuid='1be26c0b-03f2-4d2e-ae87-c02d7f33c781', name='n1',
        chassis_id=None, instance_uuid=None, driver='fake-hardware',
        driver_info='{"ipmi_password": "x"}', driver_internal_info='{}',
        instance_info=None, properties='{"cpus": 8}', extra='{}',
        clean_step='null', deploy_step={}, raid_config='{}',
        target_raid_config='{}', network_data='{}', reservation=None,
        conductor_affinity=3, conductor_group='', power_state='power off',
        maintenance=False, console_enabled=0, protected=True,
        automated_clean=None, retired=None, shard='s1',
        version=objects.Node.VERSION,
        created_at=datetime.datetime(2026, 1, 2, 3, 4, 5),
        updated_at=None, inspect_interface='fake')
    row.update(values)
    return types.SimpleNamespace(**row)


def _reference(row):
    node = objects.Node()
    for name in objects.Node.fields:
        if hasattr(row, name):
            setattr(node, name, getattr(row, name))
    return node


@pytest.mark.parametrize('values', [
    {}, {'extra': ''}, {'extra': '[["a", 1]]'}, {'name': 5},
    {'maintenance': None},
    {'conductor_affinity': True}, {'properties': '{}'},
    {'extra': {'a': 1}},
    {'updated_at': datetime.datetime(2026, 1, 2, tzinfo=datetime.UTC)},
    {'updated_at': '2026-01-02T03:04:05'}, {'updated_at': 5}])
def test_fast_path_matches_the_field_setters(values):
    row = _row(**values)
    try:
        expected = _reference(row)
    except ValueError:
        with pytest.raises(ValueError):
            base.IronicObject._from_db_object(None, objects.Node(), row)
        return
    node = base.IronicObject._from_db_object(None, objects.Node(), row)
    for name in objects.Node.fields:
        if expected.obj_attr_is_set(name):
            got, want = getattr(node, name), getattr(expected, name)
            assert (got, type(got)) == (want, type(want)), name
            assert getattr(got, 'tzinfo', None) == getattr(
                want, 'tzinfo', None), name
        else:
            assert not node.obj_attr_is_set(name), name
    assert not node.obj_what_changed()


@pytest.mark.parametrize('version', [_version_before('traits'),
                                     objects.Node.VERSION])
def test_fields_of_other_tables_are_left_to_their_loader(version):
    # traits is not a column: reading a row of any version, older than
    # traits or not, leaves it unset for Node._load_traits, never an
    # upgrade default.
    node = base.IronicObject._from_db_object(None, objects.Node(),
                                             _row(version=version))
    assert node.VERSION == objects.Node.VERSION
    assert not node.obj_attr_is_set('traits')


def test_empty_trait_list_is_what_the_constructor_makes():
    """A node without traits gets its empty TraitList built directly
    (objects.trait.TraitList._empty): the same object as TraitList()."""
    ctx = object()
    fast = objects.TraitList._from_rows(ctx, [])
    slow = objects.TraitList(ctx)
    assert fast.obj_to_primitive() == slow.obj_to_primitive()
    assert fast.obj_what_changed() == slow.obj_what_changed() == set()
    assert fast._context is ctx
    assert type(fast.objects) is type(slow.objects)
    assert fast.obj_attr_is_set('objects')
    # What is added is still coerced, as in a list the setter made.
    with pytest.raises(ValueError):
        fast.objects.append('not a trait')
    fast.objects.append(objects.Trait(trait='CUSTOM_A', node_id=1))
    assert fast.get_trait_names() == ['CUSTOM_A']


def _port_row(**values):
    row = dict.fromkeys(models.Port.__table__.columns.keys())
    row.update(id=3, uuid='5be26c0b-03f2-4d2e-ae87-c02d7f33c782', node_id=7,
               address='52:54:00:12:34:56', extra='{}',
               local_link_connection='{}', internal_info='{}',
               pxe_enabled=True, is_smartnic=False,
               version=objects.Port.VERSION)
    row.update(values)
    return types.SimpleNamespace(**row)


@pytest.mark.parametrize('address', [
    '52:54:00:12:34:56', '52:54:00:AB:cd:EF', '52-54-00-ab-cd-ef', None,
    'not a mac', '52:54:00:12:34:56\n', 5])
def test_a_mac_address_is_what_the_field_would_store(address):
    """A port's address read from a row: normalized, or refused, exactly
    as the field's own setter does (the fast path skips only the
    property's bookkeeping)."""
    row = _port_row(address=address)
    reference = objects.Port()
    try:
        reference.address = address
    except Exception as exc:
        with pytest.raises(type(exc)):
            base.IronicObject._from_db_object(None, objects.Port(), row)
        return
    port = base.IronicObject._from_db_object(None, objects.Port(), row)
    assert port.address == reference.address
    assert not port.obj_what_changed()
