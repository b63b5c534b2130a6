"""RAID, vendor passthru and driver properties (release 5.0) with the
unmodified ``baremetal`` CLI and openstacksdk against the embedded
ironic-lite (noauth): an operator sets a target RAID configuration,
applies it with a manual cleaning and reads ``raid_config``; lists and
calls vendor methods; lists a driver's properties."""

import json

from openstack import connection
import pytest

from tests.functional import procs

RAID = {'logical_disks': [{'size_gb': 100, 'raid_level': '1',
                           'is_root_volume': True}]}


def _cli(service, env):
    def bm(*args, **kwargs):
        return procs.baremetal(service, env, *args, **kwargs)
    return bm


def _column(rows, name):
    """The values of a column of a ``-f json`` listing (keys as the CLI
    words them, compared without case)."""
    return {v for row in rows for k, v in row.items() if k.lower() == name}


def _wait_manageable(service, uuid):
    procs.wait_provision_state(service.base, uuid, 'manageable',
                               headers=service.credentials.headers())


@pytest.mark.long(40)
def test_raid_config_applied_by_manual_cleaning(lite_noauth, cli_env):
    bm = _cli(lite_noauth, cli_env)
    node = bm('node', 'create', '--driver', 'fake-hardware')
    uuid = node['uuid']
    assert node['raid_interface'] == 'fake'
    bm('node', 'set', uuid, '--target-raid-config', json.dumps(RAID),
       expect_json=False)
    assert bm('node', 'show', uuid)['target_raid_config'] == RAID
    bm('node', 'manage', uuid, '--wait', '60', expect_json=False)
    bm('node', 'clean', uuid, '--clean-steps', json.dumps(
        [{'interface': 'raid', 'step': 'create_configuration'}]),
       expect_json=False)
    _wait_manageable(lite_noauth, uuid)
    shown = bm('node', 'show', uuid)
    assert shown['raid_config']['logical_disks'] == RAID['logical_disks']
    assert shown['properties']['local_gb'] == 100
    error = bm('node', 'set', uuid, '--target-raid-config',
               '{"logical_disks": []}', expect_ok=False)
    assert 'RAID config validation error' in error
    props = bm('driver', 'raid', 'property', 'list', 'fake-hardware')
    assert 'size_gb' in _column(props, 'property')


@pytest.mark.long(30)
def test_vendor_passthru_and_driver_properties(lite_noauth, cli_env):
    bm = _cli(lite_noauth, cli_env)
    uuid = bm('node', 'create', '--driver', 'fake-hardware')['uuid']
    methods = bm('node', 'passthru', 'list', uuid)
    assert 'third_method_sync' in _column(methods, 'name')
    # An asynchronous method: 202, nothing to print (the CLI shows a
    # synchronous method's value only when it is an object).
    assert bm('node', 'passthru', 'call', uuid, 'second_method', '--arg',
              'bar=kazoo', expect_json=False) == ''
    sdk = connection.Connection(auth_type='none',
                                auth={'endpoint': lite_noauth.base}).baremetal
    resp = sdk.call_node_vendor_passthru(uuid, 'POST', 'third_method_sync',
                                         {'bar': 'meow'})
    assert (resp.status_code, resp.json()) == (200, True)
    assert sdk.list_driver_vendor_passthru('fake-hardware') == {}
    props = bm('driver', 'property', 'list', 'fake-hardware')
    assert _column(props, 'property') == {'B1', 'B2'}
