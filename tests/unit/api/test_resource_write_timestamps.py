"""Issue 21, item 4: the answer of a write shows the times a later read
shows, on every backend.

MariaDB's DATETIME holds whole seconds: a POST answered
``2026-11-26T16:12:07.480697+00:00`` and the GET after it
``2026-11-26T16:12:07+00:00``.  The times the models set are whole
seconds, as Ironic on MySQL serves them.  These tests run the API on
SQLite, PostgreSQL and MariaDB in turn.
"""

import pytest


@pytest.fixture
def database(database_on_every_backend):
    """The API's database on each backend in turn (not only SQLite)."""
    return database_on_every_backend


def _created(client, url, body):
    resp = client.post_json(url, body)
    assert resp.status_int == 201, resp.text
    return resp.json


def _whole_seconds(text):
    return text is not None and '.' not in text


def _same_after_read(client, collection, written):
    """The write's body, as a GET of the item shows it now."""
    read = client.get('/v1/%s/%s' % (collection, written['uuid'])).json
    assert read['created_at'] == written['created_at']
    assert read['updated_at'] == written['updated_at']
    assert _whole_seconds(written['created_at']), written['created_at']
    return read


def test_create_and_patch_answer_what_a_read_shows(client):
    node = _created(client, '/v1/nodes', {'driver': 'fake-hardware'})
    written = {
        'nodes': node,
        'ports': _created(client, '/v1/ports', {
            'node_uuid': node['uuid'], 'address': '52:54:00:00:00:01'}),
        'portgroups': _created(client, '/v1/portgroups', {
            'node_uuid': node['uuid']}),
        'chassis': _created(client, '/v1/chassis', {}),
    }
    for collection, body in written.items():
        _same_after_read(client, collection, body)
        resp = client.patch_json('/v1/%s/%s' % (collection, body['uuid']),
                                 [{'op': 'add', 'path': '/extra/k',
                                   'value': 'v'}])
        assert resp.status_int == 200, resp.text
        assert _whole_seconds(resp.json['updated_at']), resp.json
        _same_after_read(client, collection, resp.json)
