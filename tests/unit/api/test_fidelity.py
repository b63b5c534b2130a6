"""Details checked against Ironic's API (messages, shapes, gates) that the
black-box tests written from the Ironic API reference rely on."""

from ironic_lite import objects
from ironic_lite.common import context
from tests.unit.api import utils


def _set(uuid, **values):
    node = objects.Node.get_by_uuid(context.get_admin_context(), uuid)
    for name, value in values.items():
        setattr(node, name, value)
    node.save()


def test_secrets_masked_like_ironic(client, node):
    _set(node['uuid'],
         instance_info={'image_url': 'http://x/y?temp', 'configdrive': 'abc',
                        'admin_password': 'p', 'root_gb': 10},
         driver_internal_info={'agent_secret_token': 't', 'a': 1},
         driver_info={'snmp_auth_key': 'k', 'ipmi_username': 'u'})
    body = client.get('/v1/nodes/node-0').json
    assert body['instance_info'] == {
        'image_url': '******', 'configdrive': '******',
        'admin_password': '******', 'root_gb': 10}
    assert body['driver_internal_info'] == {'agent_secret_token': '******',
                                            'a': 1}
    assert body['driver_info'] == {'snmp_auth_key': '******',
                                   'ipmi_username': 'u'}


def test_states_boot_mode_from_1_75(client, node):
    body = client.get('/v1/nodes/node-0/states', version='1.75').json
    assert body['boot_mode'] is None and body['secure_boot'] is None
    body = client.get('/v1/nodes/node-0/states', version='1.74').json
    assert 'boot_mode' not in body and 'secure_boot' not in body
    assert 'raid_config' in body
    body = client.get('/v1/nodes/node-0/states', version='1.11').json
    assert 'raid_config' not in body
    assert 'links' not in body


def test_patch_error_names_the_failed_operation(client, node):
    resp = client.patch_json('/v1/nodes/node-0', [
        {'op': 'add', 'path': '/extra/a', 'value': 1},
        {'op': 'remove', 'path': '/extra/missing'}])
    assert resp.status_int == 400
    assert utils.faultstring(resp).startswith(
        "Couldn't apply patch '{'op': 'remove', 'path': '/extra/missing'}'. "
        "Reason: ")
    # Nothing was written.
    assert client.get('/v1/nodes/node-0').json['extra'] == {}


def test_patch_newer_field_removal_is_not_406(client, node):
    resp = client.patch_json('/v1/nodes/node-0', [
        {'op': 'remove', 'path': '/description'}], version='1.50')
    assert resp.status_int == 200, resp.text
    resp = client.patch_json('/v1/nodes/node-0', [
        {'op': 'add', 'path': '/description', 'value': 'x'}],
        version='1.50')
    assert resp.status_int == 406
    assert utils.faultstring(resp) == 'Request not acceptable.'


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


def test_schema_errors_worded_like_ironic(client):
    resp = client.post_json('/v1/nodes', {'name': 'x'})
    assert utils.faultstring(resp) == (
        "Schema error for node: 'driver' is a required property")
    resp = client.post_json('/v1/nodes', {'driver': 'fake-hardware',
                                          'extra': 'x'})
    assert utils.faultstring(resp) == (
        "Schema error for node: 'x' is not of type 'object', 'null'")
    resp = client.post_json('/v1/nodes', {'driver': 'fake-hardware',
                                          'foo': 1, 'bar': 2})
    assert utils.faultstring(resp) == (
        "Schema error for node: Additional properties are not allowed "
        "('bar', 'foo' were unexpected)")   # jsonschema sorts them
    # Booleans may be given as strings, as Ironic's schema allows.
    resp = client.post_json('/v1/nodes', {'driver': 'fake-hardware',
                                          'maintenance': 'true'})
    assert resp.status_int == 201, resp.text
    assert resp.json['maintenance'] is True


def test_provision_version_gates_are_bare_406(client, node):
    url = '/v1/nodes/%s/states/provision' % node['uuid']
    for target, version in (('manage', '1.3'), ('inspect', '1.5'),
                            ('deploy', '1.72'), ('rescue', '1.37')):
        resp = client.put_json(url, {'target': target}, version=version)
        assert resp.status_int == 406, target
        assert utils.faultstring(resp) == 'Request not acceptable.'


def test_provision_checks_in_ironic_order(client, node, rpcapi):
    url = '/v1/nodes/node-0/states/provision'
    _set(node['uuid'], provision_state='manageable')
    resp = client.put_json(url, {'target': 'clean'})
    assert resp.status_int == 400
    assert utils.faultstring(resp) == (
        '"clean_steps" is required when setting target provision state to '
        'clean')
    resp = client.put_json(url, {'target': 'provide',
                                 'clean_steps': [{'interface': 'deploy',
                                                  'step': 'x'}]})
    assert utils.faultstring(resp) == (
        '"clean_steps" is only valid when setting target provision state '
        'to clean')
    resp = client.put_json(url, {'target': 'provide', 'configdrive': 'abc'},
                           version='1.34')
    assert resp.status_int == 400
    assert utils.faultstring(resp) == (
        'Adding a config drive is only supported when setting provision '
        'state to active')
    _set(node['uuid'], provision_state='available', maintenance=True)
    resp = client.put_json(url, {'target': 'active'})
    assert resp.status_int == 400
    assert utils.faultstring(resp) == (
        "The provisioning operation can't be performed on node %s because "
        "it's in maintenance mode." % node['uuid'])
    # Only active and rebuild are refused for a node in maintenance.
    resp = client.put_json(url, {'target': 'manage'})
    assert resp.status_int == 202
    assert resp.headers['Location'].endswith('/v1/nodes/node-0/states')


def test_accepted_answers_have_no_body_nor_content_type(client, node):
    # Like Ironic: python-ironicclient decodes a body said to be JSON and
    # logs "Could not decode response body as JSON" for an empty one.
    for method, url, body in (
            ('put_json', '/v1/nodes/node-0/states/power',
             {'target': 'power on'}),
            ('put_json', '/v1/nodes/node-0/states/provision',
             {'target': 'manage'}),
            ('put_json', '/v1/nodes/node-0/maintenance', {'reason': 'x'}),
            ('delete', '/v1/nodes/node-0/maintenance', None)):
        args = (body,) if body is not None else ()
        resp = getattr(client, method)(url, *args)
        assert resp.status_int == 202, (url, resp.text)
        assert resp.body == b'', url
        assert 'Content-Type' not in resp.headers, (url, resp.headers)
    # An error still is a JSON document.
    resp = client.put_json('/v1/nodes/node-0/states/power',
                           {'target': 'explode'})
    assert resp.status_int == 400
    assert resp.headers['Content-Type'].startswith('application/json')


def test_power_soft_gate_is_bare_406(client, node):
    url = '/v1/nodes/node-0/states/power'
    for body in ({'target': 'soft power off'},
                 {'target': 'power on', 'timeout': 10}):
        resp = client.put_json(url, body, version='1.26')
        assert resp.status_int == 406, body
        assert utils.faultstring(resp) == 'Request not acceptable.'
    resp = client.put_json(url, {'target': 'power on', 'timeout': 0})
    assert resp.status_int == 400
    assert utils.faultstring(resp) == 'timeout has to be positive integer'


def test_child_next_links_like_ironic(client, node):
    for i in range(2):
        assert client.post_json('/v1/ports', {
            'address': '52:54:00:00:00:0%d' % i,
            'node_uuid': node['uuid']}).status_int == 201
    ports = client.get('/v1/ports').json['ports']
    body = client.get('/v1/ports?limit=1&node=node-0').json
    assert body['next'] == (
        'http://localhost/v1/ports?sort_key=id&sort_dir=asc&'
        'fields=uuid,address&limit=1&marker=%s' % ports[0]['uuid'])
    body = client.get('/v1/ports/detail?limit=1').json
    assert body['next'] == (
        'http://localhost/v1/ports/detail?sort_key=id&sort_dir=asc&'
        'limit=1&marker=%s' % ports[0]['uuid'])
    body = client.get('/v1/ports?limit=1&detail=True').json
    assert body['next'] == (
        'http://localhost/v1/ports?sort_key=id&sort_dir=asc&detail=True&'
        'limit=1&marker=%s' % ports[0]['uuid'])


def test_fields_cannot_select_link_lists(client, node):
    resp = client.get('/v1/nodes/node-0?fields=uuid,ports')
    assert resp.status_int == 400
    assert utils.faultstring(resp) == 'Field ports is not a valid field.'
    body = client.get('/v1/nodes/node-0?fields=uuid').json
    assert set(body) == {'uuid', 'links'}
