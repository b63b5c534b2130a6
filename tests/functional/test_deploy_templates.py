"""Deploy templates (API 1.55) and deploy steps (1.69) through
openstacksdk, against real processes: the embedded default
(``ironic-lite``: SQLite, in-process RPC) and ``ironic-api`` +
``ironic-conductor`` over RabbitMQ with PostgreSQL.

A template named after a trait of the node's instance runs its steps in
the deploy; what ran is read back from the node's
``driver_internal_info['fake_deploy_steps']`` (the fake interfaces record
it: doc/source/api/differences.rst).
"""

from openstack import connection
import pytest

from tests import conftest as top_conftest
from tests.functional import procs
from tests import timeouts

BIOS = {'interface': 'bios', 'step': 'apply_configuration',
        'args': {'settings': [{'name': 'LogicalProc', 'value': 'Enabled'}]},
        'priority': 150}
RAID = {'interface': 'raid', 'step': 'create_configuration', 'args': {},
        'priority': 50}


def _available_node(bm, name, trait):
    node = bm.create_node(driver='fake-hardware', name=name,
                          bios_interface='fake', raid_interface='fake')
    bm.patch_node(node, [{'op': 'add', 'path': '/instance_info/traits',
                          'value': [trait]}])
    bm.add_node_trait(node, trait)
    for target in ('manage', 'provide'):
        bm.set_node_provision_state(node, target, wait=True,
                                    timeout=timeouts.HANG)
    return node


def _wait_state(bm, node, state):
    return procs.wait_for(
        lambda: (lambda n: n if n.provision_state == state
                 and not n.reservation else None)(bm.get_node(node.id)),
        what='node %s in %s' % (node.id, state))


def _scenario(base):
    bm = connection.Connection(auth_type='none',
                               auth={'endpoint': base}).baremetal
    template = bm.create_deploy_template(name='CUSTOM_X',
                                         steps=[RAID, BIOS])
    assert [t.name for t in bm.deploy_templates()] == ['CUSTOM_X']
    assert bm.get_deploy_template('CUSTOM_X').steps == [RAID, BIOS]

    node = _available_node(bm, 'tmpl-node', 'CUSTOM_X')
    bm.set_node_provision_state(node, 'active', wait=True,
                                timeout=timeouts.HANG)
    done = bm.get_node(node.id)
    assert done.provision_state == 'active'
    assert [(s['interface'], s['step'], s['priority'])
            for s in done.driver_internal_info['fake_deploy_steps']] == [
        ('bios', 'apply_configuration', 150), ('deploy', 'deploy', 100),
        ('raid', 'create_configuration', 50)]

    # An unknown step: accepted, then the deploy fails with Ironic's
    # message; nothing of the template ran.
    bm.create_deploy_template(name='CUSTOM_BAD', steps=[
        {'interface': 'bios', 'step': 'no_such_step', 'args': {},
         'priority': 10}])
    bad = _available_node(bm, 'bad-node', 'CUSTOM_BAD')
    bm.set_node_provision_state(bad, 'active')
    failed = _wait_state(bm, bad, 'deploy failed')
    assert failed.last_error.startswith(
        'Failed to validate the final deploy steps list for node %s: '
        % bad.id), failed.last_error
    assert 'node does not support this deploy step' in failed.last_error
    assert 'fake_deploy_steps' not in failed.driver_internal_info

    bm.delete_deploy_template(template)
    assert [t.name for t in bm.deploy_templates()] == ['CUSTOM_BAD']


def test_embedded_default(lite_service):
    _scenario(lite_service.base)


@pytest.mark.backend
def test_api_and_conductor_on_rabbitmq_and_postgresql(
        tmp_path, postgresql_url, rabbit_url, rabbit_exchange):
    common = {
        'DEFAULT': {'transport_url': rabbit_url,
                    'control_exchange': rabbit_exchange,
                    'state_path': str(tmp_path)},
        'database': {'connection': postgresql_url},
        'api': {'host_ip': '127.0.0.1', 'port': procs.free_port()},
        'conductor': {'heartbeat_interval': 1},
        'oslo_messaging_rabbit': top_conftest.RABBIT_TEST_OPTIONS,
    }
    topic = '%s.ironic.conductor_manager' % rabbit_exchange
    rabbit_exchange.queues.extend([topic, topic + '.tmpl-conductor'])
    with procs.api_and_conductor(tmp_path, common, 'tmpl-api',
                                 'tmpl-conductor') as split:
        _scenario(split.base)
