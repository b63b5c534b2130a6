"""What the release mapping's look-ups answer: which object versions this
code reads from the database, the order of releases, aliases.

test_release_mappings.py checks the mapping's data; these check the
functions over it (with made-up mappings where the real one cannot show
the rule yet, e.g. a release "10.0" beside "9.0").
"""

from ironic_lite.common import release_mappings as rm
from ironic_lite.common import upgrade_state
from ironic_lite import version


def _mapping(monkeypatch, entries, aliases=None):
    monkeypatch.setattr(rm, 'RELEASE_MAPPING', entries)
    monkeypatch.setattr(rm, 'RELEASE_ALIASES', aliases or {})


def _entry(node, rpc='1.0', **others):
    objs = {'Node': node}
    objs.update(others)
    return {'api': '1.81', 'rpc': rpc, 'objects': objs}


TEN = {
    'master': _entry(['1.5']),
    '10.0': _entry(['1.4']),
    '9.0': _entry(['1.3']),
    '2.0': _entry(['1.1', '1.0'], Port=['1.0']),
    '1.0': _entry(['1.0']),
}


def test_released_names_are_in_version_order_not_text_order(monkeypatch):
    _mapping(monkeypatch, {'master': TEN['master'], '9.0': TEN['9.0'],
                           '1.0': TEN['1.0'], '10.0': TEN['10.0'],
                           '2.0': TEN['2.0']})
    assert rm.released_names() == ['10.0', '9.0', '2.0', '1.0']
    # What the pins and the upgrade steps are built from.
    assert upgrade_state.previous_release('10.0') == '9.0'
    assert upgrade_state.previous_release('11.0') == '10.0'


def test_pin_choices_newest_first_each_with_its_aliases(monkeypatch):
    _mapping(monkeypatch, dict(TEN), {'bellows': '2.0', 'anvil': '1.0',
                                      'kiln': '10.0', 'jig': '10.0'})
    assert rm.pin_choices() == ['10.0', 'jig', 'kiln', '9.0', '2.0',
                                'bellows', '1.0', 'anvil', 'auto']


def test_get_release_by_name_or_alias():
    assert rm.get_release('2.0') is rm.RELEASE_MAPPING['2.0']
    assert rm.get_release('bellows') is rm.RELEASE_MAPPING['2.0']
    assert rm.get_release('master') is rm.RELEASE_MAPPING['master']
    assert rm.get_release('0.5') is None
    assert rm.get_release(None) is None
    assert rm.get_release('') is None
    assert rm.resolve('anvil') == '1.0'
    assert rm.resolve('1.0') == '1.0'
    assert rm.resolve('nope') == 'nope'


def test_current_entry_is_the_pin_else_master():
    assert rm.current_entry(None) is rm.RELEASE_MAPPING['master']
    assert rm.current_entry('') is rm.RELEASE_MAPPING['master']
    assert rm.current_entry('1.0') is rm.RELEASE_MAPPING['1.0']
    assert rm.current_entry('anvil') is rm.RELEASE_MAPPING['1.0']


def test_get_object_versions(monkeypatch):
    _mapping(monkeypatch, dict(TEN), {'bellows': '2.0'})
    assert rm.get_object_versions() == {
        'Node': {'1.5', '1.4', '1.3', '1.1', '1.0'}, 'Port': {'1.0'}}
    assert rm.get_object_versions(['bellows']) == {
        'Node': {'1.1', '1.0'}, 'Port': {'1.0'}}
    assert rm.get_object_versions(['master', '9.0']) == {
        'Node': {'1.5', '1.3'}}
    assert rm.get_object_versions(objects=['Port']) == {'Port': {'1.0'}}
    assert rm.get_object_versions(['9.0'], objects=['Port']) == {}
    # Every version of a release's list, not only the one it writes.
    assert rm.get_object_versions(['2.0'], ['Node']) == {
        'Node': {'1.1', '1.0'}}


def test_this_code_reads_master_and_the_release_before_its_own(monkeypatch):
    _mapping(monkeypatch, dict(TEN))
    # Release 11.0's code (not cut yet): master and 10.0 -- not 9.0, whose
    # rows the previous release's online migrations moved on.
    assert rm.supported_object_versions('11.0') == {'Node': {'1.5', '1.4'}}
    # Release 10.0's code: master and 9.0 (its own entry is not older).
    assert rm.supported_object_versions('10.0') == {'Node': {'1.5', '1.3'}}
    # Ordered as versions: 9.0 is before 10.0 (text order would say not).
    assert rm.supported_object_versions('9.1') == {'Node': {'1.5', '1.3'}}
    assert rm.supported_object_versions('3.0') == {
        'Node': {'1.5', '1.1', '1.0'}, 'Port': {'1.0'}}
    # The first release: nothing before it, master only.
    assert rm.supported_object_versions('1.0') == {'Node': {'1.5'}}


def test_supported_object_versions_default_to_this_code(monkeypatch):
    # A tree never rolls from its own release (at a cut commit that
    # release is already in the mapping).
    assert version.RELEASE not in rm.RELEASE_MAPPING['master']['rolls_from']
    # master and every release it rolls from (skip-level included).
    assert rm.supported_object_versions() == rm.get_object_versions(
        ['master'] + rm.RELEASE_MAPPING['master']['rolls_from'])
    monkeypatch.setattr(version, 'RELEASE', '2.0')
    assert rm.supported_object_versions() == rm.get_object_versions(
        ['master', '1.0'])
