"""The shard consumers' calls, as nova-compute's ironic driver and
networking-baremetal make them through openstacksdk, and the same steps
through the ``baremetal`` CLI.  Used by the functional tests against
``ironic-lite`` and against separate processes."""

import uuid as uuidlib

from openstack import connection

from tests.functional import procs
from tests import timeouts

# What nova's ironic driver asks a node list for (_NODE_FIELDS).
NOVA_FIELDS = ('uuid', 'power_state', 'target_power_state',
               'provision_state', 'target_provision_state', 'last_error',
               'maintenance', 'properties', 'instance_uuid', 'traits',
               'resource_class', 'owner', 'lessee')
LLC = {'switch_id': '0a:1b:2c:3d:4e:5f', 'port_id': 'Ethernet1/1',
       'switch_info': 'tor-1'}


def connect(service):
    credentials = service.credentials
    auth = {'endpoint': service.base}
    if credentials.username:
        auth.update(username=credentials.username,
                    password=credentials.password)
    return connection.Connection(auth_type=credentials.auth_type, auth=auth)


def enroll(bm, shard, mac, name):
    """An available node of ``shard`` with one port on a physnet."""
    node = bm.create_node(driver='fake-hardware', name=name, shard=shard,
                          network_interface='flat',
                          resource_class='baremetal')
    bm.create_port(node_id=node.id, address=mac, physical_network='physnet1',
                   local_link_connection=LLC, pxe_enabled=True)
    for verb in ('manage', 'provide'):
        bm.set_node_provision_state(node, verb, wait=True,
                                    timeout=timeouts.HANG)
    return node


def compute_sdk(bm, shard, drivers=True):
    """One compute's life with one instance on its shard (SDK calls).

    ``drivers``: also read /v1/drivers (its policies are system-scoped,
    see tests/unit/api/acl_matrix.yaml).
    """
    if drivers:
        assert 'fake-hardware' in [d.name for d in bm.drivers()]
        assert bm.get_driver('fake-hardware').hosts
    nodes = list(bm.nodes(shard=shard, fields=NOVA_FIELDS))
    assert len(nodes) == 1
    node = nodes[0]
    # networking-baremetal's read of its shard's ports.
    ports = list(bm.ports(details=True, shard=shard))
    assert [(p.physical_network, p.local_link_connection) for p in ports] \
        == [('physnet1', LLC)]
    # Its agent's read with [conductor_groups] set (the SDK repeats the
    # parameter per group); the node is in the default group "", which a
    # filter cannot name.
    assert list(bm.ports(details=True,
                         conductor_groups=['rack-x', 'rack-y'])) == []
    assert len(list(bm.ports(details=True, conductor_groups=[]))) >= 1

    instance = str(uuidlib.uuid4())
    bm.patch_node(node, [
        {'op': 'add', 'path': '/instance_uuid', 'value': instance},
        {'op': 'add', 'path': '/instance_info',
         'value': {'image_source': 'http://images/i.qcow2',
                   'root_gb': 10}}])
    # Another compute's claim: 409 (the SDK's patch_node would retry a 409
    # five times, as for a locked node, so ask once through its session).
    other = bm.patch('/nodes/%s' % node.id, microversion='1.82',
                     json=[{'op': 'add', 'path': '/instance_uuid',
                            'value': str(uuidlib.uuid4())}],
                     raise_exc=False, retriable_status_codes=[])
    assert other.status_code == 409, other.text
    assert bm.get_node(node.id).instance_id == instance
    bm.set_node_traits(node, ['CUSTOM_GOLD', 'HW_CPU_X86_AVX2'])
    bm.add_node_trait(node, 'CUSTOM_SILVER')
    bm.remove_node_trait(node, 'CUSTOM_SILVER')
    bm.validate_node(node, required=('boot', 'deploy', 'power'))
    vif = str(uuidlib.uuid4())
    bm.attach_vif_to_node(node, vif)
    assert bm.list_node_vifs(node) == [vif]
    bm.set_node_boot_device(node, 'pxe', persistent=False)
    assert bm.get_node_boot_device(node)['boot_device'] == 'pxe'
    assert bm.get_node_supported_boot_devices(node) == {
        'supported_boot_devices': ['pxe', 'disk']}
    bm.set_node_provision_state(node, 'active', config_drive='H4sI',
                                wait=True, timeout=timeouts.HANG)
    shown = bm.get_node(node.id)
    # Stored for the deploy (shown masked, as Ironic does).
    assert shown.instance_info.get('configdrive') == '******'
    bm.set_node_power_state(node, 'rebooting', wait=True,
                            timeout=timeouts.HANG)
    assert sorted(bm.get_node(node.id).traits) == ['CUSTOM_GOLD',
                                                   'HW_CPU_X86_AVX2']
    assert bm.list_node_vifs(node) == [vif]
    bm.set_node_provision_state(node, 'deleted', wait=True,
                                timeout=timeouts.HANG)
    bm.wait_for_nodes_provision_state([node], 'available',
                                      timeout=timeouts.HANG)
    bm.detach_vif_from_node(node, vif)
    bm.patch_node(node, [{'op': 'remove', 'path': '/instance_uuid'},
                         {'op': 'remove', 'path': '/instance_info'}])
    final = bm.get_node(node.id)
    assert final.instance_id is None
    assert sorted(final.traits) == ['CUSTOM_GOLD', 'HW_CPU_X86_AVX2']
    assert bm.list_node_vifs(node) == []
    return node


def compute_cli(service, env, node_name):
    """The same steps with the ``baremetal`` CLI."""
    run = lambda *a, **kw: procs.baremetal(service, env, *a, **kw)  # noqa
    drivers = run('driver', 'list')
    assert [list(d.values())[0] for d in drivers] == ['fake-hardware'], \
        drivers
    assert run('driver', 'show', 'fake-hardware')['name'] == 'fake-hardware'
    rows = run('node', 'validate', node_name)
    validate = {r['Interface']: r['Result'] for r in rows}
    assert validate['power'] and validate['deploy'] and validate['boot'], \
        rows
    run('node', 'add', 'trait', node_name, 'CUSTOM_CLI', 'CUSTOM_TWO',
        expect_json=False)
    run('node', 'remove', 'trait', node_name, 'CUSTOM_TWO',
        expect_json=False)
    traits = run('node', 'trait', 'list', node_name)
    assert [list(t.values()) for t in traits] == [['CUSTOM_CLI']], traits
    run('node', 'vif', 'attach', node_name, 'cli-vif', expect_json=False)
    vifs = run('node', 'vif', 'list', node_name)
    assert [list(v.values()) for v in vifs] == [['cli-vif']], vifs
    run('node', 'boot', 'device', 'set', node_name, 'disk', '--persistent',
        expect_json=False)
    assert run('node', 'boot', 'device', 'show', node_name) == {
        'boot_device': 'disk', 'persistent': True}
    run('node', 'vif', 'detach', node_name, 'cli-vif', expect_json=False)
    assert run('node', 'vif', 'list', node_name) == []
