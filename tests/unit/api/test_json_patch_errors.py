"""Issue 20, item 2: no error of a JSON patch echoes a value of the
resource; a failed operation is reported by its paths only."""

import pytest

from tests.unit.api import utils

USERS = {'admin': '', 'owner': ':member:proj-o',
         'lessee-admin': ':admin:proj-l'}
_auth = utils.basic_auth
PASSWORD = 'pw-s3cr3t-bmc'
CONFIGDRIVE = 'H4sIcfgdrive-s3cr3t'
ADDRESS = '10.0.0.42'


@pytest.fixture
def node(basic):
    resp = basic.post_json('/v1/nodes', {
        'driver': 'fake-hardware', 'owner': 'proj-o', 'lessee': 'proj-l',
        'driver_info': {'ipmi_password': PASSWORD, 'ipmi_address': ADDRESS,
                        'nested': {'snmp_password': PASSWORD}},
        'instance_info': {'configdrive': CONFIGDRIVE,
                          'root_gb': 10}},
        headers=_auth('admin'))
    assert resp.status_int == 201, resp.text
    return resp.json['uuid']


def _patch(basic, node, ops, user):
    return basic.patch_json('/v1/nodes/' + node, ops, headers=_auth(user))


def _refused(resp, ops):
    """The 400 of a failed patch: it holds none of the node's values (nor
    keys, but those the patch names)."""
    assert resp.status_int == 400, resp.text
    message = utils.faultstring(resp)
    named = ' '.join(op['path'] + op.get('from', '') for op in ops)
    for value in (PASSWORD, CONFIGDRIVE, ADDRESS, 'root_gb', 'ipmi_address',
                  'snmp_password'):
        if value not in named:
            assert value not in resp.text, message
    return message


DRIVER_INFO_CASES = [
    ({'op': 'test', 'path': '/driver_info/ipmi_password', 'value': 'x'},
     'masked'),
    ({'op': 'test', 'path': '/driver_info/nested/snmp_password',
      'value': 'x'}, 'masked'),
    ({'op': 'test', 'path': '/driver_info', 'value': {}}, 'masked'),
    ({'op': 'replace', 'path': '/driver_info/x', 'value': 1},
     'cannot replace /driver_info/x: member /driver_info/x not found'),
    ({'op': 'replace', 'path': '/driver_info/x/y', 'value': 1},
     'member /driver_info/x not found'),
    # Ironic's (jsonpatch's) words: the member's name only.
    ({'op': 'remove', 'path': '/driver_info/nested/x'},
     "can't remove a non-existent object 'x'"),
    ({'op': 'add', 'path': '/driver_info/ipmi_password/x', 'value': 1},
     '/driver_info/ipmi_password is neither an object nor a list'),
    ({'op': 'replace', 'path': '/driver_info/ipmi_password/0',
      'value': 1}, 'neither an object nor a list'),
    ({'op': 'copy', 'from': '/driver_info/missing', 'path': '/extra/a'},
     'cannot copy /driver_info/missing: member'),
    ({'op': 'move', 'from': '/driver_info', 'path': '/driver_info/a'},
     'into its own child'),
]

INSTANCE_INFO_CASES = [
    ({'op': 'test', 'path': '/instance_info/configdrive', 'value': 'x'},
     'masked'),
    ({'op': 'test', 'path': '/instance_info', 'value': {'a': 1}},
     'masked'),
    ({'op': 'replace', 'path': '/instance_info/x/y', 'value': 1},
     'cannot replace /instance_info/x/y: member /instance_info/x not'),
    ({'op': 'add', 'path': '/instance_info/configdrive/x', 'value': 1},
     'neither an object nor a list'),
    ({'op': 'remove', 'path': '/instance_info/configdrive/0'},
     'neither an object nor a list'),
    ({'op': 'copy', 'from': '/instance_info/configdrive/x',
      'path': '/instance_info/y'}, 'neither an object nor a list'),
]


@pytest.mark.parametrize('user', ['admin', 'owner'])
@pytest.mark.parametrize('op,reason', DRIVER_INFO_CASES)
def test_driver_info_errors_echo_nothing(basic, node, user, op, reason):
    message = _refused(_patch(basic, node, [op], user), [op])
    assert reason in message


@pytest.mark.parametrize('user', ['admin', 'lessee-admin'])
@pytest.mark.parametrize('op,reason', INSTANCE_INFO_CASES)
def test_instance_info_errors_echo_nothing(basic, node, user, op, reason):
    message = _refused(_patch(basic, node, [op], user), [op])
    assert reason in message


def test_failed_test_is_reported_by_path(basic, node):
    ops = [{'op': 'test', 'path': '/instance_info/root_gb', 'value': 11}]
    message = _refused(_patch(basic, node, ops, 'lessee-admin'), ops)
    assert message.endswith(
        'The value at /instance_info/root_gb is not the tested value')


def test_passing_test_then_a_change(basic, node):
    resp = _patch(basic, node, [
        {'op': 'test', 'path': '/driver_info/ipmi_address',
         'value': ADDRESS},
        {'op': 'add', 'path': '/extra/ok', 'value': True}], 'admin')
    assert resp.status_int == 200, resp.text
    assert resp.json['extra'] == {'ok': True}


def test_the_operation_is_echoed_without_its_value(basic, node):
    ops = [{'op': 'replace', 'path': '/driver_info/x', 'value': 'mine'}]
    message = _refused(_patch(basic, node, ops, 'admin'), ops)
    assert message.startswith(
        "Couldn't apply patch '{'op': 'replace', 'path': '/driver_info/x'}'"
        ". Reason: ")
    assert 'mine' not in message
