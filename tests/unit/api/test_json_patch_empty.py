"""Issue 21: an empty JSON patch ``[]`` is accepted, as by Ironic (whose
patch schema has no minItems), but only after the caller's policy: the
admin gets the resource unchanged (nothing written), any other caller
what the policy answers it for a real change of the same resource."""

import pytest

from ironic_lite.common import context
from ironic_lite import objects
from tests.unit.api import utils

USERS = {'admin': '', 'reader': ':reader', 'owner': ':member:proj-o',
         'other-reader': ':reader:proj-x'}
_auth = utils.basic_auth
EXTRA = [{'op': 'add', 'path': '/extra/k', 'value': 'v'}]


@pytest.fixture
def resources(basic):
    """{kind: URL of one item} for nodes, ports, port groups, chassis."""
    def create(url, body):
        resp = basic.post_json(url, body, headers=_auth('admin'))
        assert resp.status_int == 201, resp.text
        return resp.json['uuid']

    node = create('/v1/nodes', {'driver': 'fake-hardware',
                                'owner': 'proj-o'})
    return {
        'node': '/v1/nodes/' + node,
        'port': '/v1/ports/' + create('/v1/ports', {
            'node_uuid': node, 'address': '52:54:00:00:00:01'}),
        'portgroup': '/v1/portgroups/' + create('/v1/portgroups', {
            'node_uuid': node}),
        'chassis': '/v1/chassis/' + create('/v1/chassis', {}),
    }


KINDS = ('node', 'port', 'portgroup', 'chassis')


@pytest.mark.parametrize('kind', KINDS)
def test_admin_empty_patch_is_the_resource_unchanged(basic, resources,
                                                     rpcapi, kind):
    url = resources[kind]
    before = basic.get(url, headers=_auth('admin')).json
    calls = len(rpcapi.calls)
    resp = basic.patch_json(url, [], headers=_auth('admin'))
    assert resp.status_int == 200, resp.text
    assert resp.json == before
    # Nothing written: no RPC update, updated_at as it was.
    assert rpcapi.calls[calls:] == []
    assert basic.get(url, headers=_auth('admin')).json == before
    assert before['updated_at'] is None


@pytest.mark.parametrize('kind', KINDS)
@pytest.mark.parametrize('user', ['reader', 'owner', 'other-reader'])
def test_empty_patch_gets_the_policy_answer_of_a_change(basic, resources,
                                                        user, kind):
    url = resources[kind]
    refused = basic.patch_json(url, EXTRA, headers=_auth(user))
    resp = basic.patch_json(url, [], headers=_auth(user))
    assert resp.status_int == refused.status_int, resp.text
    if resp.status_int != 200:
        utils.fault(resp)   # Ironic's error body


def test_empty_node_patch_statuses(basic, resources):
    url = resources['node']
    # A system reader may see the node but not change it; a reader of
    # another project may not even see it.
    assert basic.patch_json(url, [], headers=_auth('reader')
                            ).status_int == 403
    assert basic.patch_json(url, [], headers=_auth('other-reader')
                            ).status_int == 404
    assert basic.patch_json('/v1/nodes/missing', [],
                            headers=_auth('admin')).status_int == 404


def test_empty_patch_of_a_node_in_transition_is_a_409(client, node):
    """As Ironic: the state check applies to an empty patch too."""
    obj = objects.Node.get_by_uuid(context.get_admin_context(),
                                   node['uuid'])
    obj.provision_state, obj.target_provision_state = 'deploying', 'active'
    obj.save()
    resp = client.patch_json('/v1/nodes/' + node['uuid'], [])
    assert resp.status_int == 409, resp.text
