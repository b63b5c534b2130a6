"""A node creation is written by the API when the conductor the hash ring
gives the node published its interfaces' defaults (``Conductor``
1.1 ``hardware_interfaces``): the API applies them as that conductor
would and inserts the node (``node._created_as_its_conductor_would``);
anything else goes to the conductor as before."""

import pytest

from ironic_lite.db import node as db_node
from ironic_lite.drivers import factory

CREATE = {'driver': 'fake-hardware', 'name': 'made-here'}


@pytest.fixture
def published(rpcapi, database):
    rpcapi.published['fake-host'] = factory.published_interfaces(
        ['fake-hardware'])
    return rpcapi.published['fake-host']


def _created(rpcapi):
    return [c for c in rpcapi.calls if c[0] == 'create_node']


def test_a_creation_takes_the_published_defaults_without_rpc(
        client, rpcapi, published):
    resp = client.post_json('/v1/nodes', dict(CREATE,
                                              deploy_interface='ramdisk'))
    assert resp.status_int == 201, resp.text
    assert _created(rpcapi) == []
    row = db_node.get_node_by_uuid(resp.json['uuid'])
    for iface, known in published['fake-hardware'].items():
        value = getattr(row, '%s_interface' % iface)
        if iface == 'deploy':
            assert value == 'ramdisk'
        else:
            assert value == known['default'], iface
        assert resp.json['%s_interface' % iface] == value
    assert (row.name, row.provision_state) == ('made-here', 'enroll')
    assert resp.headers['Location'].endswith('/v1/nodes/%s'
                                             % resp.json['uuid'])
    assert client.get('/v1/nodes/made-here').json['uuid'] == \
        resp.json['uuid']


def test_without_published_interfaces_it_goes_to_the_conductor(
        client, rpcapi):
    resp = client.post_json('/v1/nodes', CREATE)
    assert resp.status_int == 201, resp.text
    assert _created(rpcapi) == [('create_node', resp.json['uuid'])]


def test_an_interface_it_does_not_accept_goes_to_the_conductor(
        client, rpcapi, published):
    # ipmitool is not enabled there: the conductor's own check words the
    # error (the fake conductor does not check: it creates).
    resp = client.post_json('/v1/nodes', dict(CREATE,
                                              power_interface='ipmitool'))
    assert _created(rpcapi) == [('create_node', resp.json['uuid'])]


def test_a_type_it_did_not_publish_goes_to_the_conductor(
        client, rpcapi, published):
    rpcapi.published['fake-host'] = {'redfish': published['fake-hardware']}
    resp = client.post_json('/v1/nodes', CREATE)
    assert resp.status_int == 201, resp.text
    assert _created(rpcapi) == [('create_node', resp.json['uuid'])]


def test_no_conductor_for_the_type_is_refused_and_writes_nothing(
        client, rpcapi, published):
    resp = client.post_json('/v1/nodes', dict(CREATE, driver='redfish'),
                            expect_errors=True)
    assert resp.status_int == 400, resp.text
    assert 'redfish' in resp.json['error_message']
    assert db_node.get_node_list() == []


def test_a_missing_default_goes_to_the_conductor(client, rpcapi,
                                                 published):
    published['fake-hardware']['raid']['default'] = None
    resp = client.post_json('/v1/nodes', CREATE)
    assert resp.status_int == 201, resp.text
    assert _created(rpcapi) == [('create_node', resp.json['uuid'])]
    # Nothing was filled in by the API before it sent the node.
    assert resp.json['raid_interface'] is None


def test_a_duplicate_name_is_refused_and_writes_nothing(
        client, rpcapi, published):
    assert client.post_json('/v1/nodes', CREATE).status_int == 201
    resp = client.post_json('/v1/nodes', CREATE, expect_errors=True)
    assert resp.status_int == 409, resp.text
    assert 'made-here' in resp.json['error_message']
    assert len(db_node.get_node_list()) == 1
    assert _created(rpcapi) == []


def test_pinned_it_goes_to_the_conductor(client, rpcapi, published,
                                         config_pin):
    config_pin('6.0')
    resp = client.post_json('/v1/nodes', CREATE)
    assert resp.status_int == 201, resp.text
    assert _created(rpcapi) == [('create_node', resp.json['uuid'])]


def test_apply_published_changes_nothing_when_it_declines(published):
    from ironic_lite import objects
    node = objects.Node(None, uuid='1be26c0b-03f2-4d2e-ae87-c02d7f33c123',
                        driver='fake-hardware', power_interface='nope')
    assert factory.apply_published(node, {'fake-hardware': published[
        'fake-hardware']}) is False
    assert not node.obj_attr_is_set('deploy_interface')
    assert factory.apply_published(node, None) is False
