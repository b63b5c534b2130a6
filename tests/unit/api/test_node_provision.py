"""controllers/v1/node_provision.py: the checks of PUT states/provision,
in Ironic's order, with its messages and bare 406 gates (rescue and
clean: test_node_provision_rescue_clean.py)."""

from tests.unit.api import utils


def test_provision_version_gates_are_bare_406(client, node):
    url = '/v1/nodes/%s/states/provision' % node['uuid']
    for target, version in (('manage', '1.3'), ('inspect', '1.5'),
                            ('deploy', '1.72'), ('rescue', '1.37')):
        resp = client.put_json(url, {'target': target}, version=version)
        assert resp.status_int == 406, target
        assert utils.faultstring(resp) == 'Request not acceptable.'


def test_provision_checks_in_ironic_order(client, node, rpcapi):
    url = '/v1/nodes/node-0/states/provision'
    utils.set_node(node['uuid'], provision_state='manageable')
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
    utils.set_node(node['uuid'], provision_state='available', maintenance=True)
    resp = client.put_json(url, {'target': 'active'})
    assert resp.status_int == 400
    assert utils.faultstring(resp) == (
        "The provisioning operation can't be performed on node %s because "
        "it's in maintenance mode." % node['uuid'])
    # Only active and rebuild are refused for a node in maintenance.
    resp = client.put_json(url, {'target': 'manage'})
    assert resp.status_int == 202
    assert resp.headers['Location'].endswith('/v1/nodes/node-0/states')
