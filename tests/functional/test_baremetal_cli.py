"""The unmodified ``baremetal`` CLI (python-ironicclient) against ironic-lite."""

from tests.functional import procs


def test_node_port_portgroup_lifecycle_with_cli(lite_service, cli_env):
    def bm(*args, **kwargs):
        return procs.baremetal(lite_service, cli_env, *args, **kwargs)

    node = bm('node', 'create', '--driver', 'fake-hardware',
              '--name', 'cli-node', '--property', 'cpus=4')
    assert node['name'] == 'cli-node'
    assert node['provision_state'] == 'enroll'
    uuid = node['uuid']

    listed = bm('node', 'list')
    assert [n['uuid'] for n in listed] == [uuid]

    bm('node', 'set', 'cli-node', '--extra', 'rack=r1', '--property',
       'memory_mb=1024', expect_json=False)
    shown = bm('node', 'show', 'cli-node')
    assert shown['extra'] == {'rack': 'r1'}
    assert shown['properties'] == {'cpus': 4, 'memory_mb': 1024}
    bm('node', 'unset', 'cli-node', '--property', 'cpus',
       expect_json=False)
    assert bm('node', 'show', uuid)['properties'] == {'memory_mb': 1024}

    bm('node', 'power', 'on', 'cli-node', expect_json=False)
    procs.wait_for(lambda: bm('node', 'show', uuid)['power_state']
                   == 'power on', what='power on')
    bm('node', 'power', 'off', 'cli-node', expect_json=False)
    procs.wait_for(lambda: bm('node', 'show', uuid)['power_state']
                   == 'power off', what='power off')

    port = bm('port', 'create', '52:54:00:cc:dd:01', '--node', uuid)
    assert port['address'] == '52:54:00:cc:dd:01'
    assert [p['address'] for p in bm('port', 'list')] == [
        '52:54:00:cc:dd:01']

    portgroup = bm('port', 'group', 'create', '--node', uuid, '--name', 'bond0',
                   '--address', '52:54:00:cc:dd:02')
    assert portgroup['name'] == 'bond0'
    assert [p['name'] for p in bm('port', 'group', 'list')] == ['bond0']

    for verb, state in (('manage', 'manageable'), ('provide', 'available'),
                        ('deploy', 'active'), ('undeploy', 'available')):
        bm('node', verb, 'cli-node', '--wait', '60', expect_json=False)
        assert bm('node', 'show', uuid)['provision_state'] == state, verb
