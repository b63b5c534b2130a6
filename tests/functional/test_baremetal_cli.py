"""The unmodified ``baremetal`` CLI (python-ironicclient) against ironic-lite:
the whole lifecycle with ``noauth`` (the embedded default), and with
``http_basic`` what authentication changes -- the admin's commands, a wrong
password, a project member held to the policy.

Every command is a real ``baremetal`` process (about a second of CPU
each), so the scenario asks the CLI for what a user does and reads the
rest (waiting for a state) over plain HTTP; the lifecycle is not repeated
per authentication strategy (the API behind it is the same).
"""

import pytest

from tests.functional import conftest
from tests.functional import procs

MAC = '52:54:00:cc:dd:01'
GROUP_MAC = '52:54:00:cc:dd:02'


def _cli(service, env):
    def bm(*args, **kwargs):
        return procs.baremetal(service, env, *args, **kwargs)
    return bm


@pytest.mark.long(75)
def test_node_port_portgroup_lifecycle_with_cli(lite_noauth, cli_env):
    lite_api = lite_noauth
    bm = _cli(lite_api, cli_env)
    auth = lite_api.credentials.headers()

    def current():
        status, _, body = procs.api(lite_api, 'GET', '/v1/nodes/' + uuid)
        assert status == 200, body
        return body

    node = bm('node', 'create', '--driver', 'fake-hardware',
              '--name', 'cli-node', '--property', 'cpus=4')
    assert (node['name'], node['driver'], node['provision_state'],
            node['properties']) == ('cli-node', 'fake-hardware', 'enroll',
                                    {'cpus': 4})
    uuid = node['uuid']

    bm('node', 'set', 'cli-node', '--extra', 'rack=r1', '--property',
       'memory_mb=1024', expect_json=False)
    bm('node', 'unset', 'cli-node', '--property', 'cpus', expect_json=False)
    shown = bm('node', 'show', 'cli-node')
    assert shown['uuid'] == uuid
    assert shown['extra'] == {'rack': 'r1'}
    assert shown['properties'] == {'memory_mb': 1024}
    assert [n for n in bm('node', 'list') if n['uuid'] == uuid] == [{
        'uuid': uuid, 'name': 'cli-node', 'instance_uuid': None,
        'power_state': None, 'provision_state': 'enroll',
        'maintenance': False}]

    for verb, state in (('on', 'power on'), ('off', 'power off')):
        bm('node', 'power', verb, 'cli-node', expect_json=False)
        procs.wait_power_state(lite_api.base, uuid, state, headers=auth)

    group = bm('port', 'group', 'create', '--node', uuid, '--name', 'bond0',
               '--address', GROUP_MAC)
    assert (group['name'], group['address'], group['node_uuid']) == (
        'bond0', GROUP_MAC, uuid)
    # A port group's UUID: Ironic refuses its name there ("Expected UUID
    # for portgroup_uuid: bond0"), and so does ironic-lite.
    port = bm('port', 'create', MAC, '--node', uuid, '--port-group',
              group['uuid'])
    assert (port['address'], port['node_uuid'], port['portgroup_uuid']) == (
        MAC, uuid, group['uuid'])
    ports = bm('port', 'list', '--node', 'cli-node', '--long')
    assert [(p['uuid'], p['address'], p['node_uuid'], p['portgroup_uuid'])
            for p in ports] == [(port['uuid'], MAC, uuid, group['uuid'])]
    groups = bm('port', 'group', 'list', '--node', 'cli-node')
    assert [(g['uuid'], g['name'], g['address']) for g in groups] == [
        (group['uuid'], 'bond0', GROUP_MAC)]

    # "manage" with the CLI's own wait (it polls every 2 s); the long
    # actions poll every 10 s, so their end is read over HTTP instead.
    bm('node', 'manage', 'cli-node', '--wait', '60', expect_json=False)
    assert current()['provision_state'] == 'manageable'
    for verb, state, power in (('provide', 'available', 'power off'),
                               ('deploy', 'active', 'power on'),
                               ('undeploy', 'available', 'power off')):
        bm('node', verb, 'cli-node', expect_json=False)
        body = procs.wait_provision_state(lite_api.base, uuid, state,
                                          headers=auth)
        assert body['power_state'] == power, verb

    conductors = bm('conductor', 'list')
    assert conductors == [{'hostname': conftest.CONDUCTOR_HOST,
                           'conductor_group': '', 'alive': True}]
    conductor = bm('conductor', 'show', conftest.CONDUCTOR_HOST)
    assert (conductor['hostname'], conductor['alive'],
            conductor['drivers']) == (conftest.CONDUCTOR_HOST, True,
                                      ['fake-hardware'])

    bm('port', 'delete', port['uuid'], expect_json=False)
    bm('port', 'group', 'delete', 'bond0', expect_json=False)
    assert bm('node', 'delete', 'cli-node', expect_json=False).strip() == (
        'Deleted node cli-node')
    for path in ('/v1/ports/' + port['uuid'],
                 '/v1/portgroups/' + group['uuid'], '/v1/nodes/' + uuid):
        assert procs.api(lite_api, 'GET', path)[0] == 404, path


def test_cli_admin_with_http_basic(lite_basic, cli_env):
    bm = _cli(lite_basic, cli_env)
    node = bm('node', 'create', '--driver', 'fake-hardware',
              '--name', 'basic-node')
    assert (node['name'], node['provision_state']) == ('basic-node',
                                                       'enroll')
    assert bm('node', 'show', 'basic-node')['uuid'] == node['uuid']
    assert bm('node', 'delete', 'basic-node', expect_json=False).strip() == (
        'Deleted node basic-node')
    assert procs.api(lite_basic, 'GET', '/v1/nodes/basic-node')[0] == 404


def test_cli_wrong_password_is_401_and_writes_nothing(lite_basic, cli_env):
    wrong = procs.Credentials('admin', 'not-the-password')
    err = procs.baremetal(lite_basic, cli_env, 'node', 'create',
                          '--driver', 'fake-hardware', '--name', 'intruder',
                          expect_ok=False, credentials=wrong)
    assert 'Incorrect username or password (HTTP 401)' in err, err
    assert procs.api(lite_basic, 'GET', '/v1/nodes/intruder')[0] == 404


@pytest.fixture
def project_nodes(lite_basic):
    """Two nodes: one owned by the member's project, one not."""
    uuids = {}
    for name, owner in (('proj-a-node', 'proj-a'), ('other-node', None)):
        status, _, body = procs.api(lite_basic, 'POST', '/v1/nodes', {
            'driver': 'fake-hardware', 'name': name, 'owner': owner})
        assert status == 201, body
        uuids[name] = body['uuid']
    yield uuids
    for uuid in uuids.values():
        assert procs.api(lite_basic, 'DELETE', '/v1/nodes/' + uuid)[0] == 204


def test_cli_project_member_sees_and_writes_only_what_policy_allows(
        lite_basic, cli_env, project_nodes):
    member = lite_basic.users['member']

    def bm(*args, **kwargs):
        return procs.baremetal(lite_basic, cli_env, *args,
                               credentials=member, **kwargs)

    assert [n['uuid'] for n in bm('node', 'list')] == [
        project_nodes['proj-a-node']]
    err = bm('node', 'create', '--driver', 'fake-hardware', expect_ok=False)
    assert ('Access was denied to the following resource: '
            'baremetal:node:create (HTTP 403)') in err, err
