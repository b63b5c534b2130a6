"""upgrade_state's rules beyond the walk of test_upgrade_state.py: the
release before the first, the pin to use when several old releases are
alive, releases ordered as versions ("10.0" after "9.0"), and which API
pins the 409 note names."""

from oslo_utils import versionutils

from ironic_lite.common import release_mappings
from ironic_lite.common import upgrade_state as us
from ironic_lite import version

R = us.Record
_vt = versionutils.convert_version_to_tuple


def cond(name, release, pin=None):
    return R(us.CONDUCTOR, name, release, pin)


def api(name, release, pin=None):
    return R(us.API, name, release, pin)


def test_previous_release():
    names = release_mappings.released_names()
    assert us.previous_release(names[-1]) is None
    assert us.previous_release('0.1') is None
    assert us.previous_release(names[0]) == names[1]
    assert us.previous_release('99.0') == names[0]


def test_the_pin_is_the_oldest_release_alive():
    state = us.assess([cond('c1', '4.0', pin='2.0'), cond('c2', '3.0'),
                       api('a1', '2.0')], '4.0')
    assert state.next_step == (
        'Upgrade conductor(s) c2 to release 4.0 with '
        '[DEFAULT]/pin_release_version = 2.0, one at a time.')


def test_releases_are_ordered_as_versions():
    # The newest release alive is the target: 10.0, not 9.0.
    state = us.assess([cond('c1', '10.0', pin='9.0'), cond('c2', '9.0')],
                      '9.0')
    assert state.target == '10.0'
    assert state.next_step == (
        'Upgrade conductor(s) c2 to release 10.0 with '
        '[DEFAULT]/pin_release_version = 9.0, one at a time.')
    # The pin is the oldest: 9.0, not 10.0.
    state = us.assess([cond('c1', '11.0', pin='9.0'), cond('c2', '10.0'),
                       cond('c3', '9.0')], '11.0')
    assert state.next_step == (
        'Upgrade conductor(s) c2, c3 to release 11.0 with '
        '[DEFAULT]/pin_release_version = 9.0, one at a time.')


def _rpc_note(state):
    return [n for n in state.notes if 'answer 409' in n]


def test_the_409_note_names_each_pin_below_the_newest_rpc():
    newest = release_mappings.RELEASE_MAPPING['master']['rpc']
    short = sorted(n for n in release_mappings.released_names()
                   if _vt(release_mappings.RELEASE_MAPPING[n]['rpc'])
                   < _vt(newest))
    assert len(short) >= 2, short
    # Services of this tree's release: a pin to any release before it
    # is a pin (one to its own release would be none).
    records = [cond('c1', version.RELEASE)] + [
        api('a%d' % i, version.RELEASE, pin=name)
        for i, name in enumerate(short)]
    state = us.assess(records, version.RELEASE)
    assert _rpc_note(state) == [
        'API services pinned to %s answer 409 (nothing done) to the '
        'requests that need RPC %s: node trait changes, VIFs, node validate '
        'and boot device; volume connector and target writes; allocation '
        'writes; rescue, manual cleaning, NMI and the console; deploy '
        'template changes and deploys with deploy_steps; boot mode and '
        'secure boot changes and the indicators; target RAID '
        'configurations, RAID logical disk properties and vendor '
        'passthru; the ramdisk agent\'s lookup (token) and heartbeats; '
        'the ramdisk agent\'s '
        'inspection data (continue_inspection); servicing; virtual '
        'media. '
        'They work once '
        'every conductor and then the API '
        'services are unpinned (steps 6.1-6.4).' % (', '.join(short),
                                                    newest)]


def test_no_409_note_for_a_pin_that_sends_the_newest_rpc(monkeypatch):
    # Between releases master's RPC may be newer than every release's:
    # the case is made with master at the newest release's version.
    newest = release_mappings.RELEASE_MAPPING['3.0']['rpc']
    monkeypatch.setitem(release_mappings.RELEASE_MAPPING['master'], 'rpc',
                        newest)
    state = us.assess([cond('c1', '4.0'), api('a1', '4.0', pin='3.0')],
                      '4.0')
    assert _rpc_note(state) == []


def test_a_pin_to_a_release_not_in_the_mapping_is_no_409_note():
    state = us.assess([cond('c1', '4.0'), api('a1', '4.0', pin='3.5')],
                      '4.0')
    assert _rpc_note(state) == []


def test_auto_services_are_noted_while_they_hold_a_pin():
    """Not "restart to unpin": they unpin themselves."""
    held = R(us.CONDUCTOR, 'c1', '4.0', '3.0', True)
    state = us.assess([held, api('a1', '3.0')], '4.0')
    notes = [n for n in state.notes if 'pin_release_version = auto' in n]
    assert notes and '(c1)' in notes[0], state.notes
    risen = R(us.CONDUCTOR, 'c1', '4.0', None, True)
    state = us.assess([risen], '4.0')
    assert not state.notes and not state.in_progress


def test_the_409_note_of_a_3_0_pin_names_only_what_3_0_lacks():
    newest = release_mappings.RELEASE_MAPPING['master']['rpc']
    state = us.assess([cond('c1', '4.0'), api('a1', '4.0', pin='3.0')],
                      '4.0')
    assert _rpc_note(state) == [
        'API services pinned to 3.0 answer 409 (nothing done) to the '
        'requests that need RPC %s: volume connector and target writes; '
        'allocation writes; rescue, manual cleaning, NMI and the console; '
        'deploy template changes and deploys with deploy_steps; boot mode '
        'and secure boot changes and the indicators; target RAID '
        'configurations, RAID logical disk properties and vendor '
        'passthru; the ramdisk agent\'s lookup (token) and heartbeats; '
        'the ramdisk agent\'s '
        'inspection data (continue_inspection); servicing; virtual '
        'media. '
        'They work once every '
        'conductor and then the API services are unpinned (steps '
        '6.1-6.4).' % newest]
