"""A dead database or message broker gives a clear 503, never a hang or a
traceback."""

import datetime
import socket
import sqlite3

from ironic_lite import version
from tests.functional import procs


def _api(tmp_path, **sections):
    port = procs.free_port()
    values = {'DEFAULT': {'state_path': str(tmp_path)},
              'api': {'host_ip': '127.0.0.1', 'port': port}}
    for section, options in sections.items():
        values.setdefault(section, {}).update(options)
    config = procs.write_config(str(tmp_path / 'api.conf'), values)
    return config, 'http://127.0.0.1:%d' % port


def _fault(body):
    import json
    return json.loads(body['error_message'])['faultstring']


def test_dead_database_gives_503(tmp_path):
    config, base = _api(tmp_path, database={
        'connection': 'postgresql+psycopg2://postgres@127.0.0.1:%d/x'
                      % procs.free_port(),
        'max_retries': 0})
    api = procs.Service('ironic-api', config, str(tmp_path))
    try:
        procs.wait_http(base + '/v1', api)
        status, _, body = procs.http('GET', base + '/v1/nodes')
        assert status == 503, body
        assert 'database cannot be reached' in _fault(body)
        assert 'Traceback' not in str(body)
    finally:
        assert api.stop() == 0, api.log()


def _broker_test_api(tmp_path, broker_port):
    """ironic-api whose broker is at ``broker_port``, with a conductor of
    this release in its database that looks alive (the API routes to it
    over that broker)."""
    db = tmp_path / 'ironic.sqlite'
    broker = 'rabbit://guest:guest@127.0.0.1:%d/' % broker_port
    config, base = _api(tmp_path,
                        DEFAULT={'transport_url': broker},
                        database={'connection': 'sqlite:///%s' % db})
    procs.run('ironic-dbsync', '--config-file', config, 'upgrade')
    # A conductor of this release that looks alive, so the API routes to
    # it over that broker.
    now = datetime.datetime.utcnow()
    with sqlite3.connect(str(db)) as conn:
        conn.execute(
            "INSERT INTO conductors (hostname, drivers, online, "
            "conductor_group, created_at, updated_at, version) VALUES "
            "('c1', '[\"fake-hardware\"]', 1, '', ?, ?, '1.0')",
            (now, now))
        conn.execute(
            "INSERT INTO services (service_type, name, host, release, "
            "online, version, created_at, updated_at) VALUES "
            "('conductor', 'c1', 'c1', ?, 1, '1.0', ?, ?)",
            (version.RELEASE, now, now))
    api = procs.Service('ironic-api', config, str(tmp_path))
    api.base = base
    procs.wait_http(base + '/v1', api)
    return api


def _broker_outage_is_a_503(api):
    try:
        status, _, body = procs.http('POST', api.base + '/v1/nodes',
                                     {'driver': 'fake-hardware'})
        assert status == 503, body
        assert 'message broker' in _fault(body)
        assert 'not carried out' in _fault(body)
        status, _, body = procs.http('GET', api.base + '/v1/nodes')
        assert status == 200 and body['nodes'] == []
    finally:
        assert api.stop() == 0, api.log()


def test_dead_broker_gives_503(tmp_path):
    _broker_outage_is_a_503(_broker_test_api(tmp_path, procs.free_port()))


def test_silent_broker_gives_503_to_the_first_call(tmp_path):
    """A broker that accepts connections and never answers (a frozen
    RabbitMQ: the kernel completes its connections) before the API's
    first call: that call would open its reply connection and wait for
    as long as the broker stays silent (a hang).  It is a 503, nothing
    sent."""
    silent = socket.create_server(('127.0.0.1', 0), backlog=64)
    try:
        api = _broker_test_api(tmp_path, silent.getsockname()[1])
        _broker_outage_is_a_503(api)
    finally:
        silent.close()
