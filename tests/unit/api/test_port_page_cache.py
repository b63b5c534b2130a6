"""Port pages kept by the API (api/page_cache.py) on PostgreSQL: a page
asked for again is the one kept only while none of its ports changed, and
is then byte for byte the page read afresh; every write that changes
what a page holds or shows -- a port patched, deleted or created, a node
moved to another shard -- is seen by the very next request."""

import pytest

from ironic_lite.api import page_cache
from ironic_lite import objects
from tests.unit.api import conftest

MACS = ['52:54:00:00:10:%02x' % i for i in range(6)]


@pytest.fixture
def database(database_on_postgresql):
    """The API on PostgreSQL (the page versions are its row stamps)."""
    return database_on_postgresql


@pytest.fixture
def ports(client, node, monkeypatch):
    """Six ports of one node in shard-a, with an empty cache of pages."""
    monkeypatch.setattr(page_cache, '_pages', None)
    assert client.patch_json('/v1/nodes/' + node['uuid'], [
        {'op': 'add', 'path': '/shard', 'value': 'shard-a'}]).status_int \
        == 200
    made = []
    for mac in MACS:
        resp = client.post_json('/v1/ports', {'address': mac,
                                              'node_uuid': node['uuid']})
        assert resp.status_int == 201, resp.text
        made.append(resp.json)
    return made


def _fresh(client, url, version=None):
    """The page read and rendered without the cache."""
    conftest.CONF.set_override('list_page_cache_size', 0, group='api')
    try:
        return client.get(url, version=version).body
    finally:
        conftest.CONF.clear_override('list_page_cache_size', group='api')


def _twice(client, url, version=None):
    """The page asked for twice: the second answer is the kept one,
    and both are the page read afresh."""
    cache = page_cache.pages()
    hits = cache.hits
    first = client.get(url, version=version)
    second = client.get(url, version=version)
    assert first.status_int == second.status_int == 200, first.text
    assert cache.hits == hits + 1
    assert first.body == second.body == _fresh(client, url, version)
    return second.json


PAGES = ('/v1/ports/detail?limit=3', '/v1/ports?limit=3&fields=uuid,extra',
         '/v1/ports/detail?shard=shard-a&limit=4',
         '/v1/ports?sort_key=address&sort_dir=desc&limit=2')


@pytest.mark.parametrize('url', PAGES)
def test_a_page_asked_again_is_kept_and_the_same(client, ports, url):
    body = _twice(client, url)
    assert body['ports'] and 'next' in body
    # The next page, by its own link, is another page kept.
    nxt = body['next'].replace('http://localhost', '')
    assert _twice(client, nxt)['ports'] != body['ports']


def test_each_write_is_seen_by_the_next_request(client, ports, node):
    url = '/v1/ports/detail?limit=3'
    _twice(client, url)
    # A port of the page patched.
    resp = client.patch_json('/v1/ports/' + ports[1]['uuid'], [
        {'op': 'add', 'path': '/extra/rack', 'value': 'r1'}])
    assert resp.status_int == 200, resp.text
    body = _twice(client, url)
    assert body['ports'][1]['extra'] == {'rack': 'r1'}
    # One deleted: the next port enters the page.
    assert client.delete('/v1/ports/' + ports[0]['uuid']).status_int == 204
    body = _twice(client, url)
    assert [p['uuid'] for p in body['ports']] == [
        p['uuid'] for p in ports[1:4]]
    # A port sorted into the page by its address.
    url = '/v1/ports?sort_key=address&limit=2'
    _twice(client, url)
    resp = client.post_json('/v1/ports', {'address': '52:54:00:00:00:01',
                                          'node_uuid': node['uuid']})
    assert resp.status_int == 201
    assert _twice(client, url)['ports'][0]['address'] == '52:54:00:00:00:01'


def test_a_node_leaving_the_shard_empties_its_page(client, ports, node):
    url = '/v1/ports?shard=shard-a'
    assert len(_twice(client, url)['ports']) == len(MACS)
    assert client.patch_json('/v1/nodes/' + node['uuid'], [
        {'op': 'replace', 'path': '/shard', 'value': 'shard-b'}]
    ).status_int == 200
    assert _twice(client, url)['ports'] == []


def test_another_version_or_host_is_another_page(client, ports):
    url = '/v1/ports/detail?limit=3'
    new = _twice(client, url)
    old = _twice(client, url, version='1.87')
    assert 'name' in new['ports'][0] and 'name' not in old['ports'][0]
    other = client.get(url, headers={'Host': 'api.example.com'}).json
    assert other['next'].startswith('http://api.example.com/v1/ports/')


def test_a_missing_marker_is_still_404(client, ports):
    url = '/v1/ports?marker=%s' % ports[0]['uuid']
    _twice(client, url)
    assert client.delete('/v1/ports/' + ports[0]['uuid']).status_int == 204
    assert client.get(url).status_int == 404


def test_nothing_kept_when_the_size_is_0(client, ports, monkeypatch):
    conftest.CONF.set_override('list_page_cache_size', 0, group='api')
    assert page_cache.pages() is None
    # Nor is a page's version read: the list is what it was before.
    monkeypatch.setattr(objects.Port, 'page_version', None)
    first = client.get('/v1/ports/detail')
    second = client.get('/v1/ports/detail')
    assert first.status_int == second.status_int == 200, first.text
    assert first.body == second.body
    assert len(first.json['ports']) == len(MACS)
