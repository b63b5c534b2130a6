"""The hold clean step and ``node unhold`` (1.85) with the unmodified
``baremetal`` CLI against a running ironic-lite (noauth): a manual
cleaning of [step, hold, step] stops in ``clean hold`` after the first
step, and ``unhold`` runs the last one and ends in ``manageable``."""

import json

import pytest

from tests.functional import procs


@pytest.mark.long(30)
def test_clean_hold_and_unhold_with_cli(lite_noauth, cli_env):
    def bm(*args, **kwargs):
        return procs.baremetal(lite_noauth, cli_env, *args, **kwargs)

    def node():
        status, _, body = procs.api(lite_noauth, 'GET',
                                    '/v1/nodes/cli-held')
        assert status == 200, body
        return body

    bm('node', 'create', '--driver', 'fake-hardware', '--name', 'cli-held',
       '--vendor-interface', 'fake')
    bm('node', 'manage', 'cli-held', '--wait', '60', expect_json=False)
    steps = [{'interface': 'vendor', 'step': 'log_passthrough'},
             {'interface': 'deploy', 'step': 'hold'},
             {'interface': 'vendor', 'step': 'log_passthrough',
              'args': {}}]
    bm('node', 'clean', 'cli-held', '--clean-steps', json.dumps(steps),
       expect_json=False)
    # A hold state keeps its target (unlike wait_provision_state's).
    held = procs.wait_for(
        lambda: (lambda n: n if n['provision_state'] == 'clean hold'
                 and n['reservation'] is None else None)(node()),
        what='cli-held in clean hold')
    assert held['clean_step']['step'] == 'hold'
    assert held['target_provision_state'] == 'manageable'
    assert held['driver_internal_info']['fake_clean_steps_run'] == [
        'vendor.log_passthrough']

    bm('node', 'unhold', 'cli-held', expect_json=False)
    procs.wait_provision_state(lite_noauth.base, 'cli-held', 'manageable')
    done = node()
    assert done['target_provision_state'] is None
    assert done['driver_internal_info']['fake_clean_steps_run'] == [
        'vendor.log_passthrough', 'vendor.log_passthrough']
    err = bm('node', 'unhold', 'cli-held', expect_ok=False)
    assert 'unhold' in err and 'manageable' in err
