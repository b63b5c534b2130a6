"""Guards on the object definitions themselves.

If a test here fails after you changed an object, follow
doc/source/contributor/rolling-upgrades.rst: bump VERSION, add the version
to field_history, update RELEASE_MAPPING['master'] -- then update the
expected fingerprint below.  Never update the fingerprint alone.
"""

from oslo_utils import versionutils
from oslo_versionedobjects import fixture
import pytest

from ironic_lite import objects
from ironic_lite.objects import base

objects.register_all()

# '<VERSION>-<fingerprint of the fields and remotable methods>'.
EXPECTED_OBJECT_FINGERPRINTS = {
    'Chassis': '1.0-d656e039fd8ae9f34efc232ab3980905',
    'Conductor': '1.1-8a02392fb693190a75c07b7d1368f90d',
    'Service': '1.1-e5dc67121d798b9350e20910efdf4df8',
    'Node': '1.5-4ab5f8253936bcdf5dace35c7905fc00',
    'Port': '1.1-b636166cc0cdcbbdd73436ca4a3d182a',
    'Portgroup': '1.1-4672abb2869a28e8a921b7a0747541e7',
    'Trait': '1.0-1d5be7db66a34b700ecab498599f9273',
    'FirmwareComponent': '1.0-7ecd119471acde3f5964a0b8dfafcb3b',
    'FirmwareComponentList': '1.0-33a2e1bb91ad4082f9f63429b77c1244',
    'TraitList': '1.0-33a2e1bb91ad4082f9f63429b77c1244',
    # Allocations (release 4.0).
    'Allocation': '1.0-38937f2854722f1057ec667b12878708',
    # Release 4.0: volume connectors and targets.
    'VolumeConnector': '1.0-3e0252c0ab6e6b9d158d09238a577d97',
    'VolumeTarget': '1.0-0b10d663d8dae675900b2c7548f76f5e',
    # Release 4.0: deploy templates (API 1.55).
    'DeployTemplate': '1.0-4e30c8e9098595e359bb907f095bf1a9',
    # Release 5.0: BIOS settings (API 1.40) and node history (API 1.78).
    'BIOSSetting': '1.0-054a26d8e261a76198623773e5659292',
    'BIOSSettingList': '1.0-33a2e1bb91ad4082f9f63429b77c1244',
    'NodeHistory': '1.1-9a3d9ddcddc29370d802b3afd7285254',
    'NodeInventory': '1.0-97692fec24e20ab02022b9db54e8f539',
    'InspectionRule': '1.0-517185d327442696e408781343c2b83f',
    # Release 6.0: runbooks (API 1.92, traits 1.112).
    'Runbook': '1.0-928a7c7b317651458ab28c124c0550a2',
}


def registered_classes():
    """The newest registered class of each object name."""
    return {name: getattr(objects, name)
            for name in base.IronicObjectRegistry.obj_classes()}


def _vtuple(version):
    return versionutils.convert_version_to_tuple(version)


def test_object_fingerprints_match_expected():
    checker = fixture.ObjectVersionChecker(
        base.IronicObjectRegistry.obj_classes())
    expected, actual = checker.test_hashes(EXPECTED_OBJECT_FINGERPRINTS)
    assert expected == actual, (
        'Object fields changed: bump VERSION (and field_history, the '
        'release mapping) before updating EXPECTED_OBJECT_FINGERPRINTS')


def test_every_expected_object_is_registered():
    assert set(registered_classes()) == set(EXPECTED_OBJECT_FINGERPRINTS)


@pytest.mark.parametrize('name', sorted(EXPECTED_OBJECT_FINGERPRINTS))
def test_field_history_covers_exactly_the_fields(name):
    cls = registered_classes()[name]
    listed = [f for added in cls.field_history.values() for f in added]
    assert sorted(listed) == sorted(set(listed)), 'a field listed twice'
    assert set(listed) == set(cls.fields)


@pytest.mark.parametrize('name', sorted(EXPECTED_OBJECT_FINGERPRINTS))
def test_field_history_ascends_to_version(name):
    cls = registered_classes()[name]
    versions = list(cls.field_history)
    assert versions == sorted(versions, key=_vtuple)
    assert versions[-1] == cls.VERSION


@pytest.mark.parametrize('name', sorted(EXPECTED_OBJECT_FINGERPRINTS))
def test_version_history_comment_names_version(name):
    import inspect
    source = inspect.getsource(registered_classes()[name])
    assert '# Version %s:' % registered_classes()[name].VERSION in source


@pytest.mark.parametrize('name', sorted(EXPECTED_OBJECT_FINGERPRINTS))
def test_upgrade_defaults_name_real_later_fields(name):
    cls = registered_classes()[name]
    first = set(cls.field_history[next(iter(cls.field_history))])
    assert set(cls.field_upgrade_defaults) <= set(cls.fields) - first
