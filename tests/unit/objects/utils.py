"""Helpers for the generated object tests: sample values, test releases."""

import contextlib
import copy
import datetime

from oslo_utils import uuidutils

from ironic_lite.common import release_mappings
from ironic_lite import conf
from ironic_lite.objects import fields

CONF = conf.CONF

# Checked in order: the first matching field class gives the sample value.
_SAMPLES = (
    (fields.FlexibleDictField, lambda: {'sample': 'value'}),
    (fields.MACAddressField, lambda: '52:54:00:12:34:56'),
    (fields.UUIDField, uuidutils.generate_uuid),
    (fields.ListOfStringsField, lambda: ['sample']),
    (fields.BooleanField, lambda: True),
    (fields.IntegerField, lambda: 7),
    (fields.DateTimeField,
     lambda: datetime.datetime(2026, 1, 2, 3, 4, 5,
                               tzinfo=datetime.timezone.utc)),
    (fields.StringField, lambda: 'sample'),
    (fields.ListOfObjectsField, lambda: []),
    (fields.ObjectField, lambda: _sample_trait_list()),
    (fields.ListOfFlexibleDictsField,
     lambda: [{'interface': 'bios', 'step': 'apply_configuration',
               'args': {}, 'priority': 150}]),
)


def _sample_trait_list():
    # The only object-valued field so far is Node.traits.
    from ironic_lite import objects
    traits = objects.TraitList(objects=[objects.Trait(
        node_id=7, trait='CUSTOM_SAMPLE')])
    traits.obj_reset_changes(recursive=True)
    return traits


def sample_value(field):
    for field_class, make in _SAMPLES:
        if isinstance(field, field_class):
            return make()
    raise AssertionError('No sample value for %r: add one to _SAMPLES in '
                         'tests/unit/objects/utils.py' % field)


def sample_object(cls, **values):
    """An object of ``cls`` with every field set (and marked changed)."""
    obj = cls()
    for name, field in cls.fields.items():
        setattr(obj, name, values.get(name, sample_value(field)))
    return obj


def released_object_cases(object_names):
    """(release, object name) for each released entry naming the object."""
    return [(release, name)
            for release in release_mappings.released_names()
            for name in object_names
            if name in release_mappings.RELEASE_MAPPING[release]['objects']]


@contextlib.contextmanager
def pinned(release):
    """Run with ``[DEFAULT]/pin_release_version`` set to ``release``."""
    CONF.set_override('pin_release_version', release)
    try:
        yield
    finally:
        CONF.clear_override('pin_release_version')


@contextlib.contextmanager
def fake_release(name, objects=None):
    """Add a released entry (a copy of master, object versions replaced).

    Also makes it a valid ``pin_release_version`` choice, so tests can
    exercise pinning before the first release is cut.
    """
    entry = copy.deepcopy(release_mappings.RELEASE_MAPPING['master'])
    entry['objects'].update(objects or {})
    release_mappings.RELEASE_MAPPING[name] = entry
    choices = CONF._opts['pin_release_version']['opt'].type.choices
    choices[name] = None
    try:
        yield entry
    finally:
        del release_mappings.RELEASE_MAPPING[name]
        del choices[name]
