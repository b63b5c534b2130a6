"""Shards (1.82) with the unmodified ``baremetal`` CLI against a running
ironic-lite (noauth; the CLI with ``http_basic`` is in test_baremetal_cli.py,
the shard policies with real tokens in test_keystone_acl.py): create in a
shard, set, unset, list by shard, count, and the port groups of a shard.

The nodes, ports and groups the lists select from are made over plain HTTP
(each CLI command is a process of about a second).  python-ironicclient has
no ``port list --shard``; the ports of a shard are read over plain HTTP
(``GET /v1/ports?shard=``), as networking-baremetal does.  This module's
service holds only this test's nodes: the counts are exact.
"""

import pytest

from tests.functional import procs

MACS = {'r1-a': '52:54:00:aa:00:01', 'r2-a': '52:54:00:aa:00:02',
        'loose': '52:54:00:aa:00:03'}


def _create_node(service, name, shard=None):
    body = {'driver': 'fake-hardware', 'name': name}
    if shard:
        body['shard'] = shard
    status, _, node = procs.api(service, 'POST', '/v1/nodes', body)
    assert status == 201, node
    return node['uuid']


def _create_port_and_group(service, node_uuid, name, mac):
    status, _, body = procs.api(service, 'POST', '/v1/ports', {
        'address': mac, 'node_uuid': node_uuid})
    assert status == 201, body
    status, _, body = procs.api(service, 'POST', '/v1/portgroups', {
        'node_uuid': node_uuid, 'name': 'bond-' + name})
    assert status == 201, body


def _shard_of(service, name):
    status, _, body = procs.api(service, 'GET', '/v1/nodes/%s' % name)
    assert status == 200, body
    return body['shard']


@pytest.mark.long(55)
def test_shards_with_cli(lite_noauth, cli_env):
    lite_api = lite_noauth

    def bm(*args, **kwargs):
        return procs.baremetal(lite_api, cli_env, *args, **kwargs)

    uuids = {'r1-a': _create_node(lite_api, 'r1-a', 'rack-1'),
             'r1-b': _create_node(lite_api, 'r1-b', 'rack-1'),
             'loose': _create_node(lite_api, 'loose'),
             'tmp': _create_node(lite_api, 'tmp', 'rack-2')}
    node = bm('node', 'create', '--driver', 'fake-hardware',
              '--name', 'r2-a', '--shard', 'rack-1')
    assert node['shard'] == 'rack-1'
    uuids['r2-a'] = node['uuid']

    # Move a node to another shard, and take one out of any shard.
    bm('node', 'set', 'r2-a', '--shard', 'rack-2', expect_json=False)
    assert _shard_of(lite_api, 'r2-a') == 'rack-2'
    bm('node', 'unset', 'tmp', '--shard', expect_json=False)
    assert _shard_of(lite_api, 'tmp') is None

    shards = bm('shard', 'list')
    # Biggest first (the two shards of 2 nodes tie).
    assert [r['count'] for r in shards] == [2, 2, 1]
    assert sorted((r['name'], r['count']) for r in shards) == [
        ('None', 2), ('rack-1', 2), ('rack-2', 1)]

    def names(*args):
        return sorted(n['name'] for n in bm('node', 'list', *args))

    assert names('--shards', 'rack-1') == ['r1-a', 'r1-b']
    assert names('--shards', 'rack-1', 'rack-2') == ['r1-a', 'r1-b', 'r2-a']
    # The name "shard list" gives the unsharded nodes selects them.
    assert names('--shards', 'None') == ['loose', 'tmp']
    assert names('--unsharded') == ['loose', 'tmp']
    assert names('--sharded') == ['r1-a', 'r1-b', 'r2-a']
    # --long reads /v1/nodes/detail (this client has no shard column).
    long_list = bm('node', 'list', '--long', '--shards', 'rack-2')
    assert [(n['name'], n['uuid']) for n in long_list] == [
        ('r2-a', uuids['r2-a'])]

    # Port groups of a shard (and ports, over HTTP).
    for name, mac in MACS.items():
        _create_port_and_group(lite_api, uuids[name], name, mac)
    groups = bm('port', 'group', 'list', '--shards', 'rack-1')
    assert [g['name'] for g in groups] == ['bond-r1-a']
    groups = bm('port', 'group', 'list', '--shards', 'rack-2', 'None')
    assert sorted(g['name'] for g in groups) == ['bond-loose', 'bond-r2-a']

    status, _, body = procs.api(lite_api, 'GET',
                                '/v1/ports?shard=rack-1,rack-2')
    assert status == 200, body
    assert sorted(p['address'] for p in body['ports']) == [
        MACS['r1-a'], MACS['r2-a']]
    # As Ironic: a shard and a node are alternatives on a port list.
    status, _, body = procs.api(
        lite_api, 'GET', '/v1/ports?shard=rack-1&node=' + uuids['r2-a'])
    assert status == 403, body

    # Bad values are refused with a clear message, and nothing changes.
    err = bm('node', 'set', 'loose', '--shard', 'None', expect_ok=False)
    assert 'select unsharded nodes' in err
    assert _shard_of(lite_api, 'loose') is None
