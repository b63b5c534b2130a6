"""ironic-lite in an OpenStack cloud: a real Keystone, its catalog and
scoped tokens, with the unmodified openstacksdk and ``baremetal`` CLI;
and ironic-api calling ironic-conductor over JSON-RPC with Keystone
tokens (``[DEFAULT]auth_strategy = keystone``, as Ironic's default).

One Keystone serves the module (tests/functional/keystone.py); ironic-lite
(``auth_strategy = keystone``, ``rbac_service_role_elevated_access``) is in
its catalog as service type ``baremetal``.  The clients authenticate with a
password from clouds.yaml and find ironic-lite in the catalog (no endpoint
override).  The personas: a system admin, a system reader, a member of the
project owning a node, a member of the project leasing it, a member of an
unrelated project and Nova's service user (role ``service`` in project
``service``).
"""

import os
import subprocess

import pytest

from tests.functional import consumers
from tests.functional import keystone
from tests.functional import procs
from tests import timeouts

PASSWORD = 'secret-%d' % os.getpid()
# cloud name -> (user, role, project or None for the system)
PERSONAS = {
    'sysadmin': ('admin', 'admin', None),
    'sysreader': ('sysreader', 'reader', None),
    'owner': ('owner', 'member', 'proj-owner'),
    'lessee': ('lessee', 'member', 'proj-lessee'),
    'stranger': ('stranger', 'member', 'proj-other'),
    'nova': ('nova', 'service', 'service'),
}
SHARD = 'shard-nova'
RPC_USER = 'ironic-rpc'


@pytest.fixture(scope='module')
def cloud(tmp_path_factory):
    """A Keystone with the personas and ironic-lite in its catalog."""
    directory = str(tmp_path_factory.mktemp('keystone'))
    with keystone.with_baremetal(directory) as (ks, ident):
        users = {'sysadmin': ('admin', keystone.ADMIN_PASSWORD, None)}
        for name, (user, role, project) in PERSONAS.items():
            if name != 'sysadmin':
                ident.user(user, PASSWORD, role, project)
                users[name] = (user, PASSWORD, project)
        # ironic-lite's own service user, for keystonemiddleware.
        ident.user('ironic', PASSWORD, 'service', 'service')
        # The API services' user towards the conductors over JSON-RPC:
        # [json_rpc]allowed_roles is admin by default, as in Ironic.
        ident.user(RPC_USER, PASSWORD, 'admin', 'service')
        ks.clouds = keystone.clouds_yaml(
            os.path.join(directory, 'clouds.yaml'), ks, users)
        ks.projects = ident.projects
        yield ks


def authtoken_section(ks):
    return keystone.authtoken_section(ks, PASSWORD)


@pytest.fixture(scope='module')
def lite(cloud, tmp_path_factory):
    """ironic-lite (API + conductor) validating Keystone tokens."""
    directory = str(tmp_path_factory.mktemp('lite-keystone'))
    config = procs.write_config(os.path.join(directory, 'ironic.conf'), {
        'DEFAULT': {'auth_strategy': 'keystone',
                    'rbac_service_role_elevated_access': True,
                    'state_path': os.path.join(directory, 'state'),
                    'host': 'lite-keystone'},
        'api': {'host_ip': '127.0.0.1', 'port': cloud.lite_port},
        'conductor': {'heartbeat_interval': 1},
        'keystone_authtoken': authtoken_section(cloud),
    })
    service = procs.Service('ironic-lite', config, directory)
    service.base = 'http://127.0.0.1:%d' % cloud.lite_port
    procs.wait_http(service.base + '/v1', service)
    yield service
    service.terminate()
    assert service.stop() == 0, service.log()


def sdk(cloud, name):
    """An openstacksdk connection from clouds.yaml, by catalog."""
    from openstack import config as os_config
    from openstack import connection
    region = os_config.OpenStackConfig(
        config_files=[cloud.clouds]).get_one(cloud=name)
    return connection.Connection(config=region)


def cli(cloud, name, *args, expect_ok=True):
    """The ``baremetal`` CLI as ``name`` (clouds.yaml, by catalog)."""
    env = dict(os.environ, OS_CLIENT_CONFIG_FILE=cloud.clouds)
    for key in list(env):
        if key.startswith('OS_') and key != 'OS_CLIENT_CONFIG_FILE':
            del env[key]
    result = subprocess.run(
        [procs.command('baremetal'), '--os-cloud', name] + list(args),
        capture_output=True, text=True, env=env, timeout=timeouts.HANG)
    assert (result.returncode == 0) == expect_ok, (args, result.stdout,
                                                   result.stderr)
    return result.stdout if expect_ok else result.stderr


def test_tokens_are_required_except_on_public_routes(cloud, lite):
    assert procs.http('GET', lite.base + '/')[0] == 200
    assert procs.http('GET', lite.base + '/v1')[0] == 200
    status, headers, body = procs.http('GET', lite.base + '/v1/nodes')
    assert status == 401
    assert 'error_message' in body
    assert headers.get('WWW-Authenticate', '').startswith('Keystone uri=')
    status, _h, body = procs.http('GET', lite.base + '/v1/nodes',
                                  headers={'X-Auth-Token': 'bogus'})
    assert status == 401
    # Identity headers a client sends itself are not believed.
    status = procs.http('GET', lite.base + '/v1/nodes', headers={
        'X-Roles': 'admin', 'OpenStack-System-Scope': 'all'})[0]
    assert status == 401


def test_personas_by_catalog(cloud, lite):
    admin = sdk(cloud, 'sysadmin')
    owner_project = cloud.projects['proj-owner']
    lessee_project = cloud.projects['proj-lessee']
    node = admin.baremetal.create_node(
        driver='fake-hardware', name='kn-1', shard=SHARD,
        owner=owner_project, lessee=lessee_project, microversion='1.82')
    other = admin.baremetal.create_node(driver='fake-hardware', name='kn-2',
                                        microversion='1.82')
    # The system admin sets a shard and reads /v1/shards.
    admin.baremetal.patch_node(other, [
        {'op': 'add', 'path': '/shard', 'value': SHARD}])
    shards = admin.baremetal.get('/shards', microversion='1.82').json()
    assert shards == {'shards': [{'name': SHARD, 'count': 2}]}

    # The system reader lists by shard but may not set one.
    reader = sdk(cloud, 'sysreader')
    names = sorted(n.name for n in reader.baremetal.nodes(shard=SHARD))
    assert names == ['kn-1', 'kn-2']
    resp = reader.baremetal.patch(
        '/nodes/%s' % other.id, json=[
            {'op': 'replace', 'path': '/shard', 'value': 'x'}],
        microversion='1.82', raise_exc=False)
    assert resp.status_code == 403, resp.text

    # Nova's service user (service project, elevated access) sees its
    # shard, every node of it.
    nova = sdk(cloud, 'nova')
    assert nova.baremetal.get('/shards', microversion='1.82').json() == shards
    names = sorted(n.name for n in nova.baremetal.nodes(shard=SHARD))
    assert names == ['kn-1', 'kn-2']

    # Project members see what their project owns or leases, nothing else;
    # /v1/shards is for the system.
    for persona, expected in (('owner', ['kn-1']), ('lessee', ['kn-1']),
                              ('stranger', [])):
        conn = sdk(cloud, persona)
        assert [n.name for n in conn.baremetal.nodes()] == expected, persona
        resp = conn.baremetal.get('/shards', microversion='1.82',
                                  raise_exc=False)
        assert resp.status_code == 403, (persona, resp.text)
        resp = conn.baremetal.get('/nodes/%s' % other.id, raise_exc=False)
        assert resp.status_code == 404, (persona, resp.text)
    assert node.shard == SHARD


def test_consumer_sequence_as_nova(cloud, lite):
    """Release 3.0's consumer sequence (tests/functional/consumers.py) as
    Nova's service user, found by catalog: list the shard with Nova's
    fields, claim, traits, VIF, validate, boot device, deploy with a
    config drive, reboot, tear down; networking-baremetal's port read."""
    admin = sdk(cloud, 'sysadmin').baremetal
    consumers.enroll(admin, 'shard-nova-compute', '52:54:00:c0:00:0a',
                     'nova-node')
    nova = sdk(cloud, 'nova').baremetal
    # The driver policies are system-scoped (tests/unit/api/acl_matrix.yaml):
    # a project-scoped service user does not read /v1/drivers.
    consumers.compute_sdk(nova, 'shard-nova-compute', drivers=False)


@pytest.mark.long(35)
def test_baremetal_cli_by_catalog(cloud, lite):
    out = cli(cloud, 'sysadmin', 'node', 'create', '--driver',
              'fake-hardware', '--name', 'kn-cli', '--shard', 'shard-cli',
              '-f', 'value', '-c', 'uuid')
    uuid = out.strip()
    assert 'shard-cli' in cli(cloud, 'sysreader', 'shard', 'list',
                              '-f', 'value')
    err = cli(cloud, 'sysreader', 'node', 'set', uuid, '--shard', 'x',
              expect_ok=False)
    assert 'baremetal:node:update:shard' in err
    assert 'shard-cli' in cli(cloud, 'nova', 'shard', 'list', '-f', 'value')
    assert 'kn-cli' not in cli(cloud, 'owner', 'node', 'list', '-f', 'value',
                               '-c', 'name')
    err = cli(cloud, 'owner', 'shard', 'list', expect_ok=False)
    assert 'baremetal:shards:get' in err
    cli(cloud, 'sysadmin', 'node', 'delete', uuid)


@pytest.mark.backend
def test_api_and_conductor_processes(cloud, tmp_path, postgresql_url,
                                     rabbit_url):
    """ironic-api validates tokens; ironic-conductor needs no Keystone."""
    port = procs.free_port()
    common = {
        'DEFAULT': {'transport_url': rabbit_url, 'state_path': str(tmp_path),
                    'auth_strategy': 'keystone'},
        'database': {'connection': postgresql_url},
        'api': {'host_ip': '127.0.0.1', 'port': port},
        'conductor': {'heartbeat_interval': 1},
    }
    auth = {'X-Auth-Token': sdk(cloud, 'sysadmin').session.get_token()}
    with procs.api_and_conductor(
            tmp_path, common, 'api-k', 'conductor-k',
            api_sections={'keystone_authtoken': authtoken_section(cloud)},
            headers=auth) as split:
        base, conductor = split.base, split.conductor
        assert procs.http('GET', base + '/v1/nodes')[0] == 401
        status, _h, node = procs.http('POST', base + '/v1/nodes', {
            'driver': 'fake-hardware', 'shard': SHARD}, headers=auth)
        assert status == 201, node
        status, headers, body = procs.http(
            'PUT', '%s/v1/nodes/%s/states/provision' % (base, node['uuid']),
            {'target': 'manage'}, headers=auth)
        assert status == 202, body
        procs.wait_provision_state(base, node['uuid'], 'manageable',
                                   headers=auth)
        # The request id reached the conductor with the context.
        request_id = {k.lower(): v for k, v in headers.items()}[
            'x-openstack-request-id']
        procs.wait_for(lambda: request_id in conductor.log(),
                       what='request id in the conductor log')


def _json_rpc_section(cloud, port):
    """[json_rpc] as an Ironic deployment writes it: where the conductor
    listens, and keystoneauth's options; no auth_strategy (the
    [DEFAULT] one applies)."""
    return {'host_ip': '127.0.0.1', 'port': port, 'auth_type': 'password',
            'auth_url': cloud.url, 'username': RPC_USER,
            'password': PASSWORD, 'project_name': 'service',
            'user_domain_name': 'Default', 'project_domain_name': 'Default'}


def _power_off(port, node, token=None):
    """A power-off call sent to the conductor straight, as the API would
    send it, with ``token`` or none."""
    headers = {'X-Auth-Token': token} if token else {}
    return procs.http('POST', 'http://127.0.0.1:%d/' % port, {
        'jsonrpc': '2.0', 'id': 'req-direct',
        'method': 'change_node_power_state',
        'params': {'context': {'request_id': 'req-direct'}, 'node_id': node,
                   'new_state': 'power off', 'rpc.version': '1.0'}},
        version=None, headers=headers)


@pytest.mark.backend
def test_json_rpc_with_keystone_tokens(cloud, tmp_path, postgresql_url):
    """ironic-api and ironic-conductor over JSON-RPC, each call carrying
    the API's token, which the conductor validates with Keystone; a call
    without a token, or with one lacking the admin role, runs nothing."""
    port, rpc_port = procs.free_port(), procs.free_port()
    common = {
        'DEFAULT': {'rpc_transport': 'json-rpc', 'auth_strategy': 'keystone',
                    'state_path': str(tmp_path)},
        'database': {'connection': postgresql_url},
        'api': {'host_ip': '127.0.0.1', 'port': port},
        'conductor': {'heartbeat_interval': 1},
        'keystone_authtoken': authtoken_section(cloud),
        'json_rpc': _json_rpc_section(cloud, rpc_port),
    }
    auth = {'X-Auth-Token': sdk(cloud, 'sysadmin').session.get_token()}
    # The conductor's host is its address (the API connects to it).
    with procs.api_and_conductor(tmp_path, common, 'api-j', '127.0.0.1',
                                 headers=auth) as split:
        base, conductor = split.base, split.conductor
        status, _h, node = procs.http('POST', base + '/v1/nodes', {
            'driver': 'fake-hardware'}, headers=auth)
        assert status == 201, node
        node_url = '%s/v1/nodes/%s' % (base, node['uuid'])
        status, _h, body = procs.http('PUT', node_url + '/states/power',
                                      {'target': 'power on'}, headers=auth)
        assert status == 202, body
        procs.wait_power_state(base, node['uuid'], 'power on', headers=auth)

        member = sdk(cloud, 'owner').session.get_token()
        for token, code in ((None, 401), ('not-a-token', 401),
                            (member, 403)):
            status, _h, body = _power_off(rpc_port, node['uuid'], token)
            assert (status, body['error']['code']) == (code, code), body
            assert 'result' not in body
        status, _h, body = procs.http('GET', node_url, headers=auth)
        assert (body['power_state'], body['target_power_state']) == (
            'power on', None), body
        assert 'req-direct' not in conductor.log()
        # The same call with an admin's token is carried out.
        status, _h, body = _power_off(rpc_port, node['uuid'],
                                      auth['X-Auth-Token'])
        assert (status, body.get('error')) == (200, None), body
        procs.wait_power_state(base, node['uuid'], 'power off',
                               headers=auth)
        for service in (split.api, conductor):
            assert 'does not implement' not in service.log()
