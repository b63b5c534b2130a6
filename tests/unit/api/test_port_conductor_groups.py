"""?conductor_groups= on port and port group lists (Ironic's filter,
served at every version; networking-baremetal's agent lists
``/v1/ports/detail?conductor_groups=...``): matching, Ironic's refused
combinations, the next link and the project scope."""

import pytest

from tests.unit.api import utils

# user -> ":roles:project" suffix of the htpasswd line (see api/auth.py)
USERS = {'admin': '', 'owner': ':member:proj1'}

PORTS_MSG = ('Filtering by conductor_groups cannot be combined with '
             'node_ident, portgroup_ident, or node address filters.')
PG_MSG = ('Filtering by node, address, or shard simultaneously is not '
          'supported.')
# node name -> (conductor group as written, owner, shard, MAC)
NODES = {
    'n-bear': ('Bear', 'proj1', 'S', '52:54:00:00:00:01'),
    'n-bear2': ('bear', None, None, '52:54:00:00:00:02'),
    'n-metal': ('metal', None, 'S', '52:54:00:00:00:03'),
    'n-default': ('', 'proj1', None, '52:54:00:00:00:04'),
}


def _fleet(client, headers=None):
    """The NODES, each with a port and a port group named pg-<node>."""
    for name, (group, owner, shard, mac) in NODES.items():
        body = {'driver': 'fake-hardware', 'name': name,
                'conductor_group': group}
        body.update({k: v for k, v in (('owner', owner), ('shard', shard))
                     if v})
        node = client.post_json('/v1/nodes', body, headers=headers)
        assert node.status_int == 201, node.text
        uuid = node.json['uuid']
        resp = client.post_json('/v1/ports', {
            'address': mac, 'node_uuid': uuid}, headers=headers)
        assert resp.status_int == 201, resp.text
        resp = client.post_json('/v1/portgroups', {
            'node_uuid': uuid, 'name': 'pg-' + name}, headers=headers)
        assert resp.status_int == 201, resp.text


@pytest.fixture
def fleet(client):
    _fleet(client)
    return client


def _macs(resp):
    assert resp.status_int == 200, resp.text
    return sorted(p['address'] for p in resp.json['ports'])


def _mac_of(*names):
    return sorted(NODES[n][3] for n in names)


def _pgs(resp):
    assert resp.status_int == 200, resp.text
    return sorted(pg['name'] for pg in resp.json['portgroups'])


@pytest.mark.parametrize('query,nodes', [
    ('bear', ('n-bear', 'n-bear2')),
    # Ironic reads the list as args.string_list does: each item stripped
    # and lower-cased (groups are stored lower-cased), repeats dropped.
    ('BEAR', ('n-bear', 'n-bear2')),
    ('%20Metal%20,bear,bear', ('n-bear', 'n-bear2', 'n-metal')),
    ('metal&conductor_groups=bear', ('n-bear', 'n-bear2', 'n-metal')),
    # Given more than once, Ironic takes the values as they are (pecan
    # passes its args.string_list a list): an empty one is the default
    # group, as networking-baremetal's agent asks for it.
    ('metal&conductor_groups=', ('n-metal', 'n-default')),
    ('&conductor_groups=metal', ('n-metal', 'n-default')),
    ('BEAR&conductor_groups=metal', ('n-metal',)),
    ('nope', ()),
    # An empty list filters nothing, as in Ironic (the default group ""
    # cannot be asked for).
    ('', tuple(NODES)), (',', tuple(NODES)),
])
@pytest.mark.parametrize('path', ['/v1/ports', '/v1/ports/detail'])
def test_ports_of_the_groups(fleet, path, query, nodes):
    resp = fleet.get(path + '?conductor_groups=' + query)
    assert _macs(resp) == _mac_of(*nodes)


@pytest.mark.parametrize('version', ['1.1', '1.45', '1.81'])
def test_ports_at_every_version(fleet, version):
    # Ironic does not gate it (its 1.99 only records the change).
    resp = fleet.get('/v1/ports?conductor_groups=metal', version=version)
    assert _macs(resp) == _mac_of('n-metal')
    resp = fleet.get('/v1/ports/detail?conductor_groups=metal',
                     version=version)
    assert _macs(resp) == _mac_of('n-metal')


@pytest.mark.parametrize('query', [
    'node=n-bear', 'address=52:54:00:00:00:01', 'portgroup=pg-n-bear',
    'node_uuid=%s',
])
def test_ports_refused_combinations_400(fleet, query):
    if '%s' in query:
        query %= fleet.get('/v1/nodes/n-bear').json['uuid']
    for path in ('/v1/ports', '/v1/ports/detail'):
        resp = fleet.get('%s?conductor_groups=bear&%s' % (path, query))
        assert resp.status_int == 400, resp.text
        assert utils.faultstring(resp) == PORTS_MSG
    # An empty list is no filter: nothing to refuse.
    resp = fleet.get('/v1/ports?conductor_groups=&' + query)
    assert resp.status_int == 200, resp.text


def test_ports_sub_collections_400(fleet):
    for path in ('/v1/nodes/n-bear/ports', '/v1/portgroups/pg-n-bear/ports',
                 '/v1/nodes/n-bear/ports/detail'):
        resp = fleet.get(path + '?conductor_groups=bear')
        assert resp.status_int == 400, (path, resp.text)
        assert utils.faultstring(resp) == PORTS_MSG


def test_missing_parent_404_before_the_rule(fleet):
    # Ironic looks the path's parent up first; ?node= and ?portgroup= it
    # looks up after its rule.
    for path in ('/v1/nodes/missing/ports', '/v1/portgroups/missing/ports',
                 '/v1/nodes/missing/portgroups'):
        resp = fleet.get(path + '?conductor_groups=bear')
        assert resp.status_int == 404, (path, resp.text)
    # The same order for the shards of a node's port groups.
    resp = fleet.get('/v1/nodes/missing/portgroups?shard=S')
    assert resp.status_int == 404, resp.text
    for query, msg in (('/v1/ports?node=missing', PORTS_MSG),
                       ('/v1/ports?portgroup=missing', PORTS_MSG),
                       ('/v1/portgroups?node=missing', PG_MSG)):
        resp = fleet.get(query + '&conductor_groups=bear')
        assert resp.status_int == 400, (query, resp.text)
        assert utils.faultstring(resp) == msg


def test_ports_node_with_portgroup_is_403_first(fleet):
    # Ironic checks its alternatives (node, port group, shard) first.
    resp = fleet.get('/v1/ports?node=n-bear&portgroup=pg-n-bear'
                     '&conductor_groups=bear')
    assert resp.status_int == 403, resp.text
    assert utils.faultstring(resp) == 'Operation not permitted.'


def test_ports_with_shard_both_apply(fleet):
    # ironic-lite applies both filters (doc/source/api/differences.rst).
    resp = fleet.get('/v1/ports?conductor_groups=bear,metal&shard=S')
    assert _macs(resp) == _mac_of('n-bear', 'n-metal')
    resp = fleet.get('/v1/ports?conductor_groups=bear&shard=None')
    assert _macs(resp) == _mac_of('n-bear2')


def test_ports_next_link_keeps_the_groups(fleet):
    resp = fleet.get('/v1/ports?conductor_groups=bear,metal&limit=2')
    assert len(resp.json['ports']) == 2
    assert 'conductor_groups=bear,metal' in resp.json['next']
    nxt = resp.json['next'].replace('http://localhost', '')
    resp2 = fleet.get(nxt)
    assert sorted(_macs(resp) + _macs(resp2)) == _mac_of(
        'n-bear', 'n-bear2', 'n-metal')


# -- port groups -------------------------------------------------------------

@pytest.mark.parametrize('path', ['/v1/portgroups', '/v1/portgroups/detail'])
@pytest.mark.parametrize('version', ['1.23', '1.82'])
def test_portgroups_of_the_groups(fleet, path, version):
    def names(query):
        return _pgs(fleet.get(path + '?conductor_groups=' + query,
                              version=version))

    assert names('Bear') == ['pg-n-bear', 'pg-n-bear2']
    assert names('metal,bear') == ['pg-n-bear', 'pg-n-bear2', 'pg-n-metal']
    assert names('nope') == []
    assert names('') == sorted('pg-' + n for n in NODES)


@pytest.mark.parametrize('query', [
    'node=n-bear', 'address=52:54:00:00:00:09', 'shard=S',
])
def test_portgroups_refused_combinations_400(fleet, query):
    # Ironic counts the conductor groups among its alternatives, with the
    # message of the other three.
    for path in ('/v1/portgroups', '/v1/portgroups/detail'):
        resp = fleet.get('%s?conductor_groups=bear&%s' % (path, query))
        assert resp.status_int == 400, resp.text
        assert utils.faultstring(resp) == PG_MSG
    resp = fleet.get('/v1/nodes/n-bear/portgroups?conductor_groups=bear')
    assert resp.status_int == 400, resp.text
    assert utils.faultstring(resp) == PG_MSG


def test_portgroups_next_link_keeps_the_groups(fleet):
    resp = fleet.get('/v1/portgroups?conductor_groups=bear&limit=1')
    assert 'conductor_groups=bear' in resp.json['next']


# -- project scope -----------------------------------------------------------

def test_project_member_sees_only_its_ports(basic):
    """The project filter still applies: proj1 owns n-bear (group bear)
    and n-default; n-bear2 (bear) is not its node."""
    _fleet(basic, headers=utils.basic_auth('admin'))
    owner = utils.basic_auth('owner')
    resp = basic.get('/v1/ports/detail?conductor_groups=bear', headers=owner)
    assert _macs(resp) == _mac_of('n-bear')
    resp = basic.get('/v1/ports?conductor_groups=metal', headers=owner)
    assert _macs(resp) == []
    resp = basic.get('/v1/ports?conductor_groups=', headers=owner)
    assert _macs(resp) == _mac_of('n-bear', 'n-default')
    resp = basic.get('/v1/portgroups?conductor_groups=bear', headers=owner)
    assert _pgs(resp) == ['pg-n-bear']
    # A node it may not see, in the path: the 404 it gets without the
    # filter, not the 400 of the rule.
    for path in ('/v1/nodes/n-bear2/ports', '/v1/nodes/n-bear2/portgroups',
                 '/v1/portgroups/pg-n-bear2/ports'):
        resp = basic.get(path + '?conductor_groups=bear', headers=owner)
        assert resp.status_int == 404, (path, resp.text)
        assert basic.get(path, headers=owner).status_int == 404
    admin = utils.basic_auth('admin')
    resp = basic.get('/v1/ports?conductor_groups=bear', headers=admin)
    assert _macs(resp) == _mac_of('n-bear', 'n-bear2')


def test_repeated_groups_next_link_keeps_the_default_group(fleet):
    # networking-baremetal's query: the default group's ports on every
    # page, as on Ironic.
    resp = fleet.get('/v1/ports/detail?conductor_groups=metal'
                     '&conductor_groups=&limit=1')
    assert '&conductor_groups=metal&conductor_groups=&' in resp.json['next']
    resp2 = fleet.get(resp.json['next'].replace('http://localhost', ''))
    assert sorted(_macs(resp) + _macs(resp2)) == _mac_of('n-metal',
                                                         'n-default')
    resp = fleet.get('/v1/portgroups?conductor_groups='
                     '&conductor_groups=metal')
    assert _pgs(resp) == ['pg-n-default', 'pg-n-metal']
