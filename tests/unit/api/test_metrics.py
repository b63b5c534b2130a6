"""Issue 41: ``/metrics`` on the API's port ([metrics]prometheus_api_
enabled, off by default): unauthenticated as /healthcheck, request
latency by route template and status, the server's connections and
lanes, the nodes by provision state and shard."""

from prometheus_client.parser import text_string_to_metric_families
import pytest
import webob

from ironic_lite.api import lanes
from ironic_lite.api import large_pages
from ironic_lite.api import metrics as api_metrics
from ironic_lite.api import page_cache
from ironic_lite.common import admission
from ironic_lite.common import metrics
from ironic_lite import conf
from tests.unit.api import utils

CONF = conf.CONF
USERS = {'admin': ':admin'}


def samples(text):
    """{(sample name, frozen labels): value} of a scrape."""
    return {(s.name, frozenset(s.labels.items())): s.value
            for family in text_string_to_metric_families(text)
            for s in family.samples}


def count(found, route, status, method='GET'):
    return found.get(('ironic_api_request_duration_seconds_count', frozenset(
        {'method': method, 'route': route, 'status': status}.items())), 0)


@pytest.fixture
def enabled(make_client, tmp_path):
    CONF.set_override('prometheus_api_enabled', True, group='metrics')
    CONF.set_override('prometheus_node_counts_ttl', 0, group='metrics')
    utils.use_http_basic(tmp_path, USERS)
    yield make_client()
    metrics.provide('nodes', None)


def test_off_by_default(client):
    resp = client.get('/metrics', version=None)
    assert resp.status_int == 404
    utils.fault(resp)


def test_scrape_needs_no_credentials_and_counts_by_route(enabled):
    before = samples(enabled.get('/metrics').text)
    auth = utils.basic_auth('admin')
    for _ in range(3):
        assert enabled.get('/v1/nodes/nope',
                           headers=auth).status_int == 404
    assert enabled.get('/v1/nodes', headers=auth).status_int == 200
    assert enabled.get('/v1/nodes').status_int == 401   # no credentials
    resp = enabled.get('/metrics')
    assert resp.status_int == 200
    assert resp.content_type == 'text/plain'
    after = samples(resp.text)
    route = '/v1/nodes/{node_ident}'
    assert count(after, route, '404') - count(before, route, '404') == 3
    assert count(after, '/v1/nodes', '200') - count(
        before, '/v1/nodes', '200') == 1
    # Refused before routing: no route template, a bounded label still.
    assert count(after, metrics.NO_ROUTE, '401') - count(
        before, metrics.NO_ROUTE, '401') == 1
    # The raw path never becomes a label.
    assert not any(dict(labels).get('route') == '/v1/nodes/nope'
                   for _name, labels in after)


def test_nodes_by_provision_state_and_shard(enabled):
    auth = utils.basic_auth('admin')
    for name, shard in (('a', 's1'), ('b', 's1'), ('c', None)):
        body = {'driver': 'fake-hardware', 'name': name}
        if shard:
            body['shard'] = shard
        assert enabled.post_json('/v1/nodes', body,
                                 headers=auth).status_int == 201
    found = samples(enabled.get('/metrics').text)
    assert found[('ironic_nodes', frozenset(
        {'provision_state': 'enroll'}.items()))] == 3
    assert found[('ironic_shard_nodes',
                  frozenset({'shard': 's1'}.items()))] == 2
    assert found[('ironic_shard_nodes',
                  frozenset({'shard': ''}.items()))] == 1


def test_node_counts_are_cached(enabled, make_client):
    CONF.set_override('prometheus_node_counts_ttl', 3600, group='metrics')
    enabled = make_client()   # its app reads the counts once an hour
    scrape = enabled.get('/metrics')
    auth = utils.basic_auth('admin')
    key = ('ironic_nodes', frozenset({'provision_state': 'enroll'}.items()))
    before = samples(scrape.text).get(key, 0)
    assert enabled.post_json('/v1/nodes', {'driver': 'fake-hardware'},
                             headers=auth).status_int == 201
    assert samples(enabled.get('/metrics').text).get(key, 0) == before


class _Channels(object):
    def __init__(self, n):
        self.active_channels = {i: object() for i in range(n)}
        self.adj = type('Adj', (), {'connection_limit': 100})()

    def open_connections(self):
        return len(self.active_channels)

    def connection_limit(self):
        return self.adj.connection_limit


def test_server_families_read_connections_and_lanes():
    server = _Channels(3)
    hardware = admission.Lane(lanes.is_hardware_request, 4, 30)
    large = admission.Lane(large_pages.is_large_request, 2, 30)
    hardware.in_flight, hardware.waited, hardware.high_water = 2, 5, 4
    large.expired = 1
    server.lanes = (large, hardware)
    service = type('Service', (), {'server': server})()
    found = {}
    for family in api_metrics.server_families(service):
        for s in family.samples:
            found[(s.name, s.labels.get('lane'))] = s.value
    assert found[('ironic_api_http_connections', None)] == 3
    assert found[('ironic_api_http_connections_limit', None)] == 100
    assert found[('ironic_api_lane_running', 'hardware_calls')] == 2
    assert found[('ironic_api_lane_slots', 'hardware_calls')] == 4
    assert found[('ironic_api_lane_high_water', 'hardware_calls')] == 4
    assert found[('ironic_api_lane_waited_total', 'hardware_calls')] == 5
    assert found[('ironic_api_lane_expired_total', 'large_lists')] == 1
    assert found[('ironic_api_lane_waiting', 'large_lists')] == 0


def test_page_families_count_kept_pages(monkeypatch):
    kept = page_cache.Pages(1 << 20)
    monkeypatch.setattr(page_cache, 'pages', lambda: kept)
    kept.put('k', 'v', b'{"ports": []}')
    kept.get('k', 'v')
    kept.get('k', 'v2')
    kept.get('k', 'v')
    found = {}
    for family in api_metrics.page_families():
        for s in family.samples:
            found[(s.name, s.labels.get('kept'))] = s.value
    assert found[('ironic_api_list_pages_kept_bytes', None)] == kept.used > 0
    assert found[('ironic_api_list_page_requests_total', 'yes')] == 2
    assert found[('ironic_api_list_page_requests_total', 'no')] == 1
    monkeypatch.setattr(page_cache, 'pages', lambda: None)
    assert list(api_metrics.page_families()) == []


def test_labels_stay_bounded(enabled):
    before = samples(enabled.get('/metrics').text)
    # Straight to the application: webtest's lint warns of the method.
    made_up = webob.Request.blank('/v1/nodes/x-1', method='FROB')
    assert made_up.get_response(enabled.app.app).status_int >= 400
    after = samples(enabled.get('/metrics').text)
    methods = {dict(labels).get('method') for _name, labels in after}
    assert 'FROB' not in methods
    route = metrics.NO_ROUTE
    gained = [key for key in after
              if key[0] == 'ironic_api_request_duration_seconds_count'
              and dict(key[1])['method'] == 'other'
              and after[key] > before.get(key, 0)]
    assert gained and all(dict(k[1])['route'] in (route, '/v1/nodes/'
                                                  '{node_ident}')
                          for k in gained)
