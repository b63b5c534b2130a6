"""Skip-level rolling upgrades: what ``rolls_from`` in the release mapping
decides (issue 25), checked on the real mapping and on made-up ones.

The rule of ``rolls_from`` (``roll_from_problems``): a release may only
declare releases whose object versions and RPC version its code still
reads, newest first and without a gap.  At a cut, ``master``'s list
becomes the new release followed by those of the old list that still
pass it.
"""

from oslo_utils import versionutils
import pytest

from ironic_lite.common import config
from ironic_lite.common import release_mappings as rm
from ironic_lite.common import release_pin
from ironic_lite.common import upgrade_state
from ironic_lite.conductor import rpcapi
from ironic_lite import version
from tests.unit.objects import test_objects

MASTER = rm.RELEASE_MAPPING['master']


def _older_releases():
    """The released names older than this tree's own release, newest
    first (from its cut commit on, that release is in the mapping too)."""
    return [n for n in rm.released_names()
            if rm._vt(n) < rm._vt(version.RELEASE)]


def roll_from_problems(name, object_versions, rpc_version):
    """Why entry ``name`` may not roll from what it declares (a list).

    :param object_versions: {object name: the VERSION of that release's
        code}; every version a roll-from release lists must be one this
        code still converts (the same major, not newer).
    :param rpc_version: that code's RPC API version; a roll-from
        release's RPC version must be one its server still accepts (the
        same major, not newer).
    """
    problems = []
    declared = rm.rolls_from(name if name != 'master' else None)
    released = rm.released_names()
    for old in declared:
        if old not in released:
            problems.append('%s is not a released name' % old)
            continue
        entry = rm.RELEASE_MAPPING[old]
        if not readable(entry['rpc'], rpc_version):
            problems.append('RPC %s of %s is not served by %s'
                            % (entry['rpc'], old, rpc_version))
        for obj, versions in sorted(entry['objects'].items()):
            bad = [v for v in versions
                   if not readable(v, object_versions.get(obj))]
            if bad:
                problems.append('%s %s of %s is not read by %s %s' % (
                    obj, ', '.join(bad), old, obj, object_versions.get(obj)))
    older = _older_releases()
    if declared and older and declared[0] != older[0] and (
            name == 'master'):
        problems.append('the newest release %s must come first'
                        % older[0])
    expected = [n for n in released if declared and
                rm._vt(declared[-1]) <= rm._vt(n) <= rm._vt(declared[0])]
    if declared != expected:
        problems.append('%s is not a newest-first run of releases without '
                        'a gap (%s)' % (declared, expected))
    return problems


def readable(old, current):
    if current is None:
        return False
    return versionutils.is_compatible(old, current)


def _code_versions():
    return {name: cls.VERSION
            for name, cls in test_objects.registered_classes().items()}


def _entry(rpc, **objects):
    return {'api': '1.81', 'rpc': rpc,
            'objects': {k: list(v) for k, v in objects.items()}}


def _mapping(monkeypatch, rolls_from, **released):
    master = _entry('2.1', Node=['2.3'])
    del master['api']
    master['rolls_from'] = rolls_from
    mapping = {'master': master}
    mapping.update(released)
    monkeypatch.setattr(rm, 'RELEASE_MAPPING', mapping)
    monkeypatch.setattr(rm, 'RELEASE_ALIASES', {})
    monkeypatch.setattr(version, 'RELEASE', '12.0')


def test_this_tree_rolls_from_the_newest_release_and_the_one_before():
    names = _older_releases()
    assert MASTER['rolls_from'] == names[:2]
    assert rm.rolls_from() == names[:2]
    assert rm.oldest_roll_from() == names[1]


def test_the_real_mapping_reads_what_it_rolls_from():
    assert roll_from_problems('master', _code_versions(),
                              rpcapi.RPC_API_VERSION) == []


@pytest.mark.parametrize('name', rm.released_names())
def test_released_entries_roll_from_the_releases_just_before(name):
    # The releases just before, newest first; an entry cut before
    # rolls_from existed rolls from the previous release only.
    older = [n for n in rm.released_names() if rm._vt(n) < rm._vt(name)]
    declared = rm.RELEASE_MAPPING[name].get('rolls_from') or [None]
    assert rm.rolls_from(name) == older[:len(declared)]


def test_supported_object_versions_cover_every_roll_from_release():
    supported = rm.supported_object_versions()
    for old in rm.rolls_from():
        for obj, versions in rm.RELEASE_MAPPING[old]['objects'].items():
            assert set(versions) <= supported[obj], (old, obj)


def test_a_release_cannot_roll_from_object_versions_it_no_longer_reads(
        monkeypatch):
    # 10.0 wrote Node 1.9: a new major (2.x) no longer converts it.
    _mapping(monkeypatch, ['11.0', '10.0'],
             **{'11.0': _entry('2.0', Node=['2.2']),
                '10.0': _entry('2.0', Node=['1.9'])})
    problems = roll_from_problems('master', {'Node': '2.3'}, '2.1')
    assert problems == ['Node 1.9 of 10.0 is not read by Node 2.3']


def test_a_release_cannot_roll_from_an_rpc_it_no_longer_serves(monkeypatch):
    _mapping(monkeypatch, ['11.0', '10.0'],
             **{'11.0': _entry('2.0', Node=['2.2']),
                '10.0': _entry('1.9', Node=['2.0'])})
    problems = roll_from_problems('master', {'Node': '2.3'}, '2.1')
    assert problems == ['RPC 1.9 of 10.0 is not served by 2.1']


def test_an_object_the_code_lost_is_not_read(monkeypatch):
    _mapping(monkeypatch, ['11.0'],
             **{'11.0': _entry('2.0', Node=['2.2'], Gone=['1.0'])})
    assert roll_from_problems('master', {'Node': '2.3'}, '2.1') == [
        'Gone 1.0 of 11.0 is not read by Gone None']


@pytest.mark.parametrize('declared,problem', [
    (['10.0'], 'the newest release 11.0 must come first'),
    (['11.0', '9.0'], 'without a gap'),
    (['10.0', '11.0'], 'without a gap'),
    (['11.0', '8.5'], '8.5 is not a released name'),
])
def test_roll_from_is_a_run_from_the_newest_release(monkeypatch, declared,
                                                    problem):
    entry = _entry('2.0', Node=['2.2'])
    _mapping(monkeypatch, declared, **{'11.0': entry, '10.0': entry,
                                       '9.0': entry})
    problems = roll_from_problems('master', {'Node': '2.3'}, '2.1')
    assert any(problem in p for p in problems), problems


def test_supported_versions_and_auto_start_follow_rolls_from(monkeypatch):
    _mapping(monkeypatch, ['11.0', '10.0'],
             **{'11.0': _entry('2.0', Node=['2.2']),
                '10.0': _entry('2.0', Node=['2.1', '2.0']),
                '9.0': _entry('2.0', Node=['1.8'])})
    assert rm.supported_object_versions() == {
        'Node': {'2.3', '2.2', '2.1', '2.0'}}
    assert rm.oldest_roll_from() == '10.0'
    assert rm.can_roll_from('10.0') and not rm.can_roll_from('9.0')


def test_a_pin_to_a_release_it_does_not_roll_from_is_refused(conf_fixture):
    too_old = [n for n in rm.released_names() if n not in rm.rolls_from()]
    assert too_old, 'every release is rolled from: nothing to refuse'
    conf_fixture.config(pin_release_version=too_old[0])
    problem = config.pin_problem()
    assert problem and 'cannot run beside' in problem
    assert ', '.join(rm.rolls_from()) in problem
    for name in rm.rolls_from() + ['auto']:
        conf_fixture.config(pin_release_version=name)
        assert config.pin_problem() is None, name


def test_a_pin_by_alias_follows_rolls_from(conf_fixture):
    alias = {name: a for a, name in rm.RELEASE_ALIASES.items()}
    oldest = rm.rolls_from()[-1]
    conf_fixture.config(pin_release_version=alias[oldest])
    assert config.pin_problem() is None
    before = rm.released_names()[rm.released_names().index(oldest) + 1]
    conf_fixture.config(pin_release_version=alias[before])
    assert 'cannot run beside' in config.pin_problem()


def rec(kind, name, release, pin=None):
    return upgrade_state.Record(kind, name, release, pin)


def test_status_accepts_skip_level_services_alive():
    oldest = rm.oldest_roll_from()
    state = upgrade_state.assess(
        [rec('conductor', 'c1', oldest), rec('api', 'a1', oldest),
         rec('conductor', 'c2', version.RELEASE, oldest)], version.RELEASE)
    assert state.step.startswith('4:'), state
    assert state.problems == []
    assert 'pin_release_version = %s' % oldest in state.next_step


def test_status_fails_on_a_service_of_a_release_too_old():
    too_old = [n for n in _older_releases() if n not in rm.rolls_from()]
    state = upgrade_state.assess(
        [rec('conductor', 'c1', too_old[0]),
         rec('conductor', 'c2', rm.oldest_roll_from())], version.RELEASE)
    assert len(state.problems) == 1, state.problems
    assert 'conductor c1 (release %s' % too_old[0] in state.problems[0]
    assert 'rolls from %s only' % ', '.join(rm.rolls_from()) in \
        state.problems[0]
    # A conductor that does not report itself predates 3.0: too old too.
    silent = upgrade_state.assess([rec('conductor', 'c0', None)],
                                  version.RELEASE)
    assert any('cannot be rolled from' in p for p in silent.problems)


def test_the_refused_unpinned_start_names_the_oldest_release_alive():
    newest, oldest = rm.rolls_from()[0], rm.rolls_from()[-1]
    blockers = [rec('conductor', 'c1', newest), rec('api', 'a1', oldest)]
    assert upgrade_state.pin_to_use(blockers, version.RELEASE) == oldest
    assert upgrade_state.pin_to_use([], version.RELEASE) == \
        upgrade_state.previous_release(version.RELEASE)


def test_auto_caps_at_a_skip_level_release_alive():
    oldest = rm.rolls_from()[-1]
    cap = release_pin.auto_cap([rec('conductor', 'old', oldest)],
                               version.RELEASE, 'conductor')
    assert cap == oldest
