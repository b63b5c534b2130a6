"""Issue 20, item 7: ``/healthcheck`` (``[healthcheck]enabled``, off by
default as in Ironic): unauthenticated, 503 while the server drains or
the database does not answer."""

import pytest

from ironic_lite.api import healthcheck
from ironic_lite.common import wsgi
from ironic_lite import conf
from ironic_lite.db import api as db_api
from tests.unit.api import utils

CONF = conf.CONF
USERS = {'admin': ''}


@pytest.fixture
def enabled(make_client, tmp_path, monkeypatch):
    CONF.set_override('enabled', True, group='healthcheck')
    # Not the flag a server stopped by another test of this process set.
    monkeypatch.setattr(wsgi, 'DRAINING', type(wsgi.DRAINING)())
    # Authentication on: the health check needs none, the API does.
    utils.use_http_basic(tmp_path, USERS)
    return make_client(version=None)


def test_off_by_default(client):
    resp = client.get('/healthcheck', version=None)
    assert resp.status_int == 404
    utils.fault(resp)


def test_enabled_healthy_without_credentials(enabled):
    resp = enabled.get('/healthcheck')
    assert resp.status_int == 200, resp.text
    assert 'The database answers' in resp.text
    assert enabled.get('/v1/nodes').status_int == 401
    assert enabled.app.head('/healthcheck').status_int == 204


def test_detailed_names_the_checks(enabled, make_client):
    CONF.set_override('detailed', True, group='healthcheck')
    resp = make_client(version=None).get(
        '/healthcheck', headers={'Accept': 'application/json'})
    assert resp.status_int == 200, resp.text
    reasons = [r['reason'] for r in resp.json['reasons']]
    assert 'The database answers' in reasons
    assert 'The API server is serving' in reasons


def test_draining_is_503(enabled):
    wsgi.DRAINING.set()
    resp = enabled.get('/healthcheck')
    assert resp.status_int == 503
    assert 'draining' in resp.text


def test_database_down_is_503(enabled):
    CONF.set_override('connection',
                      'postgresql+psycopg2://postgres@127.0.0.1:1/x',
                      group='database')
    CONF.set_override('max_retries', 0, group='database')
    db_api.reset()
    resp = enabled.get('/healthcheck')
    assert resp.status_int == 503, resp.text
    assert 'The database cannot be reached' in resp.text
    assert 'psycopg2' not in resp.text and '127.0.0.1' not in resp.text


def test_database_that_hangs_is_503(enabled, monkeypatch):
    import threading
    release = threading.Event()
    monkeypatch.setattr(healthcheck.health, 'ping_database',
                        lambda: release.wait(30))
    monkeypatch.setattr(healthcheck, 'DB_TIMEOUT', 0.1)
    try:
        resp = enabled.get('/healthcheck')
        assert resp.status_int == 503, resp.text
        assert 'did not answer within' in resp.text
    finally:
        release.set()


def test_disable_by_file(enabled, make_client, tmp_path):
    flag = tmp_path / 'healthcheck_disable'
    CONF.set_override('backends', ['ironic_lite_draining',
                                   'ironic_lite_database', 'disable_by_file'],
                      group='healthcheck')
    CONF.set_override('disable_by_file_path', str(flag),
                      group='healthcheck')
    client = make_client(version=None)
    assert client.get('/healthcheck').status_int == 200
    flag.write_text('')
    assert client.get('/healthcheck').status_int == 503
