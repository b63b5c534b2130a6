"""Allocations on SQLite, PostgreSQL and MariaDB: names byte for byte,
candidate names, the reservation and the release in one transaction."""

import pytest

from tests.unit.api import test_allocation as t
from tests.unit.api import utils


@pytest.fixture
def database(database_on_every_backend):
    """The API's database on each backend in turn (not only SQLite)."""
    return database_on_every_backend


def test_allocate_deploy_release_on_each_backend(client):
    node = t._ready(client, 'Gold-1', traits=('CUSTOM_GPU',))
    resp = t._create(client, {'resource_class': 'gold', 'name': 'A1',
                              'traits': ['CUSTOM_GPU'],
                              'candidate_nodes': ['Gold-1']})
    assert resp.status_int == 201, resp.text
    assert (resp.json['state'], resp.json['node_uuid']) == ('active',
                                                            node.uuid)
    resp = t._create(client, {'resource_class': 'gold',
                              'candidate_nodes': ['gold-1']})
    assert resp.status_int == 400
    assert utils.faultstring(resp) == 'Nodes cannot be found: gold-1'
    # Names differ byte for byte: "a1" is another allocation's name.
    assert t._create(client, {'resource_class': 'x',
                              'name': 'a1'}).status_int == 201
    assert client.get('/v1/allocations/a1').json['resource_class'] == 'x'
    assert t._create(client, {'resource_class': 'x',
                              'name': 'A1'}).status_int == 409
    assert client.delete('/v1/allocations/A1').status_int == 204
    shown = client.get('/v1/nodes/Gold-1').json
    assert (shown['allocation_uuid'], shown['instance_uuid']) == (None,
                                                                  None)
