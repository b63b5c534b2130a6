"""RPC 1.4: volume connectors and targets through the real RPC client and
conductor; the cinder storage interface at deploy and tear down."""

import pytest

from ironic_lite.common import exception
from ironic_lite.drivers import storage
from ironic_lite import objects


def _connector(context, node, type_='wwpn', ident='wwpn-1'):
    return objects.VolumeConnector(context, node_id=node.id, type=type_,
                                   connector_id=ident, extra={})


def _target(context, node, boot_index=0, kind='fibre_channel'):
    return objects.VolumeTarget(context, node_id=node.id, volume_type=kind,
                                boot_index=boot_index,
                                volume_id='vol-%d' % boot_index,
                                properties={}, extra={})


def test_create_update_destroy_under_the_lock(context, rpc_api, make_node):
    node = make_node(power_state='power off')
    conn = rpc_api.create_volume_connector(context, _connector(context, node),
                                           node)
    assert objects.VolumeConnector.get(context, conn.uuid).type == 'wwpn'
    conn.connector_id = 'wwpn-2'
    rpc_api.update_volume_connector(context, conn, node)
    assert objects.VolumeConnector.get(
        context, conn.uuid).connector_id == 'wwpn-2'
    with pytest.raises(exception.VolumeConnectorTypeAndIdAlreadyExists):
        rpc_api.create_volume_connector(
            context, _connector(context, node, ident='wwpn-2'), node)
    rpc_api.destroy_volume_connector(context, conn, node)
    assert objects.VolumeConnector.list(context) == []


def test_locked_node_and_state_rules(context, rpc_api, make_node):
    node = make_node(power_state='power on', provision_state='active')
    target = rpc_api.create_volume_target(context, _target(context, node),
                                          node)
    target.boot_index = 3
    with pytest.raises(exception.InvalidStateRequested) as err:
        rpc_api.update_volume_target(context, target, node)
    assert 'volume target update' in str(err.value)
    with pytest.raises(exception.InvalidStateRequested):
        rpc_api.destroy_volume_target(context, target, node)
    locked = objects.Node.get_by_uuid(context, node.uuid)
    locked.reservation = 'other-host'
    locked.save()
    with pytest.raises(exception.NodeLocked):
        rpc_api.create_volume_connector(context,
                                        _connector(context, node), node)
    assert objects.VolumeConnector.list(context) == []
    assert objects.VolumeTarget.get(context, target.uuid).boot_index == 0


def test_pinned_client_refuses_before_sending(context, conductor, config,
                                              make_node):
    from ironic_lite.conductor import rpcapi
    config.set_override('pin_release_version', '3.0')
    try:
        client = rpcapi.ConductorAPI()
        node = make_node(power_state='power off')
        with pytest.raises(exception.PinnedRelease) as err:
            client.create_volume_target(context, _target(context, node),
                                        node)
    finally:
        config.clear_override('pin_release_version')
    assert 'Creating a volume target' in str(err.value)
    assert objects.VolumeTarget.list(context) == []


def test_cinder_attaches_on_deploy_and_detaches_on_tear_down(
        context, rpc_api, make_node, wait_node):
    node = make_node(provision_state='available', power_state='power off',
                     storage_interface='cinder',
                     properties={'capabilities': 'fibre_channel_boot:true'})
    for kind in ('wwpn', 'wwnn'):
        _connector(context, node, kind, kind + '-1').create()
    second, boot = _target(context, node, 1), _target(context, node, 0)
    second.create()
    boot.create()
    rpc_api.do_node_deploy(context, node)
    node = wait_node(node.uuid, 'active', target_provision_state=None)
    assert node.driver_internal_info[storage.ATTACHED_KEY] == [
        boot.uuid, second.uuid]
    rpc_api.do_node_tear_down(context, node)
    node = wait_node(node.uuid, 'available', target_provision_state=None)
    assert storage.ATTACHED_KEY not in node.driver_internal_info


@pytest.mark.parametrize('capabilities,connectors,index,message', [
    ('', ('wwpn', 'wwnn'), 0, "the capability 'fibre_channel_boot' is not "
                              "set on node"),
    ('fibre_channel_boot:true', ('wwpn',), 0, 'There are 1 wwpn entries and '
                                              '0 wwnn entries'),
    ('fibre_channel_boot:true', (), 0, "In order to enable the "
                                       "'fibre_channel_boot' capability"),
    ('', (), 1, 'no Fibre Channel WWPNs are configured for the node volume '
                'connectors'),
    ('fibre_channel_boot:true', ('iqn',), 0, 'network booting to an iSCSI '
                                             'volume'),
])
def test_cinder_refuses_a_deploy_it_cannot_attach(
        context, rpc_api, make_node, capabilities, connectors, index,
        message):
    node = make_node(provision_state='available', power_state='power off',
                     storage_interface='cinder',
                     properties={'capabilities': capabilities})
    for kind in connectors:
        _connector(context, node, kind, kind + '-1').create()
    _target(context, node, index).create()
    with pytest.raises(exception.InvalidParameterValue) as err:
        rpc_api.do_node_deploy(context, node)
    assert str(err.value).startswith(
        'Failed to validate cinder storage interface for node %s. '
        % node.uuid)
    assert message in str(err.value)
    assert objects.Node.get_by_uuid(context, node.uuid
                                    ).provision_state == 'available'


def test_noop_deploy_attaches_nothing(context, rpc_api, make_node,
                                      wait_node):
    node = make_node(provision_state='available', power_state='power off',
                     storage_interface='noop')
    _target(context, node, 0, kind='anything').create()
    rpc_api.do_node_deploy(context, node)
    node = wait_node(node.uuid, 'active', target_provision_state=None)
    assert storage.ATTACHED_KEY not in node.driver_internal_info


def test_destroying_a_node_deletes_its_volume_records(context, rpc_api,
                                                      make_node):
    node = make_node(provision_state='manageable')
    _connector(context, node).create()
    _target(context, node).create()
    rpc_api.destroy_node(context, node)
    assert objects.VolumeConnector.list(context) == []
    assert objects.VolumeTarget.list(context) == []
