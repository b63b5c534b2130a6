"""common/release_pin.py: the release in force, fixed or ``auto``, and the
rule that computes ``auto`` from the live services (a fake table here;
tests/unit/test_auto_pin.py reads a real one)."""

import pytest

from ironic_lite.common import release_mappings
from ironic_lite.common import release_pin
from ironic_lite.common import upgrade_state
from ironic_lite import conf
from ironic_lite import version

CONF = conf.CONF
NEW = version.RELEASE
OLD = upgrade_state.previous_release(NEW)
# What auto holds before it computed anything: the oldest release this
# code rolls from (a skip-level upgrade runs beside it).
OLDEST = release_mappings.oldest_roll_from()
API, COND = upgrade_state.API, upgrade_state.CONDUCTOR


def rec(kind, name, release, pin=None, auto=False):
    return upgrade_state.Record(kind, name, release, pin, auto)


@pytest.fixture(autouse=True)
def fresh(conf_fixture):
    CONF([], project='ironic', default_config_files=[])
    release_pin.reset()
    yield
    release_pin.reset()


def cap(records, kind=COND):
    return release_pin.auto_cap(records, NEW, kind, own=(kind, 'me'))


# -- the pin in force ---------------------------------------------------------

def test_unpinned_is_the_newest(conf_fixture):
    assert release_pin.effective() is None
    assert release_pin.entry() is release_mappings.RELEASE_MAPPING['master']


def test_a_fixed_pin_is_what_the_configuration_says(conf_fixture):
    conf_fixture.config(pin_release_version='chisel')
    assert release_pin.effective() == '3.0'
    assert release_pin.entry() is release_mappings.RELEASE_MAPPING['3.0']
    assert not release_pin.is_auto()


def test_auto_starts_at_the_oldest_release_it_rolls_from(conf_fixture):
    """Nothing computed yet (or the table never readable): capped, at
    the oldest release this code may run beside."""
    conf_fixture.config(pin_release_version='auto')
    assert release_pin.is_auto()
    assert release_pin.effective() == OLDEST
    assert OLDEST in release_mappings.rolls_from()
    assert not any(release_mappings._vt(n) < release_mappings._vt(OLDEST)
                   for n in release_mappings.rolls_from())


def test_auto_is_a_valid_value(conf_fixture):
    from ironic_lite.common import config
    conf_fixture.config(pin_release_version='auto')
    assert config.pin_problem() is None


# -- the rule ---------------------------------------------------------------

def test_alone_it_is_unpinned():
    """Dangerous case 1: the table shows no other service."""
    assert cap([]) is None
    # Its own row of a previous life (an old release, not yet rewritten)
    # does not hold it.
    assert release_pin.auto_cap([rec(COND, 'me', OLD)], NEW, COND,
                                own=(COND, 'me')) is None


def test_an_older_service_alive_holds_it_at_its_release():
    assert cap([rec(API, 'a1', OLD), rec(COND, 'c2', NEW)]) == OLD
    assert cap([rec(COND, 'c2', OLD)], API) == OLD


def test_a_conductor_that_does_not_report_holds_it():
    assert cap([rec(COND, 'silent', None)]) == upgrade_state.NON_REPORTING


def test_newer_services_do_not_raise_it_above_its_own_release():
    assert cap([rec(COND, 'c2', '99.0')]) is None


def test_a_release_between_known_ones_maps_to_the_one_below():
    assert release_pin.release_for('2.5', NEW) == '2.0'
    assert release_pin.release_for(NEW, NEW) is None
    assert release_pin.release_for('0.1', NEW) == \
        release_mappings.released_names()[-1]


def test_a_manual_pin_holds_the_auto_services():
    """Dangerous case 5, whichever type is pinned."""
    pinned = rec(COND, 'c2', NEW, pin=OLD)
    assert cap([pinned]) == OLD
    assert cap([pinned], API) == OLD
    assert cap([rec(API, 'a2', NEW, pin=OLD)]) == OLD


def test_auto_services_do_not_hold_each_other():
    """Else none of them would ever rise once the old ones are gone."""
    peers = [rec(COND, 'c2', NEW, pin=OLD, auto=True),
             rec(API, 'a2', NEW, pin=OLD, auto=True)]
    assert cap(peers) is None
    assert cap([peers[1]], API) is None


def test_an_api_rises_only_after_every_conductor():
    """The conductors' pins (auto or not) hold the APIs, never the other
    way round: no cycle, and never an uncapped API beside a capped
    conductor."""
    capped = rec(COND, 'c2', NEW, pin=OLD, auto=True)
    assert cap([capped], API) == OLD
    assert cap([rec(COND, 'c2', NEW, auto=True)], API) is None


# -- refreshing ---------------------------------------------------------------

def test_refresh_follows_the_table(conf_fixture):
    conf_fixture.config(pin_release_version='auto')
    table = [rec(API, 'a1', OLD)]
    assert release_pin.refresh(lambda: table, COND) == OLD
    table[:] = []
    assert release_pin.refresh(lambda: table, COND) is None
    assert release_pin.effective() is None
    assert release_pin.entry() is release_mappings.RELEASE_MAPPING['master']


def test_an_old_service_back_lowers_it_again(conf_fixture):
    """Dangerous case 2: frozen past service_down_time, it reports again
    after the pin rose; the next refresh drops the pin."""
    conf_fixture.config(pin_release_version='auto')
    assert release_pin.refresh(lambda: [], COND) is None
    assert release_pin.refresh(lambda: [rec(COND, 'c1', OLD)], COND) == OLD
    assert release_pin.effective() == OLD


def test_a_read_error_keeps_the_last_value(conf_fixture):
    """Never raised by a transient database error, at start or later."""
    conf_fixture.config(pin_release_version='auto')

    def broken():
        raise RuntimeError('database gone')
    assert release_pin.refresh(broken, COND) == OLDEST
    release_pin.refresh(lambda: [rec(API, 'a1', OLD)], COND)
    assert release_pin.refresh(broken, API) == OLD
    release_pin.refresh(lambda: [], COND)
    assert release_pin.refresh(broken, COND) is None


def test_refresh_requests_reach_the_registered_services():
    calls = []
    release_pin.on_refresh_request(lambda: calls.append(1))
    try:
        release_pin.request_refresh()
    finally:
        release_pin._waiters.clear()
    assert calls == [1]


def test_sighup_asks_for_a_refresh(monkeypatch):
    from ironic_lite.common import signals
    asked = []
    monkeypatch.setattr(release_pin, 'request_refresh',
                        lambda: asked.append(True))
    signals.reload_config()
    assert asked == [True]


def test_interleavings_of_an_api_and_a_conductor():
    """Dangerous case 4: an API and a conductor, both auto, read the
    table at different moments while the last old service goes.  Every
    order of their refreshes and reports keeps the invariant: the API is
    never uncapped while the conductor is capped, and both end
    uncapped."""
    import itertools
    moves = ['cond_refresh', 'cond_report', 'api_refresh', 'api_report']
    for order in sorted(set(itertools.permutations(moves * 2))):
        state = {'cond': OLD, 'api': OLD}
        rows = {'cond': OLD, 'api': OLD}
        for move in order:
            who, what = move.split('_')
            if what == 'report':
                rows[who] = state[who]
                continue
            kind = COND if who == 'cond' else API
            other = 'api' if who == 'cond' else 'cond'
            table = [rec(API if other == 'api' else COND, other, NEW,
                         pin=rows[other], auto=True)]
            state[who] = release_pin.auto_cap(table, NEW, kind)
            assert not (state['api'] is None and state['cond'] is not None)
        # One more round in the working order settles it.
        for who, kind in (('cond', COND), ('api', API)):
            other = 'api' if who == 'cond' else 'cond'
            table = [rec(API if other == 'api' else COND, other, NEW,
                         pin=rows[other], auto=True)]
            state[who] = rows[who] = release_pin.auto_cap(table, NEW, kind)
        assert state == {'cond': None, 'api': None}, order
