"""Issue 20, item 5: the ports and port groups under a node (or the ports
under a port group) that the caller may not see are a 404 with the
message a GET of that node gives the caller, never ``200 []``."""

import pytest

from tests.unit.api import utils

USERS = {'admin': '', 'stranger': ':member:proj-x',
         'owner': ':member:proj-o'}
_auth = utils.basic_auth


@pytest.fixture
def world(basic):
    node = basic.post_json('/v1/nodes', {
        'driver': 'fake-hardware', 'name': 'n-1', 'owner': 'proj-o'},
        headers=_auth('admin')).json
    pg = basic.post_json('/v1/portgroups', {
        'node_uuid': node['uuid'], 'address': '52:54:00:00:00:0a',
        'name': 'pg-1'}, headers=_auth('admin'))
    assert pg.status_int == 201, pg.text
    port = basic.post_json('/v1/ports', {
        'node_uuid': node['uuid'], 'address': '52:54:00:00:00:0b',
        'portgroup_uuid': pg.json['uuid']}, headers=_auth('admin'))
    assert port.status_int == 201, port.text
    return {'node': node, 'pg': pg.json}


@pytest.mark.parametrize('ident', ['uuid', 'name'])
@pytest.mark.parametrize('sub', ['ports', 'portgroups', 'ports/detail',
                                 'portgroups/detail'])
def test_lists_under_a_hidden_node_are_its_404(basic, world, ident, sub):
    node = world['node'][ident]
    shown = basic.get('/v1/nodes/%s' % node, headers=_auth('stranger'))
    assert shown.status_int == 404
    resp = basic.get('/v1/nodes/%s/%s' % (node, sub),
                     headers=_auth('stranger'))
    assert resp.status_int == 404, resp.text
    assert utils.faultstring(resp) == utils.faultstring(shown)
    assert utils.faultstring(resp) == 'Node %s could not be found.' % node


@pytest.mark.parametrize('sub', ['ports', 'portgroups'])
def test_lists_under_a_visible_node(basic, world, sub):
    resp = basic.get('/v1/nodes/%s/%s' % (world['node']['uuid'], sub),
                     headers=_auth('owner'))
    assert resp.status_int == 200, resp.text
    assert len(resp.json[sub]) == 1


@pytest.mark.parametrize('ident', ['uuid', 'name'])
def test_ports_under_a_hidden_portgroup_are_404(basic, world, ident):
    pg = world['pg'][ident]
    resp = basic.get('/v1/portgroups/%s/ports' % pg,
                     headers=_auth('stranger'))
    assert resp.status_int == 404, resp.text
    assert utils.faultstring(resp) == 'Portgroup %s could not be found.' % pg
    resp = basic.get('/v1/portgroups/%s/ports' % pg, headers=_auth('owner'))
    assert resp.status_int == 200, resp.text
    assert len(resp.json['ports']) == 1


def test_a_filter_by_a_hidden_node_stays_an_empty_list(basic, world):
    # ?node= is a filter of the caller's own ports (Ironic: the same).
    resp = basic.get('/v1/ports?node=%s' % world['node']['uuid'],
                     headers=_auth('stranger'))
    assert resp.status_int == 200, resp.text
    assert resp.json['ports'] == []
