"""Ironic 39's node rules for tenants (issue 35): skipping cleaning is the
system admin's (baremetal:node:disable_cleaning); a deployed node's owner
changes only with baremetal:node:update_owner_provisioned; a project admin
creates and deletes its own nodes ([api]project_admin_can_manage_own_nodes);
an allocation's backfill answers the same for a node that does not exist
and for one the caller may not see."""

import pytest

from ironic_lite import conf
from ironic_lite import objects
from tests.unit.api import utils

CONF = conf.CONF
USERS = {
    'admin': '',                        # system admin
    'sysmember': ':member',             # system member
    'owneradmin': ':admin:proj-owner',
    'ownermember': ':member:proj-owner',
    'lesseeadmin': ':admin:proj-lessee',
    'lesseemember': ':member:proj-lessee',
    'othermember': ':member:proj-other',
}
_auth = utils.basic_auth
FORBIDDEN = ('Access was denied to the following resource: '
             'baremetal:node:disable_cleaning')


def _node(client, **stored):
    resp = client.post_json('/v1/nodes', {
        'driver': 'fake-hardware', 'owner': 'proj-owner',
        'lessee': 'proj-lessee'}, headers=_auth('admin'))
    assert resp.status_int == 201, resp.text
    node = objects.Node.get_by_uuid(None, resp.json['uuid'])
    for field, value in stored.items():
        setattr(node, field, value)
    node.save()
    return node.uuid


def _patch(client, user, uuid, *ops):
    return client.patch_json('/v1/nodes/' + uuid, list(ops),
                             headers=_auth(user))


# -- automated_clean: false ---------------------------------------------------

@pytest.mark.parametrize('user', ['ownermember', 'owneradmin',
                                  'lesseemember', 'lesseeadmin', 'sysmember'])
@pytest.mark.parametrize('value', [False, 'false', 'off', '0'])
def test_only_the_system_admin_disables_cleaning(basic, user, value):
    uuid = _node(basic)
    resp = _patch(basic, user, uuid, {'op': 'replace',
                                      'path': '/automated_clean',
                                      'value': value})
    assert resp.status_int == 403, resp.text
    assert utils.faultstring(resp) == FORBIDDEN
    assert objects.Node.get_by_uuid(None, uuid).automated_clean is None


def test_disabling_cleaning_among_other_changes_is_refused_whole(basic):
    uuid = _node(basic)
    resp = _patch(basic, 'ownermember', uuid,
                  {'op': 'add', 'path': '/extra/a', 'value': 1},
                  {'op': 'add', 'path': '/automated_clean', 'value': False})
    assert resp.status_int == 403
    assert objects.Node.get_by_uuid(None, uuid).extra == {}


def test_a_copy_into_automated_clean_counts_as_disabling(basic):
    """Its value is another field's, unseen when the rules are chosen."""
    uuid = _node(basic)
    resp = _patch(basic, 'ownermember', uuid,
                  {'op': 'copy', 'from': '/maintenance',
                   'path': '/automated_clean'})
    assert resp.status_int == 403
    assert utils.faultstring(resp) == FORBIDDEN


def test_the_system_admin_disables_cleaning(basic):
    uuid = _node(basic)
    resp = _patch(basic, 'admin', uuid, {'op': 'replace',
                                         'path': '/automated_clean',
                                         'value': False})
    assert resp.status_int == 200, resp.text
    assert resp.json['automated_clean'] is False


@pytest.mark.parametrize('user', ['ownermember', 'lesseemember'])
def test_a_member_turns_cleaning_on_or_back_to_the_default(basic, user):
    uuid = _node(basic, automated_clean=False)
    resp = _patch(basic, user, uuid, {'op': 'replace',
                                      'path': '/automated_clean',
                                      'value': True})
    assert resp.status_int == 200, resp.text
    assert resp.json['automated_clean'] is True
    resp = _patch(basic, user, uuid, {'op': 'remove',
                                      'path': '/automated_clean'})
    assert resp.status_int == 200, resp.text
    assert resp.json['automated_clean'] is None


def test_another_project_still_gets_404(basic):
    uuid = _node(basic)
    resp = _patch(basic, 'othermember', uuid, {'op': 'replace',
                                               'path': '/automated_clean',
                                               'value': False})
    assert resp.status_int == 404


# -- the owner of a deployed node ---------------------------------------------

def test_a_deployed_nodes_owner_is_the_system_admins_to_change(basic):
    uuid = _node(basic, provision_state='active')
    op = {'op': 'replace', 'path': '/owner', 'value': 'proj-new'}
    resp = _patch(basic, 'sysmember', uuid, op)
    assert resp.status_int == 409
    assert utils.faultstring(resp) == (
        'Cannot update owner of node "%s" while it is in state "active".'
        % uuid)
    assert objects.Node.get_by_uuid(None, uuid).owner == 'proj-owner'
    resp = _patch(basic, 'admin', uuid, op)
    assert resp.status_int == 200, resp.text
    assert resp.json['owner'] == 'proj-new'


def test_an_undeployed_nodes_owner_is_the_system_members_to_change(basic):
    uuid = _node(basic)
    resp = _patch(basic, 'sysmember', uuid, {'op': 'replace',
                                             'path': '/owner',
                                             'value': 'proj-new'})
    assert resp.status_int == 200, resp.text


# -- a project admin's own nodes (1.80) ---------------------------------------

def test_a_project_admin_creates_and_deletes_its_own_nodes(basic):
    resp = basic.post_json('/v1/nodes', {'driver': 'fake-hardware'},
                           headers=_auth('owneradmin'))
    assert resp.status_int == 201, resp.text
    assert resp.json['owner'] == 'proj-owner'
    uuid = resp.json['uuid']
    resp = basic.post_json('/v1/nodes', {'driver': 'fake-hardware',
                                         'owner': 'proj-other'},
                           headers=_auth('owneradmin'))
    assert resp.status_int == 400
    assert utils.faultstring(resp) == (
        'Cannot create a node as a project scoped admin with an owner '
        'other than your own project.')
    assert basic.delete('/v1/nodes/' + uuid, headers=_auth('lesseeadmin')
                        ).status_int == 404
    assert basic.delete('/v1/nodes/' + uuid, headers=_auth('owneradmin')
                        ).status_int == 204


def test_a_project_admin_owns_its_node_at_an_old_version(basic):
    """openstacksdk creates a node to be made available at 1.10 (before
    the enroll state): the project admin's node is owned by its project
    all the same, the owner field of 1.50 not being the caller's."""
    resp = basic.post_json('/v1/nodes', {'driver': 'fake-hardware'},
                           headers=dict(_auth('owneradmin'), **{
                               'X-OpenStack-Ironic-API-Version': '1.10'}))
    assert resp.status_int == 201, resp.text
    assert resp.json['provision_state'] == 'available'
    node = basic.get('/v1/nodes/' + resp.json['uuid'],
                     headers=_auth('admin')).json
    assert node['owner'] == 'proj-owner'


def test_a_project_member_creates_no_node(basic):
    resp = basic.post_json('/v1/nodes', {'driver': 'fake-hardware'},
                           headers=_auth('ownermember'))
    assert resp.status_int == 403
    uuid = _node(basic)
    assert basic.delete('/v1/nodes/' + uuid, headers=_auth('ownermember')
                        ).status_int == 403


def test_the_option_off_leaves_it_to_the_system(basic):
    CONF.set_override('project_admin_can_manage_own_nodes', False,
                      group='api')
    resp = basic.post_json('/v1/nodes', {'driver': 'fake-hardware'},
                           headers=_auth('owneradmin'))
    assert resp.status_int == 403
    uuid = _node(basic)
    resp = basic.delete('/v1/nodes/' + uuid, headers=_auth('owneradmin'))
    assert resp.status_int == 403
    assert utils.faultstring(resp) == ('Access was denied to the following '
                                       'resource: baremetal:node:delete')


def test_the_system_admin_still_creates_nodes_for_anyone(basic):
    resp = basic.post_json('/v1/nodes', {'driver': 'fake-hardware',
                                         'owner': 'proj-x'},
                           headers=_auth('admin'))
    assert resp.status_int == 201
    assert resp.json['owner'] == 'proj-x'


# -- allocation backfill: no existence oracle ---------------------------------

def test_backfill_answers_alike_for_missing_and_hidden_nodes(basic):
    """Ironic's 400 "could not be found" for both."""
    hidden = _node(basic, provision_state='active')
    missing = '1be26c0b-03f2-4d2e-ae87-c02d7f33c123'
    answers = []
    for ident in (hidden, missing):
        resp = basic.post_json('/v1/allocations', {'node': ident},
                               headers=_auth('othermember'))
        answers.append((resp.status_int, utils.faultstring(resp)
                        .replace(ident, '<node>')))
    assert answers[0] == answers[1]
    assert answers[0] == (400, 'Node <node> could not be found.')
    assert basic.get('/v1/allocations', headers=_auth('admin')
                     ).json['allocations'] == []
