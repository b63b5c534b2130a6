"""The fake conductor of the API tests keeps the real conductor's contract.

The API unit tests run on ``fakes.FakeConductorAPI`` (fast, synchronous).
Each scenario here runs twice through the real API application: once on
that fake, once on a real conductor (``ConductorManager`` behind an RPC
server on the ``fake://`` transport, the real ``ConductorAPI`` client).
Same requests, same expected answers: when the fake and the conductor
drift apart (an error only one of them raises, a state only one reaches),
one of the two runs fails.
"""

import time
import uuid

import pytest

from ironic_lite.common import rpc
from ironic_lite import objects
from tests import timeouts
from tests.unit.api import conftest as api_conftest
from tests.unit.api import fakes
from tests.unit.api import utils
from tests.unit.conductor import conftest as cond_conftest

from ironic_lite.api import app as api_app

NODES = '/v1/nodes'


@pytest.fixture(params=['fake', 'real'])
def backend(request, conf_fixture, database):
    """A client of the API on the fake, then on the real conductor."""
    if request.param == 'fake':
        rpcapi = fakes.FakeConductorAPI()
        factory = lambda: rpcapi   # noqa: E731
        yield api_conftest.Client(api_app.setup_app(rpcapi_factory=factory))
        return
    for group, values in cond_conftest.FAST_SETTINGS.items():
        conf_fixture.config(group=group, **values)
    conductor = cond_conftest.Conductor().start()
    try:
        yield api_conftest.Client(api_app.setup_app())
    finally:
        conductor.stop()
        rpc.cleanup()


def settled(client, node, timeout=timeouts.HANG, **expected):
    """The node once unlocked, in no transition, with ``expected`` values
    (at once with the fake, after the conductor's work with the real)."""
    deadline = time.monotonic() + timeout
    while True:
        body = client.get('%s/%s' % (NODES, node)).json
        if (body['reservation'] is None
                and body['target_provision_state'] is None
                and body['target_power_state'] is None
                and all(body[k] == v for k, v in expected.items())):
            return body
        assert time.monotonic() < deadline, (expected, body)
        time.sleep(0.05)


def create(client, name='node-0'):
    resp = client.post_json(NODES, {'driver': 'fake-hardware', 'name': name})
    assert resp.status_int == 201, resp.text
    return resp.json['uuid']


def put_provision(client, node, target, **body):
    return client.put_json('%s/%s/states/provision' % (NODES, node),
                           dict(body, target=target))


def test_unknown_driver_is_refused_and_nothing_created(backend):
    resp = backend.post_json(NODES, {'driver': 'nope'})
    assert resp.status_int == 400, resp.text
    assert 'No valid host' in utils.faultstring(resp)
    assert backend.get(NODES).json['nodes'] == []


def test_update_goes_through(backend):
    node = create(backend)
    resp = backend.patch_json('%s/%s' % (NODES, node), [
        {'op': 'replace', 'path': '/description', 'value': 'rack 4'}])
    assert resp.status_int == 200, resp.text
    assert settled(backend, node)['description'] == 'rack 4'


def test_a_locked_node_is_409_and_unchanged(backend):
    node = create(backend)
    objects.Node.reserve(None, 'cond-7', node)
    resp = backend.patch_json('%s/%s' % (NODES, node), [
        {'op': 'replace', 'path': '/description', 'value': 'x'}])
    assert resp.status_int == 409, resp.text
    assert 'locked by host cond-7' in utils.faultstring(resp)
    assert backend.delete('%s/%s' % (NODES, node)).status_int == 409
    objects.Node.release(None, 'cond-7', node)
    assert settled(backend, node)['description'] is None


def test_an_associated_node_cannot_be_deleted(backend):
    node = create(backend)
    resp = backend.patch_json('%s/%s' % (NODES, node), [
        {'op': 'add', 'path': '/instance_uuid', 'value': str(uuid.uuid4())}])
    assert resp.status_int == 200, resp.text
    resp = backend.delete('%s/%s' % (NODES, node))
    assert resp.status_int == 409, resp.text
    assert 'associated with instance' in utils.faultstring(resp)
    assert backend.get('%s/%s' % (NODES, node)).status_int == 200


def test_power_on_and_off(backend):
    node = create(backend)
    for target in ('power on', 'power off'):
        resp = backend.put_json('%s/%s/states/power' % (NODES, node),
                                {'target': target})
        assert resp.status_int == 202, resp.text
        settled(backend, node, power_state=target)


def test_provision_from_enroll_to_active_and_back(backend):
    node = create(backend)
    for verb, state in (('manage', 'manageable'), ('provide', 'available'),
                        ('active', 'active'), ('deleted', 'available')):
        resp = put_provision(backend, node, verb)
        assert resp.status_int == 202, (verb, resp.text)
        settled(backend, node, provision_state=state)


def test_delete(backend):
    node = create(backend)
    assert backend.delete('%s/%s' % (NODES, node)).status_int == 204
    assert backend.get('%s/%s' % (NODES, node)).status_int == 404


def _set_state(node, state):
    obj = objects.Node.get_by_uuid(None, node)
    obj.provision_state = state
    obj.save()


def _patch(client, node, **values):
    return client.patch_json('%s/%s' % (NODES, node), [
        {'op': 'replace', 'path': '/' + k, 'value': v}
        for k, v in values.items()])


def test_protect_only_an_active_node(backend):
    node = create(backend)
    resp = _patch(backend, node, protected=True)
    assert resp.status_int == 409, resp.text
    assert utils.faultstring(resp) == (
        "Node %s can only be made protected in provision states 'active' "
        "or 'rescue', the current state is 'enroll'" % node)
    assert settled(backend, node)['protected'] is False
    _set_state(node, 'active')
    resp = _patch(backend, node, protected=True, protected_reason='keep')
    assert resp.status_int == 200, resp.text
    assert resp.json['protected_reason'] == 'keep'


def test_unprotect_clears_the_reason(backend):
    node = create(backend)
    _set_state(node, 'active')
    resp = _patch(backend, node, protected_reason='why')
    assert resp.status_int == 400, resp.text
    assert utils.faultstring(resp) == (
        'The protected_reason field can only be set when protected is True')
    assert _patch(backend, node, protected=True,
                  protected_reason='keep').status_int == 200
    resp = _patch(backend, node, protected=False)
    assert resp.status_int == 200, resp.text
    assert resp.json['protected_reason'] is None
    assert settled(backend, node)['protected_reason'] is None


def test_retire_no_available_node(backend):
    node = create(backend)
    _set_state(node, 'available')
    resp = _patch(backend, node, retired=True)
    assert resp.status_int == 409, resp.text
    assert utils.faultstring(resp) == (
        "Node %s can not have 'retired' set in provision state 'available', "
        "the current state is 'available'" % node)
    assert not settled(backend, node)['retired']
    _set_state(node, 'manageable')
    resp = _patch(backend, node, retired_reason='old')
    assert resp.status_int == 400, resp.text
    assert utils.faultstring(resp) == (
        'The retired_reason field can only be set when retired is True')
    resp = _patch(backend, node, retired=True, retired_reason='old')
    assert resp.status_int == 200, resp.text
    resp = _patch(backend, node, retired=False)
    assert resp.status_int == 200, resp.text
    assert resp.json['retired_reason'] is None
    assert settled(backend, node)['retired_reason'] is None


def _physnet_port(client, node, mac, physnet, group=None):
    body = {'address': mac, 'node_uuid': node, 'physical_network': physnet}
    if group:
        body['portgroup_uuid'] = group
    return client.post_json('/v1/ports', body)


def test_ports_of_a_group_share_their_physical_network(backend):
    node = create(backend)
    group = backend.post_json('/v1/portgroups', {'node_uuid': node}).json
    assert _physnet_port(backend, node, '52:54:00:00:00:01', 'a',
                         group['uuid']).status_int == 201
    resp = _physnet_port(backend, node, '52:54:00:00:00:02', 'b',
                         group['uuid'])
    assert resp.status_int == 409, resp.text
    assert utils.faultstring(resp) == (
        'Port with physical network b cannot become a member of port '
        'group %s which has ports in physical network a.' % group['uuid'])
    resp = _physnet_port(backend, node, '52:54:00:00:00:02', None,
                         group['uuid'])
    assert resp.status_int == 409, resp.text
    assert 'Port with physical network None cannot' in (
        utils.faultstring(resp))
    same = _physnet_port(backend, node, '52:54:00:00:00:02', 'a',
                         group['uuid'])
    assert same.status_int == 201, same.text
    # Before 1.102 the conductor's rule decides (409); from 1.102 the API
    # refuses any change of a grouped port's own network (400).
    change = [{'op': 'replace', 'path': '/physical_network', 'value': 'b'}]
    resp = backend.patch_json('/v1/ports/' + same.json['uuid'], change,
                              version='1.101')
    assert resp.status_int == 409, resp.text
    resp = backend.patch_json('/v1/ports/' + same.json['uuid'], change)
    assert resp.status_int == 400, resp.text
    assert utils.faultstring(resp) == (
        'physical_network cannot be changed while the port belongs to a '
        'portgroup.')
    other = _physnet_port(backend, node, '52:54:00:00:00:03', 'b').json
    resp = backend.patch_json('/v1/ports/' + other['uuid'], [
        {'op': 'replace', 'path': '/portgroup_uuid',
         'value': group['uuid']}])
    assert resp.status_int == 409, resp.text
    ports = backend.get('/v1/ports?portgroup=%s&fields=physical_network'
                        % group['uuid']).json['ports']
    assert [p['physical_network'] for p in ports] == ['a', 'a']


def test_the_only_port_of_a_group_may_change_network(backend):
    node = create(backend)
    group = backend.post_json('/v1/portgroups', {'node_uuid': node}).json
    port = _physnet_port(backend, node, '52:54:00:00:00:01', 'a',
                         group['uuid']).json
    # Before 1.102 (from then on a grouped port's network follows its
    # group's: see test_ports_of_a_group_share_their_physical_network).
    resp = backend.patch_json('/v1/ports/' + port['uuid'], [
        {'op': 'replace', 'path': '/physical_network', 'value': 'b'}],
        version='1.101')
    assert resp.status_int == 200, resp.text
    assert resp.json['physical_network'] == 'b'


# -- RPC 1.6: rescue, manual cleaning, NMI, console, retired -----------------

def _reached(client, node, timeout=timeouts.HANG, **expected):
    """The node once unlocked with ``expected`` values (a failed state
    keeps its target, unlike ``settled``)."""
    deadline = time.monotonic() + timeout
    while True:
        body = client.get('%s/%s' % (NODES, node)).json
        if body['reservation'] is None and all(
                body[k] == v for k, v in expected.items()):
            return body
        assert time.monotonic() < deadline, (expected, body)
        time.sleep(0.05)


def test_rescue_and_unrescue(backend, conf_fixture):
    conf_fixture.config(enabled_rescue_interfaces=['fake', 'no-rescue'])
    node = create(backend)
    assert _patch(backend, node, rescue_interface='fake').status_int == 200
    _set_state(node, 'active')
    resp = put_provision(backend, node, 'rescue', rescue_password='s3cr3t')
    assert resp.status_int == 202, resp.text
    body = settled(backend, node, provision_state='rescue')
    assert body['instance_info']['rescue_password'] == '******'
    stored = objects.Node.get_by_uuid(None, node).instance_info
    assert stored['rescue_password'] == 's3cr3t'
    assert stored['hashed_rescue_password'].startswith('$5$')
    resp = put_provision(backend, node, 'unrescue')
    assert resp.status_int == 202, resp.text
    settled(backend, node, provision_state='active')
    stored = objects.Node.get_by_uuid(None, node).instance_info
    assert 'rescue_password' not in stored
    assert 'hashed_rescue_password' not in stored


def test_rescue_without_a_rescue_interface_is_refused(backend):
    node = create(backend)
    _set_state(node, 'active')
    resp = put_provision(backend, node, 'rescue', rescue_password='pw')
    assert resp.status_int == 400, resp.text
    assert utils.faultstring(resp) == (
        'Failed to rescue instance None for node %s: Validation failed: '
        'Driver fake-hardware does not support rescue (disabled or not '
        'implemented).' % node)
    body = settled(backend, node, provision_state='active')
    assert 'rescue_password' not in objects.Node.get_by_uuid(
        None, node).instance_info
    assert body['instance_info'] == {}


def test_manual_clean_runs_the_steps(backend, conf_fixture):
    node = create(backend)
    conf_fixture.config(enabled_bios_interfaces=['fake', 'no-bios'])
    assert _patch(backend, node, bios_interface='fake').status_int == 200
    _set_state(node, 'manageable')
    resp = put_provision(backend, node, 'clean', clean_steps=[
        {'interface': 'bios', 'step': 'factory_reset'},
        {'interface': 'bios', 'step': 'cache_bios_settings'}])
    assert resp.status_int == 202, resp.text
    body = settled(backend, node, provision_state='manageable')
    assert body['clean_step'] in (None, {})
    assert body['maintenance'] is False


def test_manual_clean_of_an_unknown_step_fails_the_cleaning(backend):
    node = create(backend)
    _set_state(node, 'manageable')
    step = {'interface': 'deploy', 'step': 'erase_devices'}
    resp = put_provision(backend, node, 'clean', clean_steps=[step])
    assert resp.status_int == 202, resp.text
    body = _reached(backend, node, provision_state='clean failed')
    assert body['last_error'] == (
        'Cannot clean node %s: node does not support this clean step: %s'
        % (node, step))
    resp = put_provision(backend, node, 'manage')
    assert resp.status_int == 202, resp.text
    settled(backend, node, provision_state='manageable')


def test_provide_a_retired_node_is_refused(backend):
    node = create(backend)
    _set_state(node, 'manageable')
    assert _patch(backend, node, retired=True).status_int == 200
    resp = put_provision(backend, node, 'provide')
    assert resp.status_int == 400, resp.text
    assert utils.faultstring(resp) == (
        "The providing operation can't be performed on node %s because it "
        "is retired." % node)
    assert settled(backend, node)['provision_state'] == 'manageable'


def test_inject_nmi_with_fake_hardware(backend):
    node = create(backend)
    resp = backend.put_json('%s/%s/management/inject_nmi' % (NODES, node),
                            {})
    assert resp.status_int == 400, resp.text
    assert utils.faultstring(resp) == (
        'Driver fake-hardware does not support inject_nmi (disabled or not '
        'implemented).')


def test_console_enable_and_disable(backend, conf_fixture):
    node = create(backend)
    url = '%s/%s/states/console' % (NODES, node)
    assert backend.get(url).json == {'console_enabled': False,
                                     'console_info': None}
    resp = backend.put_json(url, {'enabled': True})
    assert resp.status_int == 400, resp.text
    assert utils.faultstring(resp) == (
        'Driver fake-hardware does not support console (disabled or not '
        'implemented).')
    conf_fixture.config(enabled_console_interfaces=['fake', 'no-console'])
    assert _patch(backend, node, console_interface='fake').status_int == 200
    resp = backend.put_json(url, {'enabled': True})
    assert resp.status_int == 202, resp.text
    assert resp.headers['Location'].endswith('/states/console')
    settled(backend, node, console_enabled=True)
    assert backend.get(url).json == {'console_enabled': True,
                                     'console_info': {}}
    assert backend.put_json(url, {'enabled': False}).status_int == 202
    settled(backend, node, console_enabled=False)


# -- allocations (RPC 1.5) ----------------------------------------------------

def _allocation_done(client, uuid, timeout=timeouts.HANG):
    deadline = time.monotonic() + timeout
    while True:
        body = client.get('/v1/allocations/' + uuid).json
        if body['state'] != 'allocating':
            return body
        assert time.monotonic() < deadline, body
        time.sleep(0.05)


def _available_gold(client, name):
    node = create(client, name)
    for verb, state in (('manage', 'manageable'), ('provide', 'available')):
        assert put_provision(client, node, verb).status_int == 202
        settled(client, node, provision_state=state)
    resp = client.patch_json('%s/%s' % (NODES, node), [
        {'op': 'add', 'path': '/resource_class', 'value': 'gold'}])
    assert resp.status_int == 200, resp.text
    return node


def test_allocation_reserves_then_undeploy_releases(backend):
    node = _available_gold(backend, 'gold-0')
    resp = backend.post_json('/v1/allocations', {'resource_class': 'gold'})
    assert resp.status_int == 201, resp.text
    done = _allocation_done(backend, resp.json['uuid'])
    assert (done['state'], done['node_uuid']) == ('active', node)
    assert settled(backend, node)['allocation_uuid'] == done['uuid']
    resp = backend.delete('%s/%s' % (NODES, node))
    assert resp.status_int == 409, resp.text
    for verb, state in (('active', 'active'), ('deleted', 'available')):
        assert put_provision(backend, node, verb).status_int == 202
        settled(backend, node, provision_state=state)
    assert backend.get('/v1/allocations/' + done['uuid']).status_int == 404
    assert settled(backend, node)['allocation_uuid'] is None


def test_allocation_of_an_active_node_is_not_deleted(backend):
    node = _available_gold(backend, 'gold-0')
    uuid_ = backend.post_json('/v1/allocations',
                              {'resource_class': 'gold'}).json['uuid']
    _allocation_done(backend, uuid_)
    assert put_provision(backend, node, 'active').status_int == 202
    settled(backend, node, provision_state='active')
    resp = backend.delete('/v1/allocations/' + uuid_)
    assert resp.status_int == 409, resp.text
    assert 'because the node is active' in utils.faultstring(resp)
    resp = backend.post_json('/v1/allocations', {'node': 'gold-0'})
    assert resp.status_int == 409, resp.text
    resp = backend.post_json('/v1/allocations', {'node': 'nope'})
    assert resp.status_int == 400, resp.text


# -- volume connectors and targets (RPC 1.4) --------------------------------

def test_volume_records_and_their_state_rules(backend):
    node = create(backend)
    conn = backend.post_json('/v1/volume/connectors', {
        'node_uuid': node, 'type': 'wwpn', 'connector_id': 'w1'})
    assert conn.status_int == 201, conn.text
    url = '/v1/volume/connectors/' + conn.json['uuid']
    patch = [{'op': 'replace', 'path': '/connector_id', 'value': 'w2'}]
    resp = backend.patch_json(url, patch)     # power state None: refused
    assert resp.status_int == 400, resp.text
    assert 'volume connector update' in utils.faultstring(resp)
    objects.Node.reserve(None, 'cond-7', node)
    resp = backend.post_json('/v1/volume/targets', {
        'node_uuid': node, 'volume_type': 'iscsi', 'boot_index': 0,
        'volume_id': 'v1'})
    assert resp.status_int == 409, resp.text
    objects.Node.release(None, 'cond-7', node)
    assert backend.delete(url).status_int == 204   # enroll: deletable
    assert backend.get('/v1/volume/connectors').json['connectors'] == []
    assert backend.get('/v1/volume/targets').json['targets'] == []


def test_boot_mode_secure_boot_and_indicators(backend):
    """RPC 1.8 (release 5.0): the same answers from both conductors."""
    node = create(backend)
    url = '%s/%s' % (NODES, node)
    resp = backend.put_json(url + '/states/boot_mode', {'target': 'uefi'})
    assert resp.status_int == 202, resp.text
    # The real conductor changes the boot mode after answering: until it
    # has, the node is locked and the next change is refused (409, as in
    # Ironic).  On a loaded machine that took longer than the next PUT.
    settled(backend, node, boot_mode='uefi')
    resp = backend.put_json(url + '/states/secure_boot', {'target': True})
    assert resp.status_int == 202, resp.text
    shown = settled(backend, node, boot_mode='uefi', secure_boot=True)
    assert shown['last_error'] is None
    led = url + '/management/indicators/led@system'
    assert backend.put_json(led, {'state': 'OFF'}).status_int == 204
    assert backend.get(led).json == {'state': 'off'}
    resp = backend.put_json(url + '/management/indicators/led-0@chassis',
                            {'state': 'on'})
    assert resp.status_int == 400, resp.text
    assert utils.faultstring(resp) == (
        'Indicator led-0 of component chassis is read-only.')
    _set_state(node, 'verifying')
    resp = backend.put_json(url + '/states/boot_mode', {'target': 'bios'})
    assert resp.status_int == 409, resp.text
    assert settled(backend, node)['boot_mode'] == 'uefi'


def test_virtual_media(backend):
    """RPC 1.13: attach, read and detach, the same from both."""
    node = create(backend)
    url = '%s/%s/vmedia' % (NODES, node)
    image = 'http://192.0.2.1/boot.iso'
    resp = backend.post_json(url, {'device_type': 'cdrom',
                                   'image_url': image})
    assert resp.status_int == 204, resp.text
    settled(backend, node, last_error=None)
    inserted = [m for m in backend.get(url).json if m['inserted']]
    assert inserted == [{'media_types': ['CD'], 'inserted': True,
                         'image': image}]
    assert backend.delete(url + '?device_types=cdrom').status_int == 204
    settled(backend, node)
    assert not any(m['inserted'] for m in backend.get(url).json)
    resp = backend.delete(url + '?device_types=usb')
    assert resp.status_int == 400, resp.text
