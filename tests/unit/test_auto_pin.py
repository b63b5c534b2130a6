"""pin_release_version = auto against a real services table: a service
starts capped, records what it speaks, and follows the table on its
heartbeat and on SIGHUP (the rule itself: common/test_release_pin.py)."""

import datetime
import time

import pytest
import sqlalchemy as sa

from ironic_lite.api import versions
from ironic_lite.common import release_mappings
from ironic_lite.common import release_pin
from ironic_lite.common import upgrade_state
from ironic_lite.conductor import rpcapi
from ironic_lite import conf
from ironic_lite.db import api as db_api
from ironic_lite.db import service as db_service
from ironic_lite import objects
from ironic_lite import service_reporter
from ironic_lite import version
from tests import timeouts

CONF = conf.CONF
OLD = upgrade_state.previous_release(version.RELEASE)
OLD_ENTRY = release_mappings.RELEASE_MAPPING[OLD]


@pytest.fixture
def database(tmp_path, use_db, conf_fixture):
    CONF([], project='ironic', default_config_files=[])
    use_db('sqlite:///%s' % (tmp_path / 'ironic.db'))
    objects.register_all()
    conf_fixture.config(pin_release_version='auto', report_interval=3600)
    release_pin.reset()
    yield conf_fixture
    release_pin.reset()


@pytest.fixture
def reporter(database):
    started = []

    def start(kind='conductor', name='me'):
        rep = service_reporter.ServiceReporter(kind, name)
        rep.start()
        started.append(rep)
        return rep
    yield start
    for rep in started:
        rep.stop(timeout=timeouts.HANG)


def old_service(kind, name, seconds_ago=0):
    """A row as a service of the previous release writes it."""
    db_service.report_service({
        'service_type': kind, 'name': name, 'host': name, 'release': OLD,
        'pin': None, 'version': '1.0'})
    if seconds_ago:
        with db_api.writer() as session:
            session.execute(sa.text(
                'UPDATE services SET updated_at = :at WHERE name = :name'),
                {'at': datetime.datetime.utcnow()
                 - datetime.timedelta(seconds=seconds_ago), 'name': name})


def row(name):
    engine = db_api.get_engine()
    with engine.connect() as conn:
        return conn.execute(sa.text(
            'SELECT pin, auto_pin, version FROM services WHERE name = '
            ':name'), {'name': name}).one()


def wait_for(predicate):
    deadline = time.monotonic() + timeouts.HANG
    while not predicate():
        assert time.monotonic() < deadline, 'never happened'
        time.sleep(0.05)


def assert_speaks(release):
    entry = release_mappings.current_entry(release)
    assert release_pin.effective() == release
    assert rpcapi.ConductorAPI(topic='t').version_cap == entry['rpc']
    assert objects.Node.get_target_version() == entry['objects']['Node'][0]
    assert str(versions.max_version()) == entry.get(
        'api', versions.microversions.MAX_VERSION_STRING)


def test_starts_capped_and_records_what_it_speaks(reporter):
    old_service('api', 'old-api:6385')
    reporter('conductor', 'me')
    assert_speaks(OLD)
    # Its row: the pin in force, auto, at the version the old reads.
    assert tuple(row('me')) == (OLD, True, OLD_ENTRY['objects']['Service'][0])


def test_rises_on_sighup_once_the_old_one_stopped(reporter):
    old_service('api', 'old-api:6385')
    reporter('conductor', 'me')
    db_service.stop_service('api', 'old-api:6385')
    assert release_pin.effective() == OLD     # not before it looks again
    from ironic_lite.common import signals
    signals.reload_config()
    wait_for(lambda: row('me')[0] is None)
    assert_speaks(None)
    assert tuple(row('me')) == (None, True, objects.Service.VERSION)


def test_alone_it_starts_unpinned(reporter):
    """Dangerous case 1: nothing else in the table."""
    reporter('api', 'me:6385')
    assert_speaks(None)


def test_a_late_heartbeat_still_holds_it(reporter, database):
    """Dangerous case 3: an old service late by less than
    service_down_time counts as alive; past it, it is gone."""
    down = CONF.service_down_time
    old_service('conductor', 'late', seconds_ago=down - 5)
    rep = reporter('conductor', 'me')
    assert_speaks(OLD)
    old_service('conductor', 'late', seconds_ago=down + 5)
    rep.refresh_pin()
    assert_speaks(None)


def test_an_old_service_back_lowers_it(reporter):
    """Dangerous case 2: reported again after the pin rose."""
    rep = reporter('conductor', 'me')
    assert_speaks(None)
    old_service('conductor', 'back-from-the-dead')
    rep.refresh_pin()
    assert_speaks(OLD)


def test_a_database_error_at_start_keeps_it_capped(reporter, monkeypatch):
    def broken(context):
        raise RuntimeError('database gone')
    monkeypatch.setattr(service_reporter, 'deployment_records', broken)
    rep = reporter('conductor', 'me')
    # Capped at the oldest release this code rolls from (skip-level).
    assert_speaks(release_mappings.oldest_roll_from())
    monkeypatch.undo()
    rep.refresh_pin()
    assert_speaks(None)


def test_a_manual_pin_holds_the_auto_ones(reporter, database):
    """Dangerous case 5: a new conductor pinned by hand beside an auto
    API; the API follows once the pin is gone."""
    database.config(pin_release_version=OLD)
    objects.Service.report(None, 'conductor', 'pinned', 'pinned')
    database.config(pin_release_version='auto')
    rep = reporter('api', 'me:6385')
    assert_speaks(OLD)
    db_service.stop_service('conductor', 'pinned')
    rep.refresh_pin()
    assert_speaks(None)


def test_deployment_records_say_which_services_are_auto(reporter,
                                                        database):
    reporter('conductor', 'me')
    database.config(pin_release_version=None)
    objects.Service.report(None, 'api', 'plain:6385', 'plain')
    records = sorted(service_reporter.deployment_records(None))
    assert [(r.name, r.auto) for r in records] == [
        ('plain:6385', False), ('me', True)]
    assert 'pin_release_version = auto' in upgrade_state.describe(
        records[1])
    assert 'auto' not in upgrade_state.describe(records[0])


def test_read_on_the_previous_release_schema(tmp_path, use_db, conf_fixture,
                                             monkeypatch):
    """ironic-status before "ironic-dbsync upgrade": no auto_pin column
    (nor conductors.hardware_interfaces); the rows read as the 1.0 rows
    they are."""
    from ironic_lite.db import migration
    CONF([], project='ironic', default_config_files=[])
    use_db('sqlite:///%s' % (tmp_path / 'old.db'), migrate=False)
    objects.register_all()
    migration.upgrade('f2c8e6a1d4b7')
    monkeypatch.setattr(objects.Service, '_auto_pin_column', False)
    monkeypatch.setattr(objects.Conductor, '_interfaces_column', False)
    with db_api.writer() as session:
        session.execute(sa.text(
            "INSERT INTO services (service_type, name, host, release, "
            "online, version, updated_at) VALUES ('api', 'old:6385', "
            "'old', :rel, :on, '1.0', :now)"),
            {'rel': OLD, 'on': True, 'now': datetime.datetime.utcnow()})
        # A conductor of that release (its registration: no
        # hardware_interfaces, a column of 7.0's schema).
        session.execute(sa.text(
            "INSERT INTO conductors (hostname, drivers, online, "
            "conductor_group, version, updated_at) VALUES ('silent', "
            "'[\"fake-hardware\"]', :on, '', '1.0', :now)"),
            {'on': True, 'now': datetime.datetime.utcnow()})
    assert service_reporter.deployment_records(None) == [
        upgrade_state.Record('api', 'old:6385', OLD, None, False),
        upgrade_state.Record('conductor', 'silent', None, None, False)]
    assert list(objects.Service.get_by_names(None, 'api')) == ['old:6385']
    assert not objects.Service._auto_pin_column
    assert [c.hostname for c in objects.Conductor.list_active(None, 60)] \
        == ['silent']
    assert not objects.Conductor._interfaces_column


def test_online_migrations_leave_the_heartbeats_alone(database):
    """Moving a gone service's row to a newer Service version must not
    make it look alive again (updated_at is its heartbeat).  The online
    data migrations move rows with ``migration.bump_versions``; called
    directly, from a version the row has to the latest, so that the test
    does not depend on which releases this tree still reads."""
    from ironic_lite.db import migration
    from ironic_lite.db import models
    old_service('conductor', 'gone', seconds_ago=CONF.service_down_time + 60)
    assert service_reporter.deployment_records(None) == []
    assert migration.bump_versions(models.Service, ['1.0'],
                                   objects.Service.VERSION) == (1, 1)
    assert row('gone')[2] == objects.Service.VERSION
    assert service_reporter.deployment_records(None) == []


def test_sighup_reruns_the_followers_after_the_new_cap(reporter):
    """What follows the release in force (a conductor's registered
    hardware types) is rechecked once SIGHUP's refresh has the new cap,
    from the reporter's thread, not the signal handler."""
    reporter('conductor', 'me')
    assert_speaks(None)
    seen = []

    def follower():
        seen.append(release_pin.effective())
    release_pin.on_recheck(follower)
    try:
        old_service('conductor', 'old-one')
        release_pin.request_refresh()
        wait_for(lambda: seen)
        assert seen[0] == OLD
    finally:
        release_pin.no_recheck(follower)
