"""Shards (1.82) with the unmodified ``baremetal`` CLI against a running
ironic-lite: set, list by shard, count, and the ports and port groups of a
shard.

python-ironicclient has no ``port list --shard``; the ports of a shard are
read over plain HTTP (``GET /v1/ports?shard=``), as networking-baremetal
does.
"""

from tests.functional import procs


def _baremetal_fails(service, env, *args):
    return procs.baremetal(service, env, *args, expect_ok=False)


def test_shards_with_cli(lite_service, cli_env):
    def bm(*args, **kwargs):
        return procs.baremetal(lite_service, cli_env, *args, **kwargs)

    uuids = {}
    for name, shard in (('r1-a', 'rack-1'), ('r1-b', 'rack-1'),
                        ('r2-a', 'rack-2'), ('loose', None)):
        args = ['node', 'create', '--driver', 'fake-hardware',
                '--name', name]
        if shard:
            args += ['--shard', shard]
        node = bm(*args)
        assert node['shard'] == shard
        uuids[name] = node['uuid']

    # Move a node between shards, and take one out of any shard.
    bm('node', 'set', 'r2-a', '--shard', 'rack-1', expect_json=False)
    assert bm('node', 'show', 'r2-a')['shard'] == 'rack-1'
    bm('node', 'set', 'r2-a', '--shard', 'rack-2', expect_json=False)
    bm('node', 'create', '--driver', 'fake-hardware', '--name', 'tmp',
       '--shard', 'rack-2')
    bm('node', 'unset', 'tmp', '--shard', expect_json=False)
    assert bm('node', 'show', 'tmp')['shard'] is None
    uuids['tmp'] = bm('node', 'show', 'tmp')['uuid']

    shards = bm('shard', 'list')
    assert sorted((r['name'], r['count']) for r in shards) == [
        ('None', 2), ('rack-1', 2), ('rack-2', 1)]
    # Biggest first (the two shards of 2 nodes tie).
    assert [r['count'] for r in shards] == [2, 2, 1]

    def names(*args):
        return sorted(n['name'] for n in bm('node', 'list', *args))

    assert names('--shards', 'rack-1') == ['r1-a', 'r1-b']
    assert names('--shards', 'rack-1', 'rack-2') == ['r1-a', 'r1-b', 'r2-a']
    assert names('--shards', 'RACK-1') == []
    assert names('--unsharded') == ['loose', 'tmp']
    assert names('--sharded') == ['r1-a', 'r1-b', 'r2-a']
    # Every name "shard list" shows selects its nodes, "None" included.
    for row in shards:
        assert len(names('--shards', row['name'])) == row['count'], row
    # --long reads /v1/nodes/detail (this client has no shard column).
    long_list = bm('node', 'list', '--long', '--shards', 'rack-2')
    assert [n['name'] for n in long_list] == ['r2-a']
    assert bm('node', 'show', 'r2-a')['shard'] == 'rack-2'

    # Ports and port groups of a shard.
    macs = {'r1-a': '52:54:00:aa:00:01', 'r2-a': '52:54:00:aa:00:02',
            'loose': '52:54:00:aa:00:03'}
    for name, mac in macs.items():
        bm('port', 'create', mac, '--node', uuids[name])
        bm('port', 'group', 'create', '--node', uuids[name],
           '--name', 'bond-' + name)
    groups = bm('port', 'group', 'list', '--shards', 'rack-1')
    assert [g['name'] for g in groups] == ['bond-r1-a']
    groups = bm('port', 'group', 'list', '--shards', 'rack-2', 'None')
    assert sorted(g['name'] for g in groups) == ['bond-loose', 'bond-r2-a']

    status, _, body = procs.http(
        'GET', lite_service.base + '/v1/ports?shard=rack-1,rack-2',
        version='1.82')
    assert status == 200, body
    assert sorted(p['address'] for p in body['ports']) == [
        macs['r1-a'], macs['r2-a']]
    status, _, body = procs.http(
        'GET', lite_service.base + '/v1/ports?shard=rack-1&node='
        + uuids['r2-a'], version='1.82')
    assert (status, body['ports']) == (200, [])

    # Bad values are refused with a clear message, and nothing changes.
    err = _baremetal_fails(lite_service, cli_env, 'node', 'set', 'loose',
                           '--shard', 'None')
    assert 'select unsharded nodes' in err
    assert bm('node', 'show', 'loose')['shard'] is None
