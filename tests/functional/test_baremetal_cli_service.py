"""Servicing (1.87, 1.108) with the unmodified ``baremetal`` CLI and
openstacksdk against a running ironic-lite (noauth): an active node is
serviced with [step, hold, step], stops in ``service hold`` after the
first step, ``unhold`` runs the last one and it is ``active`` again; a
servicing with ``--disable-ramdisk`` runs a step that needs no ramdisk;
openstacksdk's ``Node.set_provision_state(..., 'service',
service_steps=...)`` is served, the node active again after it."""

import json

from openstack import connection
import pytest

from tests.functional import procs
from tests import timeouts

LOG = {'interface': 'vendor', 'step': 'log_passthrough'}


@pytest.mark.long(60)
def test_service_hold_unhold_and_disable_ramdisk_with_cli(lite_noauth,
                                                          cli_env):
    def bm(*args, **kwargs):
        return procs.baremetal(lite_noauth, cli_env, *args, **kwargs)

    def node():
        status, _, body = procs.api(lite_noauth, 'GET',
                                    '/v1/nodes/cli-serviced')
        assert status == 200, body
        return body

    bm('node', 'create', '--driver', 'fake-hardware', '--name',
       'cli-serviced', '--vendor-interface', 'fake')
    for verb in ('manage', 'provide', 'deploy'):
        bm('node', verb, 'cli-serviced', '--wait', '60', expect_json=False)
    steps = [LOG, {'interface': 'deploy', 'step': 'hold'}, LOG]
    bm('node', 'service', 'cli-serviced', '--service-steps',
       json.dumps(steps), expect_json=False)
    held = procs.wait_for(
        lambda: (lambda n: n if n['provision_state'] == 'service hold'
                 and n['reservation'] is None else None)(node()),
        what='cli-serviced in service hold')
    assert held['service_step']['step'] == 'hold'
    assert held['target_provision_state'] == 'active'
    assert held['driver_internal_info']['fake_service_steps_run'] == [
        'vendor.log_passthrough']

    bm('node', 'unhold', 'cli-serviced', expect_json=False)
    procs.wait_provision_state(lite_noauth.base, 'cli-serviced', 'active')
    done = node()
    assert done['target_provision_state'] is None
    assert not done['service_step']
    assert done['driver_internal_info']['fake_service_steps_run'] == [
        'vendor.log_passthrough', 'vendor.log_passthrough']

    bm('node', 'service', 'cli-serviced', '--service-steps',
       json.dumps([LOG]), '--disable-ramdisk', '--wait', '60',
       expect_json=False)
    done = node()
    assert done['provision_state'] == 'active'
    assert done['driver_internal_info']['fake_service_steps_run'] == [
        'vendor.log_passthrough']

    # A node that is not active cannot be serviced (Ironic's 400).
    bm('node', 'create', '--driver', 'fake-hardware', '--name', 'cli-idle')
    err = bm('node', 'service', 'cli-idle', '--service-steps',
             json.dumps([LOG]), expect_ok=False)
    assert 'service' in err and 'enroll' in err


@pytest.mark.long(60)
def test_service_with_openstacksdk(lite_noauth):
    sdk = connection.Connection(
        auth_type='none', auth={'endpoint': lite_noauth.base}).baremetal
    node = sdk.create_node(driver='fake-hardware', name='sdk-serviced',
                           vendor_interface='fake')
    for verb in ('manage', 'provide', 'active'):
        sdk.set_node_provision_state(node, verb, wait=True,
                                     timeout=timeouts.HANG)
    # The proxy's set_node_provision_state passes no service_steps: the
    # Node resource's own method does (it cannot wait: openstacksdk knows
    # no state that "service" ends in).
    node = sdk.get_node(node.id).set_provision_state(
        sdk, 'service', service_steps=[LOG])
    assert node.provision_state in ('servicing', 'active')
    node, = sdk.wait_for_nodes_provision_state([node.id], 'active',
                                               timeout=timeouts.HANG)
    node = sdk.get_node(node.id)
    assert node.driver_internal_info['fake_service_steps_run'] == [
        'vendor.log_passthrough']
