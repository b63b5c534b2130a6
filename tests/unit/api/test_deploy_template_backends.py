"""Deploy template writes on SQLite, PostgreSQL and MariaDB: duplicates
are Ironic's 409s (the unique index named), steps are replaced as a
whole and go with their template."""

import pytest
import sqlalchemy as sa

from ironic_lite.db import api as db_api
from tests.unit.api import utils

URL = '/v1/deploy_templates'
RAID = {'interface': 'raid', 'step': 'create_configuration', 'args': {},
        'priority': 50}
BIOS = {'interface': 'bios', 'step': 'factory_reset', 'args': {},
        'priority': 2147483647}


@pytest.fixture
def database(database_on_every_backend):
    return database_on_every_backend


def _step_rows():
    with db_api.get_engine().connect() as conn:
        return conn.execute(sa.text(
            'SELECT step, priority FROM deploy_template_steps '
            'ORDER BY id')).fetchall()


def test_writes_on_each_backend(client):
    created = client.post_json(URL, {'name': 'CUSTOM_A', 'steps': [RAID]})
    assert created.status_int == 201, created.text
    resp = client.post_json(URL, {'name': 'CUSTOM_A', 'steps': [BIOS]})
    assert resp.status_int == 409
    assert utils.faultstring(resp) == (
        'A deploy template with name CUSTOM_A already exists.')
    resp = client.post_json(URL, {'name': 'CUSTOM_B', 'steps': [BIOS],
                                  'uuid': created.json['uuid']})
    assert resp.status_int == 409
    assert 'with UUID' in utils.faultstring(resp)
    resp = client.patch_json(URL + '/CUSTOM_A', [
        {'op': 'replace', 'path': '/steps', 'value': [BIOS, RAID]}])
    assert resp.status_int == 200, resp.text
    assert resp.json['steps'] == [BIOS, RAID]
    assert [tuple(r) for r in _step_rows()] == [
        ('factory_reset', 2147483647), ('create_configuration', 50)]
    assert client.get(URL + '/custom_a').status_int == 404
    assert client.delete(URL + '/CUSTOM_A').status_int == 204
    assert _step_rows() == []
