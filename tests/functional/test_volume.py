"""Nova's failed-build clean-up, through openstacksdk, against the
embedded default (``ironic-lite``: SQLite, fake://) and against
``ironic-api`` and ``ironic-conductor`` over RabbitMQ with PostgreSQL.

When a build fails, Nova's ironic driver (``_cleanup_deploy``) lists the
node's volume targets (``GET /v1/volume/targets?node=<id>&detail=True``),
deletes each, detaches the instance's VIFs and clears ``instance_uuid``.
Before ironic-lite served ``/v1/volume`` the first call was a 404 and the
node stayed claimed by a dead instance.  Its volume-connector lookup
(``get_volume_connector``, for boot from volume and volume attach) lists
``/v1/volume/connectors?node=<uuid>&detail=True``.
"""

import uuid

from openstack import connection
from openstack import exceptions as sdk_exc
import pytest

from tests import conftest
from tests.functional import procs
from tests import timeouts


def _baremetal(base):
    return connection.Connection(auth_type='none',
                                 auth={'endpoint': base}).baremetal


def nova_failed_build_cleanup(bm, name):
    node = bm.create_node(driver='fake-hardware', name=name)
    for target in ('manage', 'provide'):
        bm.set_node_provision_state(node, target, wait=True,
                                    timeout=timeouts.HANG)
    bm.create_port(node_id=node.id, address='52:54:00:7e:00:%02x'
                   % (sum(name.encode()) % 256))
    connector = bm.create_volume_connector(
        node_id=node.id, type='iqn',
        connector_id='iqn.2026-11.org.openstack:%s' % name)

    # The claim, and what a boot-from-volume spawn adds before it fails.
    instance, vif = str(uuid.uuid4()), str(uuid.uuid4())
    bm.patch_node(node, [
        {'op': 'add', 'path': '/instance_uuid', 'value': instance},
        {'op': 'add', 'path': '/instance_info', 'value': {'root_gb': 10}}])
    bm.attach_vif_to_node(node, vif)
    found = list(bm.volume_connectors(node=node.id, details=True))
    assert [(c.id, c.type, c.connector_id, c.node_id) for c in found] == [
        (connector.id, 'iqn', connector.connector_id, node.id)]
    target = bm.create_volume_target(
        node_id=node.id, volume_type='iscsi', boot_index=0,
        volume_id=str(uuid.uuid4()), properties={'auth_password': 'pw'})
    assert target.properties == {'auth_password': '******'}

    # _cleanup_deploy, in Nova's order.
    targets = list(bm.volume_targets(node=node.id, details=True))
    assert [(t.id, t.boot_index, t.node_id) for t in targets] == [
        (target.id, 0, node.id)]
    for each in targets:
        bm.delete_volume_target(each, ignore_missing=True)
    bm.detach_vif_from_node(node, vif)
    bm.patch_node(node, [{'op': 'remove', 'path': '/instance_uuid'},
                         {'op': 'remove', 'path': '/instance_info'}])

    after = bm.get_node(node.id)
    assert (after.instance_id, after.provision_state) == (None, 'available')
    assert bm.list_node_vifs(node) == []
    assert list(bm.volume_targets(node=node.id)) == []
    with pytest.raises(sdk_exc.NotFoundException):
        bm.get_volume_target(target.id)
    # The operator's connector stays, until the node goes.
    assert [c.id for c in bm.volume_connectors(node=node.id)] == [
        connector.id]
    bm.delete_node(node)
    assert list(bm.volume_connectors()) == []


def test_nova_cleanup_on_the_embedded_default(lite_noauth):
    nova_failed_build_cleanup(_baremetal(lite_noauth.base), 'vol-embedded')


@pytest.mark.backend
def test_nova_cleanup_over_rabbitmq_and_postgresql(
        tmp_path, postgresql_url, rabbit_url, rabbit_exchange):
    port = procs.free_port()
    common = {
        'DEFAULT': {'transport_url': rabbit_url,
                    'control_exchange': rabbit_exchange,
                    'state_path': str(tmp_path)},
        'database': {'connection': postgresql_url},
        'api': {'host_ip': '127.0.0.1', 'port': port},
        'conductor': {'heartbeat_interval': 1},
        'oslo_messaging_rabbit': conftest.RABBIT_TEST_OPTIONS,
    }
    topic = '%s.ironic.conductor_manager' % rabbit_exchange
    rabbit_exchange.queues.extend([topic, topic + '.vol-conductor'])
    with procs.api_and_conductor(tmp_path, common, 'vol-api',
                                 'vol-conductor') as split:
        nova_failed_build_cleanup(_baremetal(split.base), 'vol-split')
