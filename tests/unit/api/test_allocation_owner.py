"""Who owns a new allocation (API 1.60, secure RBAC as Ironic): a project
member's allocation is its project's; only baremetal:allocation:
create_restricted (a system member) names another owner; a project sees
only its allocations and nodes."""

from ironic_lite import objects
from tests.unit.api import utils

USERS = {
    'admin': '',                    # system admin
    'p1member': ':member:proj1',
    'p1reader': ':reader:proj1',
    'p2member': ':member:proj2',
}
_auth = utils.basic_auth


def _post(client, user, body):
    return client.post_json('/v1/allocations', body, headers=_auth(user))


def _node(client, name, owner):
    resp = client.post_json('/v1/nodes', {'driver': 'fake-hardware',
                                          'name': name, 'owner': owner},
                            headers=_auth('admin'))
    assert resp.status_int == 201, resp.text
    node = objects.Node.get_by_uuid(None, resp.json['uuid'])
    node.provision_state, node.power_state = 'available', 'power off'
    node.resource_class = 'gold'
    node.save()
    return node


def test_a_member_allocates_for_its_project_only(basic):
    mine = _node(basic, 'mine', 'proj1')
    _node(basic, 'theirs', 'proj2')
    resp = _post(basic, 'p1member', {'resource_class': 'gold'})
    assert resp.status_int == 201, resp.text
    assert resp.json['owner'] == 'proj1'
    assert resp.json['node_uuid'] == mine.uuid
    resp = _post(basic, 'p1member', {'resource_class': 'gold',
                                     'owner': 'proj2'})
    assert resp.status_int == 403
    assert utils.faultstring(resp) == (
        'Cannot create allocation with an owner Project ID value proj2 not '
        'matching the requester Project ID proj1. Policy '
        'baremetal:allocation:create_restricted is required for this '
        'capability.')
    resp = _post(basic, 'p1reader', {'resource_class': 'gold'})
    assert resp.status_int == 403


def test_candidates_of_another_project_do_not_exist(basic):
    _node(basic, 'theirs', 'proj2')
    resp = _post(basic, 'p1member', {'resource_class': 'gold',
                                     'candidate_nodes': ['theirs']})
    assert resp.status_int == 400
    assert utils.faultstring(resp) == 'Nodes cannot be found: theirs'
    resp = _post(basic, 'admin', {'resource_class': 'gold', 'owner': 'proj1',
                                  'candidate_nodes': ['theirs']})
    assert resp.status_int == 201, resp.text
    # Owned by proj1, the allocation may not take proj2's node.
    assert resp.json['state'] == 'error'


def test_each_project_lists_its_own(basic):
    _post(basic, 'admin', {'resource_class': 'x', 'owner': 'proj1'})
    _post(basic, 'admin', {'resource_class': 'x', 'owner': 'proj2'})
    _post(basic, 'admin', {'resource_class': 'x'})
    listed = basic.get('/v1/allocations', headers=_auth('p1reader')).json
    assert [a['owner'] for a in listed['allocations']] == ['proj1']
    assert len(basic.get('/v1/allocations',
                         headers=_auth('admin')).json['allocations']) == 3
    resp = basic.get('/v1/allocations?owner=proj2', headers=_auth('p1reader'))
    assert resp.status_int == 403
    theirs = basic.get('/v1/allocations?owner=proj2',
                       headers=_auth('admin')).json['allocations'][0]
    resp = basic.get('/v1/allocations/' + theirs['uuid'],
                     headers=_auth('p1member'))
    assert resp.status_int == 404
    resp = basic.delete('/v1/allocations/' + theirs['uuid'],
                        headers=_auth('p2member'))
    assert resp.status_int == 204
