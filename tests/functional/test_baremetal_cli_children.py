"""Child nodes (1.83) with the unmodified ``baremetal`` CLI against a
running ironic-lite (noauth): a child created under its parent's name,
left out of ``node list`` unless asked for, listed by
``node children list``, and made top-level again with ``node unset``."""

import pytest

from tests.functional import procs


@pytest.mark.long(30)
def test_child_nodes_with_cli(lite_noauth, cli_env):
    def bm(*args, **kwargs):
        return procs.baremetal(lite_noauth, cli_env, *args, **kwargs)

    parent = bm('node', 'create', '--driver', 'fake-hardware',
                '--name', 'cli-parent')
    child = bm('node', 'create', '--driver', 'fake-hardware',
               '--name', 'cli-child', '--parent-node', 'cli-parent')
    assert child['parent_node'] == parent['uuid']

    def names(*args):
        return sorted(n['name'] for n in bm('node', 'list', *args))

    assert 'cli-child' not in names()
    assert {'cli-parent', 'cli-child'} <= set(names('--include-children'))
    assert names('--parent-node', parent['uuid']) == ['cli-child']
    children = bm('node', 'children', 'list', 'cli-parent')
    # This client prints the UUIDs under Ironic's key.
    assert children == {'children': [child['uuid']]}

    err = bm('node', 'set', 'cli-parent', '--parent-node', 'no-such-node',
             expect_ok=False)
    assert ("Unable to apply the requested parent_node 'no-such-node'"
            in err)
    bm('node', 'unset', 'cli-child', '--parent-node', expect_json=False)
    status, _, body = procs.api(lite_noauth, 'GET', '/v1/nodes/cli-child')
    assert status == 200, body
    assert body['parent_node'] is None
    assert 'cli-child' in names()
