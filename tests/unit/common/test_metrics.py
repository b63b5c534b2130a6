"""Issue 41: the process's metrics registry (common/metrics.py): the
providers read at scrape time, the cache of the database reads, the
timers of the RPC calls on both sides."""

import oslo_messaging as messaging
from prometheus_client.parser import text_string_to_metric_families
import prometheus_client
import pytest

from ironic_lite.common import exception
from ironic_lite.common import metrics
from ironic_lite.common import rpc


def value(name, **labels):
    return metrics.REGISTRY.get_sample_value(name, labels) or 0


def scrape():
    text = prometheus_client.generate_latest(metrics.REGISTRY).decode()
    return {f.name: f for f in text_string_to_metric_families(text)}


@pytest.fixture
def provider():
    yield metrics.provide
    for name in ('test_a', 'test_bad'):
        metrics.provide(name, None)


def test_providers_are_replaced_by_name_and_a_failing_one_is_skipped(
        provider):
    provider('test_a', lambda: [metrics.gauge('test_a', 'A.', [],
                                              [((), 1)])])
    provider('test_a', lambda: [metrics.gauge('test_a', 'A.', [],
                                              [((), 2)])])

    def broken():
        raise RuntimeError('database down')
        yield   # a generator, as the real ones
    provider('test_bad', broken)
    families = scrape()
    assert families['test_a'].samples[0].value == 2
    assert 'process_cpu_seconds' in families
    provider('test_a', None)
    assert 'test_a' not in scrape()


def test_cached_reads_once_per_ttl():
    now = [100.0]
    reads = []

    def read():
        reads.append(1)
        return ['family %d' % len(reads)]
    cached = metrics.Cached(read, 10, clock=lambda: now[0])
    assert cached() == ['family 1']
    now[0] += 9.9
    assert cached() == ['family 1']
    now[0] += 0.1
    assert cached() == ['family 2']
    assert len(reads) == 2


def test_timer_outcomes():
    hist = metrics.RPC_SERVER_CALLS
    before = value('ironic_rpc_server_duration_seconds_count',
                   method='t_timer', outcome='error')
    with pytest.raises(ValueError):
        with metrics.Timer(hist, 't_timer'):
            raise ValueError('x')
    with metrics.Timer(hist, 't_timer'):
        pass
    assert value('ironic_rpc_server_duration_seconds_count',
                 method='t_timer', outcome='error') == before + 1
    assert value('ironic_rpc_server_duration_seconds_count',
                 method='t_timer', outcome='ok') >= 1


class _Manager(object):
    target = messaging.Target(version='1.0')

    def do_it(self, context, x):
        return x * 2

    def _private(self):
        return 'private'


def test_timed_endpoint_times_public_methods_only():
    endpoint = rpc.TimedEndpoint(_Manager())
    assert endpoint.target is _Manager.target
    before = value('ironic_rpc_server_duration_seconds_count',
                   method='do_it', outcome='ok')
    assert endpoint.do_it(None, x=2) == 4
    assert endpoint._private() == 'private'
    assert not hasattr(endpoint, 'oslo_rpc_server_ping')
    assert value('ironic_rpc_server_duration_seconds_count',
                 method='do_it', outcome='ok') == before + 1


class _Client(object):
    def prepare(self, **kwargs):
        return self

    def call(self, ctxt, method, **kwargs):
        if method == 'slow':
            raise messaging.MessagingTimeout('no answer')
        return 'answer'

    def cast(self, ctxt, method, **kwargs):
        return None


def test_timed_client_counts_calls_casts_and_timeouts():
    client = rpc.TimedClient(_Client()).prepare(server='c1')

    def count(method, kind, outcome):
        return value('ironic_rpc_client_duration_seconds_count',
                     method=method, kind=kind, outcome=outcome)
    before = [count('fast', 'call', 'ok'), count('slow', 'call', 'timeout'),
              count('fire', 'cast', 'ok')]
    assert client.call({}, 'fast') == 'answer'
    with pytest.raises(messaging.MessagingTimeout):
        client.call({}, 'slow')
    client.cast({}, 'fire')
    assert [count('fast', 'call', 'ok'), count('slow', 'call', 'timeout'),
            count('fire', 'cast', 'ok')] == [b + 1 for b in before]


def test_a_port_taken_refuses_the_start_clearly(monkeypatch):
    def taken(port, addr, registry):
        raise OSError(98, 'Address already in use')
    monkeypatch.setattr(prometheus_client, 'start_http_server', taken)
    listener = metrics.Listener('ironic-conductor', '127.0.0.1', 9608)
    with pytest.raises(exception.ServiceStartRefused) as refused:
        listener.start()
    assert str(refused.value) == (
        'Cannot serve metrics on 127.0.0.1:9608 ([metrics]prometheus_'
        'conductor_host, prometheus_conductor_port): Address already in use')
    listener.stop()   # nothing to stop: no error
