"""Defect 1 of issue 9: every pointer of every JSON-patch operation
passes the same policy and masking as a read and a write of its field."""

import pytest

from tests.unit.api import utils

USERS = {'admin': '', 'lessee': ':member:proj-l', 'owner': ':member:proj-o'}
_auth = utils.basic_auth
SECRET = 's3cr3t-bmc-pw'


@pytest.fixture
def node(basic):
    resp = basic.post_json('/v1/nodes', {
        'driver': 'fake-hardware', 'owner': 'proj-o', 'lessee': 'proj-l',
        'driver_info': {'ipmi_password': SECRET, 'ipmi_address': '10.0.0.9'},
        'instance_info': {'image_url': 'http://u:%s@x/i' % SECRET}},
        headers=_auth('admin'))
    assert resp.status_int == 201, resp.text
    return resp.json['uuid']


def _patch(basic, node, ops, user='lessee'):
    return basic.patch_json('/v1/nodes/' + node, ops, headers=_auth(user))


def _everything(basic, node):
    resp = basic.get('/v1/nodes/' + node, headers=_auth('admin'))
    return resp.text


@pytest.mark.parametrize('ops', [
    [{'op': 'copy', 'from': '/driver_info', 'path': '/extra/leak'}],
    [{'op': 'copy', 'from': '/driver_info/ipmi_password',
      'path': '/extra/leak'}],
    [{'op': 'copy', 'from': '/instance_info', 'path': '/extra/leak'}],
    [{'op': 'copy', 'from': '/instance_info/image_url',
      'path': '/description'}],
    [{'op': 'move', 'from': '/instance_info/image_url',
      'path': '/extra/leak'}],
])
def test_secret_never_copied_or_moved_out(basic, node, ops):
    resp = _patch(basic, node, ops)
    # A move out of instance_info is also a write of it, which the
    # secure-RBAC defaults refuse a lessee member (403): refused either way.
    allowed = (400, 403) if ops[0]['op'] == 'move' else (400,)
    assert resp.status_int in allowed, resp.text
    utils.fault(resp)
    assert SECRET not in resp.text
    assert SECRET not in _everything(basic, node)


@pytest.mark.parametrize('user,status', [('admin', 400), ('lessee', 403)])
def test_test_op_is_no_oracle_for_secrets(basic, node, user, status):
    resp = _patch(basic, node, [
        {'op': 'test', 'path': '/driver_info/ipmi_password',
         'value': SECRET},
        {'op': 'add', 'path': '/extra/guessed', 'value': True}], user=user)
    assert resp.status_int == status, resp.text
    assert 'guessed' not in _everything(basic, node)


def test_from_needs_the_write_policy_of_a_move_and_field_rules(basic, node):
    # A lessee may not write driver_info: moving out of it is a write.
    resp = _patch(basic, node, [{'op': 'move', 'from': '/driver_info/'
                                 'ipmi_address', 'path': '/extra/a'}])
    assert resp.status_int == 403, resp.text
    # ``from`` must name a patchable field, as ``path`` must.
    resp = _patch(basic, node, [{'op': 'copy', 'from': '/reservation',
                                 'path': '/extra/r'}], user='admin')
    assert resp.status_int == 400, resp.text


def test_copy_of_what_a_read_shows_is_allowed(basic, node):
    copy = [{'op': 'copy', 'from': '/driver_info/ipmi_address',
             'path': '/extra/bmc'}]
    # Issue 35: a lessee's read shows driver_info redacted (Ironic's
    # baremetal:node:get:driver_info), so its copy is refused; the
    # owner's read shows the address.
    assert _patch(basic, node, copy).status_int == 400
    resp = _patch(basic, node, copy, user='owner')
    assert resp.status_int == 200, resp.text
    assert resp.json['extra'] == {'bmc': '10.0.0.9'}
    # The admin may still rearrange secrets inside the same field.
    resp = _patch(basic, node, [{'op': 'move', 'from': '/driver_info/'
                                 'ipmi_password', 'path': '/driver_info/'
                                 'ipmi_password_old'}], user='admin')
    assert resp.status_int == 200, resp.text
    assert SECRET not in resp.text
