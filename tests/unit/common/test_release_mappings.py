"""Guards on the release mapping (ironic_lite/common/release_mappings.py).

When a release is cut, copy ``master`` to the new entry AND add that entry
to tests/unit/common/release_mapping_snapshot.json.  Released entries are
frozen: the snapshot test fails if one is edited or removed.
"""

import json
import os

from oslo_utils import versionutils
import pytest

from ironic_lite.api import microversions
from ironic_lite.api import versions as api_versions
from ironic_lite.common import release_mappings as rm
from ironic_lite import conf
from ironic_lite.conductor import rpcapi
from tests.unit.objects import test_objects

SNAPSHOT = os.path.join(os.path.dirname(__file__),
                        'release_mapping_snapshot.json')
MASTER = rm.RELEASE_MAPPING['master']


def _vt(version):
    return versionutils.convert_version_to_tuple(version)


def _released():
    return {name: rm.RELEASE_MAPPING[name] for name in rm.released_names()}


def test_master_objects_are_the_registered_objects_at_version():
    classes = test_objects.registered_classes()
    assert set(MASTER['objects']) == set(classes)
    for name, cls in classes.items():
        assert MASTER['objects'][name][0] == cls.VERSION, name


def test_master_rpc_is_rpc_api_version():
    assert MASTER['rpc'] == rpcapi.RPC_API_VERSION


def test_master_has_no_api_the_api_serves_its_newest_unpinned():
    # Adding a microversion touches api/microversions.py only; a cut
    # records the number in the release's entry.
    assert 'api' not in MASTER
    assert conf.CONF.pin_release_version is None
    assert str(api_versions.max_version()) == \
        microversions.MAX_VERSION_STRING


@pytest.mark.parametrize('name', rm.released_names())
def test_released_api_is_a_known_microversion(name):
    major, minor = _vt(rm.RELEASE_MAPPING[name]['api'])
    assert major == microversions.BASE_VERSION
    assert minor in [v[0] for v in microversions.VERSIONS]
    assert (major, minor) <= microversions.MAX_VERSION


def test_master_api_is_the_highest_implemented_microversion():
    # VERSIONS lists what ironic-lite implements, in order: its last entry
    # is what master serves.
    minors = [v[0] for v in microversions.VERSIONS]
    assert minors == sorted(minors) and len(set(minors)) == len(minors)
    assert minors == list(range(1, minors[-1] + 1))
    assert (microversions.BASE_VERSION, minors[-1]) == \
        microversions.MAX_VERSION


def test_master_first_then_released_newest_first():
    names = list(rm.RELEASE_MAPPING)
    assert names[0] == 'master'
    assert names[1:] == rm.released_names()


@pytest.mark.parametrize('name', list(rm.RELEASE_MAPPING))
def test_each_entry_is_well_formed(name):
    entry = rm.RELEASE_MAPPING[name]
    keys = {'rpc', 'objects'} | ({'api'} if name != 'master' else set())
    # master declares what it rolls from and its hardware types; a cut
    # copies them into the frozen entry (older entries predate them).
    carried = {'rolls_from', 'hardware_types'}
    assert keys <= set(entry) <= keys | carried
    if name == 'master':
        assert carried <= set(entry)
    for obj, vers in entry['objects'].items():
        assert vers and vers == sorted(vers, key=_vt, reverse=True), obj


def _pairs():
    names = list(rm.RELEASE_MAPPING)
    return list(zip(names, names[1:]))


@pytest.mark.parametrize('newer,older', _pairs() or [pytest.param(
    None, None, marks=pytest.mark.skip(reason='one entry (master) only'))])
def test_versions_never_go_down(newer, older):
    new, old = rm.RELEASE_MAPPING[newer], rm.RELEASE_MAPPING[older]
    assert _vt(new.get('api', microversions.MAX_VERSION_STRING)) >= \
        _vt(old['api'])
    assert _vt(new['rpc']) >= _vt(old['rpc'])
    for obj, vers in old['objects'].items():
        assert obj in new['objects'], '%s vanished in %s' % (obj, newer)
        assert _vt(new['objects'][obj][0]) >= _vt(vers[0]), obj


def test_pin_choices_come_from_the_mapping():
    expected = set(rm.released_names()) | set(rm.RELEASE_ALIASES)
    assert set(rm.pin_choices()) == expected | {rm.AUTO}
    assert 'master' not in expected
    opt = conf.CONF._opts['pin_release_version']['opt']
    assert list(opt.type.choices) == rm.pin_choices()


def test_aliases_name_released_entries():
    for alias, name in rm.RELEASE_ALIASES.items():
        assert name in rm.released_names(), alias
        assert alias not in rm.RELEASE_MAPPING, alias


def test_released_names_are_semver():
    for name in rm.released_names():
        assert all(part.isdigit() for part in name.split('.')), name


def test_released_entries_match_the_snapshot():
    with open(SNAPSHOT) as f:
        frozen = json.load(f)
    released = _released()
    for name, entry in frozen.items():
        assert name in released, 'released entry %s was removed' % name
        assert released[name] == entry, 'released entry %s changed' % name
    new = set(released) - set(frozen)
    assert not new, ('add the newly cut %s to %s' % (sorted(new), SNAPSHOT))
