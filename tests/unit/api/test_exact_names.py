"""Names and shards compared byte for byte on every backend (issue 20).

MariaDB's collations ignore trailing spaces and (by default) case; the
queries compare bytes there too (ironic_lite/db/exact.py).  These tests
run the API on SQLite, PostgreSQL and MariaDB in turn.
"""

import pytest

SHARDS = ('rkX', 'rkX ', 'RKX', 'rkx')


@pytest.fixture
def database(database_on_every_backend):
    """The API's database on each backend in turn (not only SQLite)."""
    return database_on_every_backend


def _create(client, url, body):
    resp = client.post_json(url, body)
    assert resp.status_int == 201, resp.text
    return resp.json['uuid']


@pytest.fixture
def sharded(client):
    """One node in each of SHARDS: {shard: node uuid}."""
    return {shard: _create(client, '/v1/nodes', {'driver': 'fake-hardware',
                                                 'shard': shard})
            for shard in SHARDS}


@pytest.mark.parametrize('shard', SHARDS)
def test_shard_filter_is_exact(client, sharded, shard):
    resp = client.get('/v1/nodes', params={'shard': shard})
    assert resp.status_int == 200, resp.text
    assert [n['uuid'] for n in resp.json['nodes']] == [sharded[shard]]


def test_shards_list_keeps_case_and_space_variants_apart(client, sharded):
    resp = client.get('/v1/shards')
    assert resp.status_int == 200, resp.text
    # Ties in byte order: 'RKX' < 'rkX' < 'rkX ' < 'rkx'.
    assert resp.json == {'shards': [{'name': s, 'count': 1} for s in
                                    ('RKX', 'rkX', 'rkX ', 'rkx')]}


def test_conductor_group_filter_is_exact(client):
    node = _create(client, '/v1/nodes', {'driver': 'fake-hardware',
                                         'conductor_group': 'g1'})
    for group, found in (('g1', [node]), ('g1 ', [])):
        resp = client.get('/v1/nodes', params={'conductor_group': group})
        assert resp.status_int == 200, resp.text
        assert [n['uuid'] for n in resp.json['nodes']] == found


def test_node_found_by_its_own_name_only(client):
    uuid = _create(client, '/v1/nodes', {'driver': 'fake-hardware',
                                         'name': 'Node1'})
    assert client.get('/v1/nodes/Node1').json['uuid'] == uuid
    assert client.get('/v1/nodes/node1').status_int == 404
    assert client.get('/v1/nodes/NODE1').status_int == 404


def test_portgroup_found_by_its_own_name_only(client):
    node = _create(client, '/v1/nodes', {'driver': 'fake-hardware'})
    uuid = _create(client, '/v1/portgroups', {'node_uuid': node,
                                              'name': 'PG1'})
    assert client.get('/v1/portgroups/PG1').json['uuid'] == uuid
    assert client.get('/v1/portgroups/pg1').status_int == 404


def _both_names(client, url, body, names):
    """Create one of each name: their uuids.  On MariaDB this needs the
    unique index to compare bytes too (migration f2c8e6a1d4b7): with the
    table's case-folding collation the second one was a 409."""
    first = _create(client, url, dict(body, name=names[0]))
    return first, _create(client, url, dict(body, name=names[1]))


def test_node_names_differing_in_case(client, database):
    uuids = _both_names(client, '/v1/nodes', {'driver': 'fake-hardware'},
                        ('Node1', 'node1'))
    assert client.get('/v1/nodes/Node1').json['uuid'] == uuids[0]
    assert client.get('/v1/nodes/node1').json['uuid'] == uuids[1]
    resp = client.post_json('/v1/nodes', {'driver': 'fake-hardware',
                                          'name': 'node1'})
    assert resp.status_int == 409, resp.text


def test_portgroup_names_differing_in_case(client, database):
    node = _create(client, '/v1/nodes', {'driver': 'fake-hardware'})
    uuids = _both_names(client, '/v1/portgroups', {'node_uuid': node},
                        ('PG1', 'pg1'))
    assert client.get('/v1/portgroups/PG1').json['uuid'] == uuids[0]
    assert client.get('/v1/portgroups/pg1').json['uuid'] == uuids[1]
    resp = client.post_json('/v1/portgroups', {'node_uuid': node,
                                               'name': 'pg1'})
    assert resp.status_int == 409, resp.text
