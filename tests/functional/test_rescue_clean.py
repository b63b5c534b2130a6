"""What Nova and an operator do with RPC 1.6, through openstacksdk against
real processes: Nova's rescue and unrescue, Nova's crash dump
(``inject_nmi``: a 400 with fake-hardware, as Ironic's) and a manual
cleaning with two fake steps.

Each test runs on two deployments, started once for the module: ironic-api
and ironic-conductor as separate processes over RabbitMQ with PostgreSQL,
and the embedded default (``ironic-lite``: SQLite, in-process RPC).
"""

import contextlib
import uuid

from openstack import connection
from openstack import exceptions as sdk_exc
import pytest

from tests import conftest as top
from tests.functional import conftest
from tests.functional import procs


def _split(stack, tmp):
    if not (top.reachable('127.0.0.1', 5432)
            and top.reachable('127.0.0.1', 5672)):
        top.unavailable('needs PostgreSQL and RabbitMQ on 127.0.0.1')
    exchange = 'ironic-test-%s' % uuid.uuid4().hex[:12]
    topic = '%s.ironic.conductor_manager' % exchange
    stack.callback(top.delete_from_broker, [exchange],
                   [topic, topic + '.rc-conductor'])
    url = stack.enter_context(top.temp_database(top.POSTGRESQL_URL, 5432))
    common = {
        'DEFAULT': {'transport_url': top.RABBIT_URL,
                    'control_exchange': exchange, 'state_path': str(tmp)},
        'database': {'connection': url},
        'api': {'host_ip': '127.0.0.1', 'port': procs.free_port()},
        'conductor': {'heartbeat_interval': 1},
        'oslo_messaging_rabbit': top.RABBIT_TEST_OPTIONS,
    }
    return stack.enter_context(procs.api_and_conductor(
        tmp, common, 'rc-api', 'rc-conductor')).base


def _embedded(stack, tmp):
    service = conftest.start_lite(str(tmp))
    stack.callback(conftest.stop_lite, service)
    return service.base


@pytest.fixture(scope='module', params=[
    pytest.param('split', marks=pytest.mark.backend), 'embedded'])
def bm(request, tmp_path_factory):
    """openstacksdk's baremetal proxy on the deployment (noauth)."""
    start = _split if request.param == 'split' else _embedded
    with contextlib.ExitStack() as stack:
        base = start(stack, tmp_path_factory.mktemp('rc-' + request.param))
        yield connection.Connection(auth_type='none',
                                    auth={'endpoint': base}).baremetal


def _node(bm, state, **fields):
    """A fake-hardware node brought to ``state`` (manageable or active)
    the way an operator does."""
    node = bm.create_node(driver='fake-hardware', **fields)
    node = bm.set_node_provision_state(node, 'manage', wait=True)
    if state == 'active':
        bm.set_node_provision_state(node, 'provide', wait=True)
        node = bm.update_node(node, instance_id=str(uuid.uuid4()))
        node = bm.set_node_provision_state(node, 'active', wait=True)
    assert node.provision_state == state
    return node


def test_nova_rescue_and_unrescue(bm):
    node = _node(bm, 'active', rescue_interface='fake')
    instance = node.instance_id
    # Nova's ironic driver: rescue with the instance's password, wait for
    # "rescue"; unrescue, wait for "active".
    node = bm.set_node_provision_state(node, 'rescue',
                                       rescue_password='n0va-pw', wait=True)
    assert (node.provision_state, node.target_provision_state) == (
        'rescue', None)
    assert node.instance_info['rescue_password'] == '******'
    # (openstacksdk cannot wait for an unrescue by itself: Nova polls.)
    bm.set_node_provision_state(node, 'unrescue')
    node, = bm.wait_for_nodes_provision_state([node.id], 'active')
    assert node.provision_state == 'active'
    assert 'rescue_password' not in bm.get_node(node.id).instance_info
    assert node.instance_id == instance


def test_nova_crash_dump_is_refused_by_fake_hardware(bm):
    # The answer does not depend on the provision state (Ironic's conductor
    # asks the management interface only): an enrolled node is enough.
    node = bm.create_node(driver='fake-hardware')
    with pytest.raises(sdk_exc.BadRequestException) as err:
        bm.inject_nmi_to_node(node)
    assert ('Driver fake-hardware does not support inject_nmi (disabled or '
            'not implemented).') in str(err.value)
    assert bm.get_node(node.id).reservation is None


def test_manual_clean_with_two_fake_steps(bm):
    node = _node(bm, 'manageable', bios_interface='fake',
                 vendor_interface='fake')
    steps = [{'interface': 'vendor', 'step': 'log_passthrough'},
             {'interface': 'bios', 'step': 'factory_reset'}]
    node = bm.set_node_provision_state(node, 'clean', clean_steps=steps,
                                       wait=True)
    assert (node.provision_state, node.last_error, node.is_maintenance) == (
        'manageable', None, False)
    assert node.driver_internal_info['fake_clean_steps_run'] == [
        'vendor.log_passthrough', 'bios.factory_reset']
