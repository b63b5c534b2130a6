"""Inspection rule writes on SQLite, PostgreSQL and MariaDB: a UUID taken
is Ironic's 409, the JSON lists read back as written (unicode, nested,
at the 64 KiB limit), the phase filter and a patch."""

import pytest

from tests.unit.api import utils

URL = '/v1/inspection_rules'
ACTIONS = [{'op': 'set-attribute',
            'args': {'path': '/extra/name', 'value': 'n\u00f8de \u2603'}}]


@pytest.fixture
def database(database_on_every_backend):
    return database_on_every_backend


def test_writes_on_each_backend(client):
    conditions = [{'op': 'one-of', 'args': {
        'value': '{inventory[x]}', 'values': [[1, {'a': None}], 'b']}}]
    created = client.post_json(URL, {'actions': ACTIONS,
                                     'conditions': conditions,
                                     'sensitive': False})
    assert created.status_int == 201, created.text
    uuid = created.json['uuid']
    resp = client.post_json(URL, {'actions': ACTIONS, 'uuid': uuid})
    assert resp.status_int == 409
    assert utils.faultstring(resp) == (
        'A rule with UUID %s already exists.' % uuid)
    shown = client.get(URL + '/' + uuid).json
    assert (shown['actions'], shown['conditions']) == (ACTIONS, conditions)
    # Just under the column's limit, then over it: a 400, nothing written.
    big = [{'op': 'log', 'args': {'msg': 'x' * (65535 - 40)}}]
    resp = client.patch_json(URL + '/' + uuid, [
        {'op': 'replace', 'path': '/actions', 'value': big}])
    assert resp.status_int == 200, resp.text
    too_big = [{'op': 'log', 'args': {'msg': 'x' * 65536}}]
    resp = client.post_json(URL, {'actions': too_big})
    assert resp.status_int == 400
    assert client.get(URL + '?phase=main').json['inspection_rules'][0][
        'uuid'] == uuid
    assert client.delete(URL + '/' + uuid).status_int == 204
    assert client.get(URL).json == {'inspection_rules': []}
