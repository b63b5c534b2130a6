"""The port fields of 1.88-1.101 with the unmodified ``baremetal`` CLI
(python-ironicclient, which asks for the server's newest microversion)
and openstacksdk (ports at 1.101) against a running ironic-lite (noauth):
a port created with a name, a description, a vendor and a category,
found by its name, renamed."""

from openstack import connection
import pytest

from tests.functional import procs

MAC = '52:54:00:88:00:01'
SDK_MAC = '52:54:00:88:00:02'


@pytest.mark.long(25)
def test_port_fields_with_cli_and_sdk(lite_noauth, cli_env):
    def bm(*args, **kwargs):
        return procs.baremetal(lite_noauth, cli_env, *args, **kwargs)

    node = bm('node', 'create', '--driver', 'fake-hardware', '--name',
              'cli-ports')
    port = bm('port', 'create', '--node', node['uuid'], '--name', 'eth0',
              '--description', 'uplink', '--vendor', 'acme', '--category',
              'storage', MAC)
    assert (port['name'], port['vendor'], port['category']) == (
        'eth0', 'acme', 'storage')
    # The client sends a description but does not print one.
    status, _, body = procs.api(lite_noauth, 'GET', '/v1/ports/eth0')
    assert status == 200 and body['description'] == 'uplink', body
    shown = bm('port', 'show', 'eth0')
    assert shown['uuid'] == port['uuid'] and shown['address'] == MAC
    bm('port', 'set', 'eth0', '--name', 'eth1', expect_json=False)
    listed = bm('port', 'list', '--node', 'cli-ports', '--fields', 'uuid',
                'name')
    assert [p['name'] for p in listed] == ['eth1'], listed
    # A second port of that name is the 409 the CLI reports.
    err = bm('port', 'create', '--node', node['uuid'], '--name', 'eth1',
             SDK_MAC, expect_ok=False)
    assert 'A port with name eth1 already exists' in err

    sdk = connection.Connection(auth_type='none',
                                auth={'endpoint': lite_noauth.base})
    made = sdk.baremetal.create_port(node_id=node['uuid'], address=SDK_MAC,
                                     name='eth2', vendor='acme',
                                     category='boot')
    assert (made.name, made.vendor, made.category) == ('eth2', 'acme',
                                                       'boot')
    found = sdk.baremetal.get_port('eth2')
    assert found.id == made.id and found.description is None
    sdk.baremetal.update_port(made, description='pxe')
    assert sdk.baremetal.get_port(made.id).description == 'pxe'
