"""Runbooks (1.92, traits 1.112) with the unmodified ``baremetal`` CLI
against a running ironic-lite (noauth): create, list, show, set, traits,
then ``node clean --runbook`` runs the runbook's steps (the CLI speaks
1.115: the node needs one of the runbook's traits)."""

import json

import pytest

from tests.functional import procs

STEPS = [{'interface': 'vendor', 'step': 'log_passthrough', 'args': {},
          'order': 1},
         {'interface': 'bios', 'step': 'factory_reset', 'args': {},
          'order': 2}]


@pytest.mark.long(30)
def test_runbooks_with_cli(lite_noauth, cli_env):
    def bm(*args, **kwargs):
        return procs.baremetal(lite_noauth, cli_env, *args, **kwargs)

    created = bm('runbook', 'create', '--name', 'cli-wipe', '--steps',
                 json.dumps(STEPS[:1]), '--description', 'one step')
    assert (created['name'], created['description'], created['traits']) == (
        'cli-wipe', 'one step', [])
    assert [r['name'] for r in bm('runbook', 'list')] == ['cli-wipe']
    bm('runbook', 'set', 'cli-wipe', '--extra', 'team=a', '--steps',
       json.dumps(STEPS), expect_json=False)
    shown = bm('runbook', 'show', 'cli-wipe')
    assert shown['extra'] == {'team': 'a'}
    assert shown['steps'] == STEPS
    bm('runbook', 'trait', 'add', 'cli-wipe', 'CUSTOM_WIPE', 'CUSTOM_X',
       expect_json=False)
    bm('runbook', 'trait', 'remove', 'cli-wipe', 'CUSTOM_X',
       expect_json=False)
    assert [t['traits'] for t in bm('runbook', 'trait', 'list',
                                    'cli-wipe')] == ['CUSTOM_WIPE']

    bm('node', 'create', '--driver', 'fake-hardware', '--name', 'cli-rb',
       '--vendor-interface', 'fake', '--bios-interface', 'fake')
    bm('node', 'manage', 'cli-rb', '--wait', '60', expect_json=False)
    err = bm('node', 'clean', 'cli-rb', '--runbook', 'cli-wipe',
             expect_ok=False)
    assert "does not have any of the runbook's traits" in err
    bm('node', 'add', 'trait', 'cli-rb', 'CUSTOM_WIPE', expect_json=False)
    bm('node', 'clean', 'cli-rb', '--runbook', 'cli-wipe', '--wait', '60',
       expect_json=False)
    status, _, node = procs.api(lite_noauth, 'GET', '/v1/nodes/cli-rb')
    assert status == 200, node
    assert node['provision_state'] == 'manageable'
    assert node['driver_internal_info']['fake_clean_steps_run'] == [
        'vendor.log_passthrough', 'bios.factory_reset']
    bm('runbook', 'delete', 'cli-wipe', expect_json=False)
    assert bm('runbook', 'list') == []
