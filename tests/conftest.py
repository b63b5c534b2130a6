"""Fixtures every test level shares: real database backends and RabbitMQ.

A backend fixture gives each test its own uniquely named database, dropped
afterwards.  When a server is unreachable the test is skipped with the
reason -- or fails, when ``CI=true`` (CI must test every backend).

Markers (registered here): ``functional``, ``upgrade`` and ``faults`` are
applied from
the directory a test lives in; ``backend`` to every test that uses a real
database server or RabbitMQ, so ``-m "not backend"`` runs without them.
"""

import contextlib
import os
import resource
import socket
import time
import uuid

from futurist import _thread as futurist_thread
from oslo_config import fixture as config_fixture
import pytest
import sqlalchemy as sa

from tests import db_template
from tests import timeouts

POSTGRESQL_URL = 'postgresql+psycopg2://postgres@127.0.0.1:5432'
MYSQL_URL = 'mysql+pymysql://root@127.0.0.1:3306'
RABBIT_URL = 'rabbit://guest:guest@127.0.0.1:5672/'

# Fixtures that need a server; tests using them get the "backend" marker.
BACKEND_FIXTURES = {'postgresql_url', 'mysql_url', 'rabbit_url'}
BACKEND_PARAMS = ('postgresql', 'mysql')

# oslo.messaging's RPC server runs on a futurist thread pool whose idle
# workers wake every MAX_IDLE_FOR seconds (1) to see whether to exit: every
# in-process conductor stop waited ~1 s for them.  Waking every 50 ms
# costs nothing measurable.
futurist_thread.ThreadWorker.MAX_IDLE_FOR = 0.05

MARKERS = {
    'functional': 'real processes, HTTP and databases (tests/functional)',
    'upgrade': 'old and new releases side by side (tests/upgrade)',
    'faults': 'processes, broker and database failing (tests/faults)',
    'backend': 'needs PostgreSQL, MariaDB or RabbitMQ on 127.0.0.1',
    'ha_smoke': 'the one HA scenario per engine that best proves its '
                'failover (tests/ha; pytest tests/ha -m ha_smoke)',
    'long': 'long(seconds): about how long the test takes on a 2-core '
            'machine; the longest start first',
}


def pytest_configure(config):
    for name, text in MARKERS.items():
        config.addinivalue_line('markers', '%s: %s' % (name, text))


def pytest_sessionfinish(session, exitstatus):
    # Each xdist worker runs this for its own session.
    db_template.drop_templates()


# TEST_CPU_LOG=FILE: a line per test appended to FILE -- CPU seconds of
# the test's own process and of the processes it started and reaped (the
# services of a functional test), wall seconds, node id -- to find what a
# level's CPU goes to (tools/cpu-seconds.py measures whole files, alone).
# The CPU of the shared servers (PostgreSQL, MariaDB, RabbitMQ) is not in
# it, and a session fixture's counts for the first test that uses it.
@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    path = os.environ.get('TEST_CPU_LOG')
    if not path:
        yield
        return
    began, cpu = time.monotonic(), _cpu_seconds()
    yield
    with open(path, 'a') as log:
        log.write('%8.1f %8.1f %s\n' % (
            _cpu_seconds() - cpu, time.monotonic() - began, item.nodeid))


def _cpu_seconds():
    return sum(sum(resource.getrusage(who)[:2]) for who in (
        resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))


def _expected_seconds(item):
    marker = item.get_closest_marker('long')
    return marker.args[0] if marker is not None else 0


def pytest_collection_modifyitems(config, items):
    # Longest first (stable: the others keep their order).  With
    # "--dist load --maxschedchunk 1" (tools/run-tests.sh) each free xdist
    # worker takes the next test, so the long ones start at once, on
    # different workers, instead of ending a level alone.  But xdist hands
    # each worker two consecutive tests to begin with: the marked tests are
    # dealt longest, shortest, next longest, next shortest, ... so that no
    # worker begins with two of the longest (the two rolling upgrades ran
    # one after the other on one worker, the level's critical path).
    items.sort(key=lambda item: -_expected_seconds(item))
    marked = [i for i in items if _expected_seconds(i)]
    dealt = []
    while marked:
        dealt.append(marked.pop(0))
        if marked:
            dealt.append(marked.pop())
    items[:len(dealt)] = dealt
    for item in items:
        parts = item.nodeid.split('/')
        for level in ('functional', 'upgrade', 'faults'):
            if len(parts) > 1 and parts[1] == level:
                item.add_marker(getattr(pytest.mark, level))
        param = getattr(getattr(item, 'callspec', None), 'params', {})
        if (BACKEND_FIXTURES & set(item.fixturenames)
                or param.get('db_url') in BACKEND_PARAMS):
            item.add_marker(pytest.mark.backend)


def unavailable(reason):
    """Skip (developer machine) or fail (CI=true) for a missing service."""
    if os.environ.get('CI') == 'true':
        pytest.fail('%s (CI=true: every backend must be available)' % reason)
    pytest.skip(reason)


def reachable(host, port, timeout=timeouts.HANG):
    """Whether a server accepts connections there (a closed port is
    refused at once: the timeout only bounds a server too busy to
    accept)."""
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def _drop_sql(dialect, name):
    if dialect == 'postgresql':
        return ['SELECT pg_terminate_backend(pid) FROM pg_stat_activity '
                "WHERE datname = '%s' AND pid <> pg_backend_pid()" % name,
                'DROP DATABASE IF EXISTS "%s"' % name]
    return ['DROP DATABASE IF EXISTS `%s`' % name]


@contextlib.contextmanager
def temp_database(server_url, port):
    """Create a uniquely named database on a server; yield its URL."""
    if not reachable('127.0.0.1', port):
        unavailable('no database server at %s' % server_url)
    admin_url = server_url + ('/postgres' if 'postgresql' in server_url
                              else '')
    admin = sa.create_engine(admin_url, isolation_level='AUTOCOMMIT')
    name = 'ironic_lite_test_%s' % uuid.uuid4().hex[:12]
    try:
        with admin.connect() as conn:
            conn.execute(sa.text('CREATE DATABASE %s' % name))
    except sa.exc.OperationalError as err:
        admin.dispose()
        unavailable('cannot create a database on %s: %s' % (server_url, err))
    url = '%s/%s' % (server_url, name)
    if 'mysql' in server_url:
        url += '?charset=utf8mb4'
    try:
        yield url
    finally:
        with admin.connect() as conn:
            for stmt in _drop_sql(admin.dialect.name, name):
                conn.execute(sa.text(stmt))
        admin.dispose()


@pytest.fixture
def postgresql_url():
    """URL of a fresh PostgreSQL database, dropped after the test."""
    with temp_database(POSTGRESQL_URL, 5432) as url:
        yield url


@pytest.fixture
def mysql_url():
    """URL of a fresh MariaDB/MySQL database, dropped after the test."""
    with temp_database(MYSQL_URL, 3306) as url:
        yield url


@pytest.fixture
def sqlite_url(tmp_path):
    return 'sqlite:///%s' % (tmp_path / 'ironic-lite.sqlite')


@pytest.fixture(params=('sqlite',) + BACKEND_PARAMS)
def db_url(request):
    """The URL of a fresh database on each backend in turn."""
    fixture = {'sqlite': 'sqlite_url', 'postgresql': 'postgresql_url',
               'mysql': 'mysql_url'}[request.param]
    return request.getfixturevalue(fixture)


@pytest.fixture
def rabbit_url():
    """The RabbitMQ transport URL, once a broker answers there."""
    if not reachable('127.0.0.1', 5672):
        unavailable('no RabbitMQ at %s' % RABBIT_URL)
    import kombu
    try:
        with kombu.Connection(RABBIT_URL.replace('rabbit://', 'amqp://'),
                              connect_timeout=timeouts.HANG) as conn:
            conn.connect()
    except Exception as err:
        unavailable('RabbitMQ at %s does not accept guest: %s'
                    % (RABBIT_URL, err))
    return RABBIT_URL


@pytest.fixture(autouse=True)
def conf_fixture():
    """oslo.config's ``Config`` fixture around every test.

    Whatever a test (or a fixture) overrides on ``CONF`` -- with
    ``conf_fixture.config(name=value, group=...)`` or ``set_override`` --
    is undone after it, so no fixture lists its overrides to clear them.
    """
    from ironic_lite import conf
    fixture = config_fixture.Config(conf.CONF)
    fixture.setUp()
    yield fixture
    fixture.cleanUp()


# Reply queues (reply_<uuid>, named by oslo.messaging) are transient: with
# this in a test's [oslo_messaging_rabbit] section, the broker deletes
# them a minute after their process stops.
RABBIT_TEST_OPTIONS = {'rabbit_transient_queues_ttl': 60,
                       'heartbeat_timeout_threshold': 0}


def delete_from_broker(exchanges=(), queues=()):
    """Delete what a test created on the RabbitMQ broker (over AMQP)."""
    import kombu
    with kombu.Connection(RABBIT_URL.replace('rabbit://', 'amqp://'),
                          connect_timeout=timeouts.HANG) as conn:
        channel = conn.default_channel
        for queue in queues:
            channel.queue_delete(queue)
        for exchange in exchanges:
            channel.exchange_delete(exchange)


@pytest.fixture
def rabbit_exchange(rabbit_url):
    """A control_exchange of the test's own (deployments sharing the
    broker are kept apart by it).  Afterwards the exchange and the queues
    named in ``rabbit_exchange.queues`` are deleted from the broker."""
    class Exchange(str):
        queues = []
    exchange = Exchange('ironic-test-%s' % uuid.uuid4().hex[:12])
    exchange.queues = []
    yield exchange
    delete_from_broker([exchange], exchange.queues)


@pytest.fixture
def use_db(conf_fixture):
    """Point ironic-lite at a database URL: ``use_db(url, migrate=True)``.

    Sets ``[database]/connection`` and resets the engine facade; with
    ``migrate`` (the default) the empty database gets the head schema as
    a copy of a template migrated once per test process (see
    tests/db_template.py; the migration tests walk the real migrations).
    Undone after the test.
    """
    from ironic_lite.db import api as db_api

    def configure(url, migrate=True):
        if migrate:
            db_template.migrated(url)
        conf_fixture.config(connection=url, group='database')
        db_api.reset()
        return url

    yield configure
    db_api.reset()


@pytest.fixture
def sqlite_db(sqlite_url, use_db):
    """A migrated SQLite database in tmp_path, configured for the test."""
    return use_db(sqlite_url)


@pytest.fixture
def any_db(db_url, use_db):
    """A migrated database on each backend in turn (sqlite, pg, mysql)."""
    return use_db(db_url)
