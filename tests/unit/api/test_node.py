"""Node create/show/update/delete, validate, states, power, provision,
maintenance."""

import pytest

from ironic_lite.api import microversions as mv
from ironic_lite.common import policy
from ironic_lite import objects
from tests.unit.api import utils

UUID = '1be26c0b-03f2-4d2e-ae87-c02d7f33c123'


def _node_obj(uuid):
    return objects.Node.get_by_uuid(None, uuid)


# -- create -----------------------------------------------------------------


def test_create_defaults_and_location(client, rpcapi):
    resp = client.post_json('/v1/nodes', {'driver': 'fake-hardware',
                                          'uuid': UUID,
                                          'properties': {'cpus': 2}})
    assert resp.status_int == 201
    assert resp.headers['Location'] == 'http://localhost/v1/nodes/' + UUID
    body = resp.json
    assert body['provision_state'] == 'enroll'
    assert body['power_state'] is None
    assert body['properties'] == {'cpus': 2}
    assert body['conductor_group'] == ''
    assert ('create_node', UUID) in rpcapi.calls


def test_create_before_1_11_is_available(make_client):
    resp = make_client('1.10').post_json('/v1/nodes',
                                         {'driver': 'fake-hardware'})
    assert resp.status_int == 201
    assert resp.json['provision_state'] == 'available'
    assert 'resource_class' not in resp.json


def test_create_unknown_driver_400(client):
    resp = client.post_json('/v1/nodes', {'driver': 'nope'})
    assert resp.status_int == 400
    assert 'No valid host' in utils.faultstring(resp)
    assert client.get('/v1/nodes').json['nodes'] == []


def test_create_rejects_unknown_and_readonly_keys(client):
    for body in ({'driver': 'fake-hardware', 'foo': 1},
                 {'driver': 'fake-hardware', 'provision_state': 'active'},
                 {'driver': 'fake-hardware', 'protected': True}):
        resp = client.post_json('/v1/nodes', body)
        assert resp.status_int == 400, body
        assert 'Additional properties' in utils.faultstring(resp)


def test_create_type_errors_and_missing_driver(client):
    assert client.post_json('/v1/nodes', {}).status_int == 400
    resp = client.post_json('/v1/nodes', {'driver': 'fake-hardware',
                                          'extra': [1]})
    assert resp.status_int == 400
    resp = client.post_json('/v1/nodes', {'driver': 'fake-hardware',
                                          'name': 'bad name!'})
    assert "invalid name 'bad name!'" in utils.faultstring(resp)
    resp = client.post_json('/v1/nodes', {'driver': 'fake-hardware',
                                          'name': 'detail'})
    assert 'reserved' in utils.faultstring(resp)


def test_create_newer_field_406(make_client):
    client = make_client('1.49')
    resp = client.post_json('/v1/nodes', {'driver': 'fake-hardware',
                                          'owner': 'p1'})
    assert resp.status_int == 406
    resp = make_client('1.4').post_json('/v1/nodes', {
        'driver': 'fake-hardware', 'name': 'n'})
    assert resp.status_int == 406


def test_create_duplicate_name_409(client, node):
    resp = client.post_json('/v1/nodes', {'driver': 'fake-hardware',
                                          'name': node['name']})
    assert resp.status_int == 409
    assert utils.faultstring(resp) == (
        'A node with name node-0 already exists.')


def test_create_with_unknown_chassis_400(client):
    resp = client.post_json('/v1/nodes', {'driver': 'fake-hardware',
                                          'chassis_uuid': UUID})
    assert resp.status_int == 400
    assert 'Chassis %s could not be found.' % UUID == utils.faultstring(resp)


# -- show -------------------------------------------------------------------


def test_show_by_uuid_and_name(client, node):
    by_uuid = client.get('/v1/nodes/' + node['uuid']).json
    by_name = client.get('/v1/nodes/node-0').json
    assert by_uuid == by_name
    assert by_uuid['states'][0]['href'].endswith('/states')
    assert by_uuid['shard'] is None
    assert 'shard' not in client.get('/v1/nodes/node-0',
                                     version='1.81').json


def test_show_hides_newer_fields(client, node, make_client):
    body = make_client('1.1').get('/v1/nodes/' + node['uuid']).json
    assert 'name' not in body and 'owner' not in body
    assert 'driver_internal_info' not in body
    assert 'states' not in body
    # name lookups need 1.5
    assert make_client('1.1').get('/v1/nodes/node-0').status_int == 404


def test_show_has_each_field_from_its_microversion(client, node):
    # A node field's first microversion is declared once, in
    # NODE_FIELD_MIN_VERSION: the body at each version is exactly the
    # fields (and sub-resource links) declared at or below it.
    for minor in sorted(set(mv.NODE_FIELD_MIN_VERSION.values())
                        | {mv.MINOR_MAX_VERSION}):
        for at in {minor - 1, minor} - {0}:
            body = client.get('/v1/nodes/' + node['uuid'],
                              version='1.%d' % at).json
            assert set(body) == {
                name for name, since in mv.NODE_FIELD_MIN_VERSION.items()
                if since <= at}, at


def test_show_fields(client, node):
    body = client.get('/v1/nodes/node-0?fields=uuid,power_state').json
    assert set(body) == {'uuid', 'power_state', 'links'}
    resp = client.get('/v1/nodes/node-0?fields=bogus')
    assert resp.status_int == 400
    resp = client.get('/v1/nodes/node-0?fields=owner', version='1.49')
    assert resp.status_int == 406


def test_show_masks_passwords(client):
    uuid = client.post_json('/v1/nodes', {
        'driver': 'fake-hardware',
        'driver_info': {'ipmi_password': 'secret', 'ipmi_username': 'u'}},
    ).json['uuid']
    info = client.get('/v1/nodes/' + uuid).json['driver_info']
    assert info == {'ipmi_password': '******', 'ipmi_username': 'u'}


def test_show_not_found(client):
    resp = client.get('/v1/nodes/' + UUID)
    assert resp.status_int == 404
    assert utils.faultstring(resp) == 'Node %s could not be found.' % UUID
    assert client.get('/v1/nodes/bad%20name').status_int == 400


# -- update -----------------------------------------------------------------


def test_patch_updates_through_conductor(client, node, rpcapi):
    resp = client.patch_json('/v1/nodes/node-0', [
        {'op': 'add', 'path': '/extra/foo', 'value': 'bar'},
        {'op': 'replace', 'path': '/description', 'value': 'rack 4'},
        {'op': 'replace', 'path': '/name', 'value': 'node-1'}])
    assert resp.status_int == 200, resp.text
    assert resp.json['extra'] == {'foo': 'bar'}
    assert resp.json['name'] == 'node-1'
    assert ('update_node', node['uuid']) in rpcapi.calls
    assert _node_obj(node['uuid']).description == 'rack 4'


def test_patch_remove_name_and_driver(client, node):
    resp = client.patch_json('/v1/nodes/node-0',
                             [{'op': 'remove', 'path': '/name'}])
    assert resp.status_int == 200 and resp.json['name'] is None
    resp = client.patch_json('/v1/nodes/' + node['uuid'],
                             [{'op': 'remove', 'path': '/driver'}])
    assert resp.status_int == 400


def test_patch_readonly_and_unknown_paths_400(client, node):
    for path in ('/uuid', '/provision_state', '/power_state', '/created_at',
                 '/foo'):
        resp = client.patch_json('/v1/nodes/node-0', [
            {'op': 'replace', 'path': path, 'value': 'x'}])
        assert resp.status_int == 400, path
        assert 'Cannot patch %s' % path in utils.faultstring(resp)
    # Ironic's exact text: the whole path, the allowed fields in order,
    # no final period.
    assert utils.faultstring(resp) == (
        'Cannot patch /foo. Only the following can be updated: '
        'automated_clean, bios_interface, boot_interface, chassis_uuid, '
        'conductor_group, console_interface, deploy_interface, description, '
        'disable_power_off, driver, driver_info, extra, firmware_interface, '
        'inspect_interface, instance_info, instance_name, '
        'instance_uuid, lessee, maintenance, management_interface, name, '
        'network_data, network_interface, owner, parent_node, '
        'power_interface, '
        'properties, protected, protected_reason, raid_interface, '
        'rescue_interface, resource_class, retired, retired_reason, '
        'shard, storage_interface, vendor_interface')
    # /traits is not a patchable field either (Ironic checks that first).
    resp = client.patch_json('/v1/nodes/node-0', [
        {'op': 'add', 'path': '/traits', 'value': ['CUSTOM_A']}])
    assert resp.status_int == 400
    assert 'Cannot patch /traits.' in utils.faultstring(resp)
    # The patch is validated before the node is looked up.
    resp = client.patch_json('/v1/nodes/missing', [
        {'op': 'replace', 'path': '/uuid', 'value': 'x'}])
    assert resp.status_int == 400
    assert _node_obj(node['uuid']).provision_state == 'enroll'


def test_patch_bad_documents_400(client, node):
    # (``[]`` is accepted, as by Ironic:
    # tests/unit/api/test_json_patch_empty.py)
    bad = ('{"op": "add"}', '[{"op": "frob", "path": "/name"}]',
           '[{"op": "add", "path": "/name"}]', 'not json')
    for text in bad:
        resp = client.patch('/v1/nodes/node-0', text,
                            content_type='application/json')
        assert resp.status_int == 400, text
    resp = client.patch_json('/v1/nodes/node-0', [
        {'op': 'remove', 'path': '/extra/missing'}])
    assert resp.status_int == 400
    assert "Couldn't apply patch" in utils.faultstring(resp)
    resp = client.patch_json('/v1/nodes/node-0', [
        {'op': 'replace', 'path': '/maintenance', 'value': 'maybe'}])
    assert resp.status_int == 400


def test_patch_newer_field_406(client, node):
    resp = client.patch_json('/v1/nodes/node-0', [
        {'op': 'replace', 'path': '/owner', 'value': 'p'}], version='1.49')
    assert resp.status_int == 406


def test_patch_locked_node_409(client, node):
    objects.Node.reserve(None, 'cond-7', node['uuid'])
    resp = client.patch_json('/v1/nodes/node-0', [
        {'op': 'replace', 'path': '/description', 'value': 'x'}])
    assert resp.status_int == 409
    assert 'locked by host cond-7' in utils.faultstring(resp)
    assert _node_obj(node['uuid']).description is None


def test_patch_during_transition_409(client, node):
    n = _node_obj(node['uuid'])
    n.provision_state, n.target_provision_state = 'deploying', 'active'
    n.save()
    resp = client.patch_json('/v1/nodes/node-0', [
        {'op': 'replace', 'path': '/description', 'value': 'x'}])
    assert resp.status_int == 409
    assert 'state transition is in progress' in utils.faultstring(resp)


def test_patch_chassis(client, node):
    chassis = client.post_json('/v1/chassis', {}).json['uuid']
    resp = client.patch_json('/v1/nodes/node-0', [
        {'op': 'add', 'path': '/chassis_uuid', 'value': chassis}])
    assert resp.json['chassis_uuid'] == chassis
    resp = client.patch_json('/v1/nodes/node-0', [
        {'op': 'remove', 'path': '/chassis_uuid'}], version='1.24')
    assert resp.status_int == 406


# -- delete -----------------------------------------------------------------


def test_delete(client, node, rpcapi):
    resp = client.delete('/v1/nodes/node-0')
    assert resp.status_int == 204
    assert resp.body == b''
    assert ('destroy_node', node['uuid']) in rpcapi.calls
    assert client.get('/v1/nodes/node-0').status_int == 404
    assert client.delete('/v1/nodes/node-0').status_int == 404


def test_delete_associated_409(client, node):
    client.patch_json('/v1/nodes/node-0', [
        {'op': 'add', 'path': '/instance_uuid', 'value': UUID}])
    resp = client.delete('/v1/nodes/node-0')
    assert resp.status_int == 409


# -- states -----------------------------------------------------------------


def test_get_states(client, node):
    body = client.get('/v1/nodes/node-0/states').json
    assert body['provision_state'] == 'enroll'
    assert 'links' not in body
    assert 'raid_config' not in client.get('/v1/nodes/%s/states'
                                           % node['uuid'],
                                           version='1.11').json


def test_power(client, node, rpcapi):
    resp = client.put_json('/v1/nodes/node-0/states/power',
                           {'target': 'power on'})
    assert resp.status_int == 202
    assert resp.headers['Location'] == (
        'http://localhost/v1/nodes/node-0/states')
    assert client.get('/v1/nodes/node-0').json['power_state'] == 'power on'
    resp = client.put_json('/v1/nodes/node-0/states/power',
                           {'target': 'soft power off', 'timeout': 10})
    assert resp.status_int == 202
    assert rpcapi.calls[-1][2:] == ('soft power off', 10)


def test_power_errors(client, node):
    url = '/v1/nodes/node-0/states/power'
    resp = client.put_json(url, {'target': 'explode'})
    assert resp.status_int == 400
    assert 'The requested action "explode"' in utils.faultstring(resp)
    assert client.put_json(url, {'target': 'soft power off'},
                           version='1.26').status_int == 406
    assert client.put_json(url, {'target': 'power on', 'timeout': 0}
                           ).status_int == 400


def test_provision_flow(client, node, rpcapi):
    url = '/v1/nodes/node-0/states/provision'
    resp = client.put_json(url, {'target': 'manage'})
    assert resp.status_int == 202
    assert resp.headers['Location'].endswith('/v1/nodes/node-0/states')
    assert client.put_json(url, {'target': 'provide'}).status_int == 202
    assert client.put_json(url, {'target': 'active'}).status_int == 202
    assert client.get('/v1/nodes/node-0').json['provision_state'] == 'active'
    assert client.put_json(url, {'target': 'deleted'}).status_int == 202
    assert [c[0] for c in rpcapi.calls[-4:]] == [
        'do_provisioning_action', 'do_provisioning_action',
        'do_node_deploy', 'do_node_tear_down']


def test_provision_invalid_transition_400(client, node):
    resp = client.put_json('/v1/nodes/node-0/states/provision',
                           {'target': 'active'})
    assert resp.status_int == 400
    assert utils.faultstring(resp) == (
        'The requested action "active" can not be performed on node "%s" '
        'while it is in state "enroll".' % node['uuid'])


def test_provision_locked_and_version_406(client, node, rpcapi):
    url = '/v1/nodes/%s/states/provision' % node['uuid']
    assert client.put_json(url, {'target': 'manage'},
                           version='1.3').status_int == 406
    assert client.put_json(url, {'target': 'deploy'},
                           version='1.72').status_int == 406
    objects.Node.reserve(None, 'cond-9', node['uuid'])
    # A verb the state machine refuses is a 400 from the API before any
    # lock or RPC, as Ironic (not the 409 of the lock).
    calls = list(rpcapi.calls)
    resp = client.put_json(url, {'target': 'provide'})
    assert resp.status_int == 400
    assert utils.faultstring(resp) == (
        'The requested action "provide" can not be performed on node "%s" '
        'while it is in state "enroll".' % node['uuid'])
    assert rpcapi.calls == calls
    # A verb it allows goes to the conductor, which finds the lock: 409.
    resp = client.put_json(url, {'target': 'manage'})
    assert resp.status_int == 409


def test_maintenance(client, node):
    url = '/v1/nodes/node-0/maintenance'
    resp = client.put_json(url, {'reason': 'broken fan'})
    assert resp.status_int == 202
    body = client.get('/v1/nodes/node-0').json
    assert body['maintenance'] is True
    assert body['maintenance_reason'] == 'broken fan'
    assert client.delete(url).status_int == 202
    assert client.get('/v1/nodes/node-0').json['maintenance'] is False


def test_secrets_shown_only_where_the_policy_allows(client, conf_fixture,
                                                    tmp_path):
    uuid = client.post_json('/v1/nodes', {
        'driver': 'fake-hardware',
        'driver_info': {'ipmi_password': 'secret', 'ipmi_username': 'u'},
        'instance_info': {'configdrive': 'H4sI', 'image_source': 'i'}},
    ).json['uuid']
    # The defaults ('!') mask for everybody, even under noauth.
    body = client.get('/v1/nodes/' + uuid).json
    assert body['driver_info']['ipmi_password'] == '******'
    assert body['instance_info']['configdrive'] == '******'
    policy_file = tmp_path / 'policy.yaml'
    policy_file.write_text('"show_password": "@"\n')
    policy.get_enforcer()       # registers the [oslo_policy] options
    conf_fixture.config(policy_file=str(policy_file), group='oslo_policy')
    policy.reset()
    try:
        body = client.get('/v1/nodes/' + uuid).json
        assert body['driver_info']['ipmi_password'] == 'secret'
        assert body['instance_info']['configdrive'] == '******'
        policy_file.write_text('"show_instance_secrets": "@"\n')
        policy.reset()
        body = client.get('/v1/nodes/' + uuid).json
        assert body['driver_info']['ipmi_password'] == '******'
        assert body['instance_info']['configdrive'] == 'H4sI'
    finally:
        policy.reset()


def test_node_names_reserved_and_invalid(client, node):
    resp = client.post_json('/v1/nodes', {'driver': 'fake-hardware',
                                          'name': 'detail'})
    assert resp.status_int == 400
    assert utils.faultstring(resp) == (
        'The word "detail" is reserved and can not be used as a node name. '
        'Reserved words are: maintenance, management, states, '
        'vendor_passthru, detail, validate.')
    resp = client.post_json('/v1/nodes', {'driver': 'fake-hardware',
                                          'name': 'bad name'})
    assert utils.faultstring(resp) == (
        "Cannot create node with invalid name 'bad name'")
    resp = client.patch_json('/v1/nodes/node-0', [
        {'op': 'replace', 'path': '/name', 'value': 'bad name'}])
    assert resp.status_int == 400
    assert utils.faultstring(resp) == (
        "Node node-0: Cannot change name to invalid name 'bad name'")


def test_subcontroller_names_are_plain_404(client, node):
    for path in ('/v1/nodes/ports', '/v1/nodes/vifs/x', '/v1/nodes/traits'):
        resp = client.get(path)
        assert resp.status_int == 404, path
        assert utils.faultstring(resp) == 'The resource could not be found.'


def test_fields_cannot_select_link_lists(client, node):
    resp = client.get('/v1/nodes/node-0?fields=uuid,ports')
    assert resp.status_int == 400
    assert utils.faultstring(resp) == 'Field ports is not a valid field.'
    body = client.get('/v1/nodes/node-0?fields=uuid').json
    assert set(body) == {'uuid', 'links'}


# -- input patterns match the whole value (issue 21): ``\Z``, never a
# ``$`` that also matches before a final newline ----------------------

@pytest.mark.parametrize('name', ['node1\n', 'node1\r\n', '\nnode1'])
def test_node_name_with_a_newline_is_refused(client, name):
    resp = client.post_json('/v1/nodes', {'driver': 'fake-hardware',
                                          'name': name})
    assert resp.status_int == 400, resp.text
    assert utils.faultstring(resp) == (
        "Cannot create node with invalid name '%s'" % name)
    assert client.get('/v1/nodes').json['nodes'] == []


def test_node_rename_with_a_newline_is_refused(client, node):
    resp = client.patch_json('/v1/nodes/' + node['uuid'], [
        {'op': 'replace', 'path': '/name', 'value': 'node1\n'}])
    assert resp.status_int == 400, resp.text
    assert 'Cannot change name to invalid name' in utils.faultstring(resp)
    assert client.get('/v1/nodes/' + node['uuid']).json['name'] == 'node-0'


def test_node_path_name_with_a_newline_is_not_the_node(client, node):
    resp = client.get('/v1/nodes/node-0%0A')
    assert resp.status_int == 400, resp.text


def test_validate(client, node):
    body = client.get('/v1/nodes/node-0/validate').json
    assert body['power'] == {'result': True}
    assert body['bios']['result'] is False
    assert 'vendor' not in body
    assert client.get('/v1/nodes/validate?node=node-0').json == body
    assert client.get('/v1/nodes/nope/validate').status_int == 404
