"""A node PATCH of fields a conductor only writes is written by the API
itself, on PostgreSQL, in one statement made only on the values it read
(``node._written_as_read``); anything else goes to the conductor."""

import pytest

from ironic_lite.common import exception
from ironic_lite.db import node as db_node
from tests.unit.api import utils


@pytest.fixture
def database(database_on_postgresql):
    return database_on_postgresql


def _patch(client, ident, *ops):
    return client.patch_json('/v1/nodes/%s' % ident, list(ops))


def _op(path, value, op='add'):
    return {'op': op, 'path': path, 'value': value}


def test_a_patch_of_plain_fields_is_written_without_the_conductor(
        client, node, rpcapi):
    resp = _patch(client, 'node-0', _op('/extra/foo', 'bar'),
                  _op('/description', 'rack 4', 'replace'),
                  _op('/name', 'node-1', 'replace'))
    assert resp.status_int == 200, resp.text
    assert (resp.json['extra'], resp.json['name'],
            resp.json['description']) == ({'foo': 'bar'}, 'node-1', 'rack 4')
    assert resp.json['updated_at'] is not None
    assert not [c for c in rpcapi.calls if c[0] == 'update_node']
    row = db_node.get_node_by_uuid(node['uuid'])
    assert (row.extra, row.name, row.description) == (
        {'foo': 'bar'}, 'node-1', 'rack 4')
    assert client.get('/v1/nodes/node-1').json['extra'] == {'foo': 'bar'}


@pytest.mark.parametrize('ops', [
    [_op('/maintenance', True, 'replace')],
    [_op('/power_interface', 'fake', 'replace')],
    [_op('/protected', True, 'replace')],
    [_op('/retired_reason', 'old', 'replace')],
    [_op('/instance_uuid', '6b2b4f1e-7c55-4f36-9d1e-5e0e3f3a1b2c',
         'replace')],
], ids=['maintenance', 'interface', 'protected',
        'retired_reason', 'instance'])
def test_what_the_conductor_decides_goes_to_it(client, node, rpcapi, ops):
    _patch(client, 'node-0', *ops)
    assert ('update_node', node['uuid']) in rpcapi.calls


def test_the_fields_the_conductor_decides():
    from ironic_lite.api.controllers.v1 import node as node_api
    assert all(map(node_api._conductor_decides, (
        'driver', 'deploy_interface', 'maintenance', 'instance_uuid',
        'protected_reason')))
    assert not any(map(node_api._conductor_decides, (
        'extra', 'name', 'properties', 'instance_info', 'owner', 'shard')))


def test_a_locked_node_goes_to_the_conductor(client, node, rpcapi):
    db_node.update_node(node['uuid'], {'reservation': 'cond-1'})
    resp = _patch(client, 'node-0', _op('/extra/foo', 'bar'))
    assert resp.status_int == 409, resp.text
    assert ('update_node', node['uuid']) in rpcapi.calls
    assert db_node.get_node_by_uuid(node['uuid']).extra == {}


def test_a_write_since_the_read_goes_to_the_conductor(
        client, node, rpcapi, monkeypatch):
    """The row changed between the API's read and its write: nothing is
    written by the statement, the conductor refuses (the field changed),
    and the patch is applied again to the node read anew -- both
    changes kept."""
    from ironic_lite import objects
    save, writes = objects.Node.save_as_read, []

    def changed_meanwhile(self, context, as_read):
        if not writes:
            writes.append(db_node.update_node(self.uuid,
                                              {'extra': {'other': 1}}))
        return save(self, context, as_read)

    monkeypatch.setattr(objects.Node, 'save_as_read', changed_meanwhile)
    resp = _patch(client, 'node-0', _op('/extra/foo', 'bar'))
    assert resp.status_int == 200, resp.text
    assert [c for c in rpcapi.calls if c[0] == 'update_node'] == [
        ('update_node', node['uuid'])]
    assert resp.json['extra'] == {'other': 1, 'foo': 'bar'}
    assert db_node.get_node_by_uuid(node['uuid']).extra == resp.json['extra']


def test_a_duplicate_name_is_refused_and_nothing_written(
        client, node, rpcapi):
    other = client.post_json('/v1/nodes', {'driver': 'fake-hardware',
                                           'name': 'node-9'})
    assert other.status_int == 201, other.text
    resp = _patch(client, 'node-0', _op('/name', 'node-9', 'replace'),
                  _op('/extra/foo', 'bar'))
    assert resp.status_int == 409, resp.text
    assert 'node-9' in utils.faultstring(resp)
    assert not [c for c in rpcapi.calls if c[0] == 'update_node']
    row = db_node.get_node_by_uuid(node['uuid'])
    assert (row.name, row.extra) == ('node-0', {})


def test_no_conductor_for_the_driver_writes_nothing(
        client, node, rpcapi, monkeypatch):
    def none_serves(context, node_obj):
        raise exception.NoValidHost(reason='No conductor service '
                                    'registered which supports driver x.')

    monkeypatch.setattr(rpcapi, 'get_conductor_for', none_serves,
                        raising=False)
    resp = _patch(client, 'node-0', _op('/extra/foo', 'bar'))
    assert resp.status_int == 400, resp.text
    assert db_node.get_node_by_uuid(node['uuid']).extra == {}


def test_pinned_to_an_older_node_version_goes_to_the_conductor(
        client, node, rpcapi, config_pin):
    config_pin('2.0')
    resp = _patch(client, 'node-0', _op('/extra/foo', 'bar'))
    assert resp.status_int == 200, resp.text
    assert ('update_node', node['uuid']) in rpcapi.calls
