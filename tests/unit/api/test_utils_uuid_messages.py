"""Issue 21, items 3 and 6: a malformed UUID (or identifier) is worded
as Ironic words it, naming the parameter, and refused before any
authorization, lookup or write.

Ironic's ``ironic/common/args.py``: ``Expected UUID for <name>: <value>``
(``args.uuid``) and ``Expected UUID or name for <name>: <value>``
(``args.uuid_or_name``); its parameter schemas (port groups, a chassis
PATCH) give jsonschema's message.
"""

import pytest

from tests.unit.api import utils

USERS = {'admin': '', 'reader': ':reader', 'nobody': ':member:proj-x'}
_auth = utils.basic_auth
BAD = 'not-a-uuid'
UUID = '1be26c0b-03f2-4d2e-ae87-c02d7f33c123'


@pytest.mark.parametrize('field', ['uuid', 'chassis_uuid', 'instance_uuid'])
def test_node_create(client, rpcapi, field):
    resp = client.post_json('/v1/nodes', {'driver': 'fake-hardware',
                                          field: BAD})
    utils.refused_400(resp, 'Expected UUID for %s: %s' % (field, BAD))
    assert rpcapi.calls == []


def test_node_create_schema_first_then_uuids_in_ironics_order(client):
    resp = client.post_json('/v1/nodes', {'driver': 5, 'uuid': BAD})
    assert utils.faultstring(resp).startswith('Schema error for node:')
    resp = client.post_json('/v1/nodes', {'driver': 'fake-hardware',
                                          'uuid': 'u', 'chassis_uuid': 'c',
                                          'instance_uuid': 'i'})
    utils.refused_400(resp, 'Expected UUID for chassis_uuid: c')


@pytest.mark.parametrize('field', ['chassis_uuid', 'instance_uuid'])
def test_node_patch(client, node, rpcapi, field):
    resp = client.patch_json('/v1/nodes/' + node['uuid'], [
        {'op': 'replace', 'path': '/' + field, 'value': BAD}])
    utils.refused_400(resp, 'Expected UUID for %s: %s' % (field, BAD))
    assert [c for c in rpcapi.calls if c[0] == 'update_node'] == []


def test_uuid_is_checked_before_authorization(basic):
    """A caller who may not create nodes still gets the 400 first, as
    Ironic's args.validate runs before the handler."""
    resp = basic.post_json('/v1/nodes', {'driver': 'fake-hardware',
                                         'uuid': BAD},
                           headers=_auth('reader'))
    utils.refused_400(resp, 'Expected UUID for uuid: %s' % BAD)
    resp = basic.get('/v1/chassis/' + BAD, headers=_auth('nobody'))
    utils.refused_400(resp, 'Expected UUID for chassis_uuid: %s' % BAD)


@pytest.mark.parametrize('field', ['node_uuid', 'portgroup_uuid', 'uuid'])
def test_port_create(client, node, field):
    body = {'node_uuid': node['uuid'], 'address': '52:54:00:00:00:01'}
    body[field] = BAD
    utils.refused_400(client.post_json('/v1/ports', body),
                      'Expected UUID for %s: %s' % (field, BAD))
    assert client.get('/v1/ports').json['ports'] == []


def test_port_create_with_a_portgroup_name_is_refused(client, node):
    """Ironic's PORT_VALIDATOR_EXTRA: portgroup_uuid is args.uuid."""
    assert client.post_json('/v1/portgroups', {
        'node_uuid': node['uuid'], 'name': 'pg1'}).status_int == 201
    resp = client.post_json('/v1/ports', {
        'node_uuid': node['uuid'], 'address': '52:54:00:00:00:01',
        'portgroup_uuid': 'pg1'})
    utils.refused_400(resp, 'Expected UUID for portgroup_uuid: pg1')


@pytest.mark.parametrize('field', ['node_uuid', 'uuid'])
def test_portgroup_create(client, node, field):
    body = {'node_uuid': node['uuid']}
    body[field] = BAD
    utils.refused_400(client.post_json('/v1/portgroups', body),
                      'Expected UUID for %s: %s' % (field, BAD))


def test_chassis_create(client):
    utils.refused_400(client.post_json('/v1/chassis', {'uuid': BAD}),
                      'Expected UUID for uuid: %s' % BAD)


def test_chassis_path(client):
    for resp in (client.get('/v1/chassis/' + BAD),
                 client.delete('/v1/chassis/' + BAD),
                 client.get('/v1/chassis/%s/nodes' % BAD),
                 client.get('/v1/chassis/%s/nodes/detail' % BAD)):
        utils.refused_400(resp, 'Expected UUID for chassis_uuid: %s' % BAD)
    # Ironic's PATCH checks the segment with its parameter schema.
    resp = client.patch_json('/v1/chassis/' + BAD, [])
    utils.refused_400(resp, "Schema error: 'not-a-uuid' is not a 'uuid'")
    assert client.get('/v1/chassis/' + UUID).status_int == 404


def test_port_path(client):
    # args.uuid_or_name: a valid name is looked up (none: 404) ...
    for resp in (client.get('/v1/ports/' + BAD),
                 client.patch_json('/v1/ports/' + BAD, [])):
        assert resp.status_int == 404, resp.text
        assert utils.faultstring(resp) == 'Port %s could not be found.' % BAD
    # ... anything else is a 400 naming Ironic's parameter.
    for resp in (client.get('/v1/ports/a%20b'),
                 client.patch_json('/v1/ports/a%20b', [])):
        utils.refused_400(resp, 'Expected UUID or name for port_ident: a b')
    # DELETE takes a UUID only (args.uuid of port_uuid).
    utils.refused_400(client.delete('/v1/ports/' + BAD),
                      'Expected UUID for port_uuid: %s' % BAD)


def test_portgroup_path(client):
    message = ("Schema error: 'a b' is not valid under any of the given "
               "schemas. Possible root cause: 'a b' is not a 'uuid'")
    for resp in (client.get('/v1/portgroups/a%20b'),
                 client.patch_json('/v1/portgroups/a%20b', []),
                 client.delete('/v1/portgroups/a%20b')):
        utils.refused_400(resp, message)
    resp = client.get('/v1/portgroups/' + BAD)
    assert resp.status_int == 404, resp.text
