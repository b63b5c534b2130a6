"""Issue 41: ``curl /metrics`` on a running API and conductor returns
Prometheus text with the families of doc/source/admin/metrics.rst, and a
scrape after a few requests finds their counts -- in ironic-lite, and in
ironic-api and ironic-conductor as separate processes."""

import os
import urllib.request

from prometheus_client.parser import text_string_to_metric_families
import pytest

from tests import conftest
from tests.functional import procs
from tests.functional import scenarios
from tests import timeouts

# The families every scrape of each endpoint has (with samples or not).
API_FAMILIES = {
    'ironic_api_request_duration_seconds', 'ironic_api_http_connections',
    'ironic_api_http_connections_limit', 'ironic_api_lane_running',
    'ironic_api_lane_waiting', 'ironic_api_lane_slots',
    'ironic_api_lane_high_water', 'ironic_api_lane_waited',
    'ironic_api_lane_expired', 'ironic_nodes', 'ironic_shard_nodes',
    'ironic_rpc_client_duration_seconds', 'process_cpu_seconds'}
CONDUCTOR_FAMILIES = {
    'ironic_rpc_server_duration_seconds', 'ironic_node_lock_wait_seconds',
    'ironic_node_lock_takeovers', 'process_resident_memory_bytes'}


def scrape(url):
    """({family name: family}, {(sample, frozen labels): value})."""
    with urllib.request.urlopen(url, timeout=timeouts.HANG) as resp:
        assert resp.status == 200
        assert resp.headers['Content-Type'].startswith('text/plain')
        text = resp.read().decode()
    families = {f.name: f for f in text_string_to_metric_families(text)}
    samples = {(s.name, frozenset(s.labels.items())): s.value
               for f in families.values() for s in f.samples}
    return families, samples


def value(samples, name, **labels):
    return samples.get((name, frozenset(labels.items())), 0)


def requests(base, route, status, method='GET'):
    return ('ironic_api_request_duration_seconds_count',
            frozenset({'method': method, 'route': route,
                       'status': status}.items()))


def rpc(side, method, **labels):
    return ('ironic_rpc_%s_duration_seconds_count' % side,
            frozenset(dict(labels, method=method, outcome='ok').items()))


def metrics_section(conductor_port):
    return {'prometheus_api_enabled': True,
            'prometheus_conductor_port': conductor_port,
            'prometheus_node_counts_ttl': 0}


def test_lite_api_and_conductor_endpoints(tmp_path):
    port, metrics_port = procs.free_port(), procs.free_port()
    config = procs.write_config(os.path.join(tmp_path, 'ironic.conf'), {
        'DEFAULT': {'state_path': os.path.join(tmp_path, 'state')},
        'api': {'host_ip': '127.0.0.1', 'port': port},
        'metrics': metrics_section(metrics_port),
    })
    service = procs.Service('ironic-lite', config, str(tmp_path))
    base = 'http://127.0.0.1:%d' % port
    try:
        procs.wait_http(base + '/v1', service)
        status, _, node = procs.http('POST', base + '/v1/nodes', {
            'driver': 'fake-hardware', 'name': 'm-0', 'shard': 'rack-1'})
        assert status == 201, node
        assert procs.http('PUT', base + '/v1/nodes/m-0/states/provision',
                          {'target': 'manage'})[0] == 202
        procs.wait_provision_state(base, node['uuid'], 'manageable')
        for _ in range(3):
            assert procs.http('GET', base + '/v1/nodes/nope')[0] == 404
        families, found = scrape(base + '/metrics')
        assert API_FAMILIES <= set(families)
        assert found[requests(base, '/v1/nodes/{node_ident}', '404')] == 3
        assert found[requests(base, '/v1/nodes', '201', 'POST')] == 1
        # The creation is the API's own (the conductor published its
        # interfaces' defaults): the provision action is the RPC call.
        assert found[rpc('client', 'do_provisioning_action',
                         kind='call')] == 1
        assert rpc('client', 'create_node', kind='call') not in found
        assert value(found, 'ironic_nodes',
                     provision_state='manageable') == 1
        assert value(found, 'ironic_shard_nodes', shard='rack-1') == 1
        assert value(found, 'ironic_api_http_connections') >= 1
        assert value(found, 'ironic_api_lane_slots',
                     lane='large_lists') == 2
        # The conductor's port: the same process, the same registry.
        families, found = scrape('http://127.0.0.1:%d/metrics'
                                 % metrics_port)
        assert CONDUCTOR_FAMILIES <= set(families)
        assert rpc('server', 'create_node') not in found
        assert found[rpc('server', 'do_provisioning_action')] == 1
    finally:
        code = service.stop()
    assert code == 0, service.log()


@pytest.mark.backend
def test_split_api_and_conductor_endpoints(tmp_path, postgresql_url,
                                           rabbit_url, rabbit_exchange):
    port, metrics_port = procs.free_port(), procs.free_port()
    common = {
        'DEFAULT': {'transport_url': rabbit_url,
                    'control_exchange': rabbit_exchange,
                    'state_path': str(tmp_path)},
        'database': {'connection': postgresql_url},
        # Two API processes: the counts below are the sums of both
        # (the requests land in either), whichever answers the scrape.
        'api': {'host_ip': '127.0.0.1', 'port': port, 'api_workers': 2},
        'conductor': {'heartbeat_interval': 1},
        'metrics': metrics_section(metrics_port),
        'oslo_messaging_rabbit': conftest.RABBIT_TEST_OPTIONS,
    }
    topic = '%s.ironic.conductor_manager' % rabbit_exchange
    rabbit_exchange.queues.extend([topic, topic + '.metrics-c'])
    with procs.api_and_conductor(tmp_path, common, 'metrics-a',
                                 'metrics-c') as split:
        scenarios.node_lifecycle(split.base)
        families, api = scrape(split.base + '/metrics')
        assert API_FAMILIES <= set(families)
        _, conductor = scrape('http://127.0.0.1:%d/metrics' % metrics_port)
    # node_lifecycle: manage and provide, deploy, power off, tear down.
    for method, calls in (('do_provisioning_action', 2),
                          ('do_node_deploy', 1),
                          ('change_node_power_state', 1),
                          ('do_node_tear_down', 1)):
        assert api[rpc('client', method, kind='call')] == calls, method
        assert conductor[rpc('server', method)] == calls, method
    assert api[requests(split.base, '/v1/nodes', '201', 'POST')] == 1
    assert value(api, 'ironic_nodes', provision_state='available') == 1
    # Each process tells its own side.
    assert not any(name.startswith('ironic_rpc_server') for name, _ in api)
    assert not any(name.startswith('ironic_api_') for name, _ in conductor)
