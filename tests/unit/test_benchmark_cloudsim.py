"""The pure parts of the cloud simulator (no services, no clock asserted)."""

import http.client
import types

import pytest

from tools.benchmark import cloudsim
from tools.benchmark import cloudsim_load
from tools.benchmark import cloudsim_stats as stats


def test_latency_summary_nearest_rank():
    seconds = [i / 1000.0 for i in range(1, 1001)]   # 1 ms .. 1000 ms
    row = stats.latency_summary(seconds)
    assert row['samples'] == 1000
    assert round(row['p50_ms']) == 500
    assert round(row['p99_ms']) == 990
    assert round(row['p999_ms']) == 999
    assert round(row['max_ms']) == 1000


def test_latency_summary_few_samples_and_none():
    row = stats.latency_summary([0.002, 0.001, 0.003])
    assert round(row['p50_ms']) == 2
    assert round(row['p99_ms']) == 3 and round(row['p999_ms']) == 3
    empty = stats.latency_summary([])
    assert empty == {'samples': 0, 'p50_ms': None, 'p99_ms': None,
                     'p999_ms': None, 'max_ms': None}


def _log(cycles, period=10.0, max_late=1.0):
    """A CycleLog fed (due, start, end) triples."""
    log = stats.CycleLog('compute#0', period, max_late)
    for due, start, end in cycles:
        log.started(due, start)
        log.finished(end)
    return log


def test_consumer_on_time_is_not_behind():
    log = _log([(0, 0.0, 2.0), (10, 10.2, 13.0), (20, 20.0, 29.9)])
    assert log.overruns() == 0 and log.late_starts() == 0
    assert not log.behind()
    summary = log.summary()
    assert summary['cycles'] == 3
    assert round(summary['max_cycle_s'], 6) == 9.9
    assert round(summary['max_late_s'], 6) == 0.2


def test_overrun_and_late_start_count_as_behind():
    overrun = _log([(0, 0.0, 12.0)])
    assert overrun.overruns() == 1 and overrun.behind()
    late = _log([(0, 0.0, 1.0), (10, 11.5, 12.0)])
    assert late.overruns() == 0 and late.late_starts() == 1
    assert late.behind()


def test_cycle_still_running_past_its_period_is_behind():
    log = _log([(0, 0.0, 1.0)])
    log.started(10, 10.0)
    assert not log.behind(now=15.0)
    assert log.behind(now=20.5)
    assert log.summary(now=20.5)['overruns'] == 1


def test_next_due_skips_missed_cycles_instead_of_bursting():
    log = stats.CycleLog('agent#0', 30.0, 1.0)
    assert log.next_due(0.0, 5.0) == 30.0      # on time: one period on
    assert log.next_due(0.0, 75.0) == 75.0     # overran: start now, once


def test_a_failed_cycle_counts_as_behind():
    log = stats.CycleLog('agent#0', 30.0, 1.0)
    log.started(0, 0.0)
    log.finished(1.0, error=True)
    assert log.summary()['errors'] == 1
    assert log.overruns() == 0 and log.late_starts() == 0
    assert log.behind()   # a failed cycle did not do its work


def test_the_first_error_is_kept_and_named_in_the_knee():
    log = stats.CycleLog('compute#0', 60.0, 1.0)
    for i, error in enumerate(['GET /v1/nodes -> 400 bad', 'later', None]):
        log.started(i * 60, i * 60.0)
        log.finished(i * 60.0 + 1, error=error)
    summary = log.summary()
    assert summary['errors'] == 2
    assert summary['first_error'] == 'GET /v1/nodes -> 400 bad'
    kinds = stats.lag_by_kind([summary])
    assert kinds['compute']['first_error'] == 'GET /v1/nodes -> 400 bad'
    reasons = stats.step_verdict({'interactive': {}, 'lag': kinds}, 1000.0)
    assert reasons == ['1/1 compute behind their 60 s period (2 failed '
                       'cycle(s), the first: GET /v1/nodes -> 400 bad)']


def test_lag_by_kind():
    a = _log([(0, 0.0, 1.0)]).summary()
    b = _log([(0, 0.0, 12.0)]).summary()
    b['consumer'] = 'compute#1'
    c = stats.CycleLog('agent#0', 30.0, 1.0).summary()
    kinds = stats.lag_by_kind([a, b, c])
    assert kinds['compute']['consumers'] == 2
    assert kinds['compute']['behind'] == 1
    assert kinds['compute']['max_cycle_s'] == 12.0
    assert kinds['agent'] == {'consumers': 1, 'behind': 0, 'cycles': 0,
                              'errors': 0, 'refused': 0, 'period_s': 30.0,
                              'max_cycle_s': 0.0, 'max_late_s': 0.0,
                              'first_error': None}


def test_ramp_grows_and_stops_at_the_maximum():
    assert stats.next_computes(1, 1.5, 1, 50) == 2
    assert stats.next_computes(4, 1.5, 1, 50) == 6
    assert stats.next_computes(10, 1.0, 5, 50) == 15
    assert stats.next_computes(40, 1.5, 1, 50) == 50
    assert stats.next_computes(50, 1.5, 1, 50) is None
    assert stats.agents_for(1, 0.2) == 1
    assert stats.agents_for(50, 0.2) == 10
    assert stats.agents_for(50, 0) == 0     # computes alone


def _step(n, p99=(10.0, 20.0, 30.0), behind=0, samples=100, errors=0):
    interactive = {op: {'samples': samples, 'p50_ms': 1.0, 'p99_ms': p,
                        'p999_ms': p, 'errors': errors}
                   for op, p in zip(cloudsim_load.OPS, p99)}
    return {'computes': n, 'agents': 1, 'interactive': interactive,
            'lag': {'compute': {'consumers': n, 'behind': behind,
                                'period_s': 60.0}},
            'processes': {'ironic-api': {'rss_max_mb': 120.0,
                                         'cpu_pct': 55.0}}}


def test_knee_on_interactive_p99():
    steps = [_step(1), _step(2), _step(3, p99=(10.0, 1500.0, 30.0))]
    knee = stats.knee(steps, 1000.0)
    assert knee['last_ok'] == 2 and knee['first_over'] == 3
    assert knee['reasons'] == ['node PATCH p99 1500 ms > 1000 ms']
    assert 'N = 2 holds, N = 3 does not' in stats.describe_knee(knee)


def test_knee_on_a_consumer_behind_and_on_failures():
    knee = stats.knee([_step(1), _step(2, behind=1)], 1000.0)
    assert knee['first_over'] == 2
    assert knee['reasons'] == ['1/2 compute behind their 60 s period']
    failing = stats.step_verdict(_step(1, samples=90, errors=10), 1000.0)
    assert 'node GET: 10 of 100 failed' in failing
    assert stats.step_verdict(_step(1, samples=0), 1000.0)[0] == (
        'node GET: no answer in the step')


def test_no_knee():
    knee = stats.knee([_step(1), _step(2)], 1000.0)
    assert knee == {'last_ok': 2, 'first_over': None, 'reasons': []}
    assert stats.describe_knee(knee).startswith('no knee')


def test_table():
    step = dict(_step(3, behind=1), loadavg=2.5)
    lines = stats.format_table([step], cloudsim_load.OPS).splitlines()
    assert lines[0].startswith('N | M | node GET p50/p99/p999 (n)')
    assert lines[1] == ('3 | 1 | 1/10/10 (100) | 1/20/20 (100) | '
                        '1/30/30 (100) | compute 1/3 | api 120MB/55% | 2.5')


def test_requests_are_those_of_the_consumers():
    assert cloudsim_load.shard_path('shard-01') == (
        '/v1/nodes?shard=shard-01&fields=uuid,power_state,'
        'target_power_state,provision_state,target_provision_state,'
        'last_error,maintenance,properties,instance_uuid,traits,'
        'resource_class')
    assert cloudsim_load.instance_path('abc').startswith(
        '/v1/nodes?instance_uuid=abc&fields=uuid,')
    node = '1be26c0b-03f2-4d2e-ae87-c02d7f33c123'
    assert (cloudsim_load.instance_uuid_for(node)
            == cloudsim_load.instance_uuid_for(node))


def test_operator_action_follows_the_state_read():
    op = cloudsim_load.Interactive(6385, ['n1'], 0.5)
    op.state = 'available'
    assert op._request('provision action', 'n1') == (
        'PUT', '/v1/nodes/n1/states/provision', {'target': 'manage'})
    op.state = 'manageable'
    assert op._request('provision action', 'n1')[2] == {'target': 'provide'}
    op.state = 'cleaning'
    assert op._request('provision action', 'n1') is None


class _FakeClient(object):
    def __init__(self, fail=()):
        self.calls = []
        self.fail = fail

    def call(self, method, path, body=None):
        self.calls.append((method, path, body))
        if method in self.fail:
            raise RuntimeError('%s %s -> 409' % (method, path))
        return 0.01, 200, {'provision_state': 'available'}


def test_operator_rotation_counts_samples_errors_and_skips():
    op = cloudsim_load.Interactive(6385, ['n1', 'n2'], 0.5)
    client = _FakeClient(fail=('PATCH',))
    results = [op.one(client) for _ in range(6)]
    assert results == [True, False, True, True, False, True]
    assert [c[0] for c in client.calls] == ['GET', 'PATCH', 'GET', 'PATCH']
    summary = op.summary()
    assert summary['node GET']['samples'] == 2
    assert summary['node PATCH']['errors'] == 2
    # The first failure is kept, to say why in the knee's reasons.
    assert summary['node PATCH']['first_error'] == (
        'RuntimeError: PATCH /v1/nodes/n1 -> 409')
    assert summary['node GET']['first_error'] is None
    # after the PATCH failed, the state read is forgotten: no action sent
    assert summary['provision action']['skipped'] == 2


def test_consumers_of_a_step():
    args = types.SimpleNamespace(period_scale=0.1, compute_period=60.0,
                                 lookup_period=10.0, agent_period=30.0,
                                 max_late=1.0, stale_lookups=1,
                                 together=False)
    targets = {'shards': ['a', 'b'], 'instances': ['i'], 'nodes': ['n']}
    consumers = cloudsim_load.build_consumers(6385, targets, 3, 1, args, 0)
    names = sorted(c.log.name for c in consumers)
    assert names == ['agent#0', 'compute#0', 'compute#1', 'compute#2',
                     'instance-lookup#0', 'instance-lookup#1',
                     'instance-lookup#2']
    periods = {c.log.name.split('#')[0]: c.log.period for c in consumers}
    assert periods == {'compute': 6.0, 'instance-lookup': 1.0, 'agent': 3.0}
    assert all(0 <= c.phase < c.log.period for c in consumers)
    # --together: every first cycle at the start, as after a restart.
    args.together = True
    consumers = cloudsim_load.build_consumers(6385, targets, 3, 1, args, 0)
    assert [c.phase for c in consumers] == [0.0] * 7


def test_defaults_follow_the_issue():
    args = cloudsim.parse_args([])
    assert (args.nodes, args.shards, args.db, args.layout) == (
        100000, 50, 'postgresql', 'split')
    assert args.max_computes == 50
    assert args.drain == 60.0
    scaled = cloudsim.parse_args(['--period-scale', '0.1'])
    assert scaled.drain == 6.0


def test_knee_names_the_period_scale():
    knee = {'last_ok': 2, 'first_over': 3, 'reasons': ['x']}
    assert 'Periods x 0.1: each consumer asks 10 times as often' in (
        stats.describe_knee(knee, 0.1))
    assert 'Periods' not in stats.describe_knee(knee, 1.0)


def test_next_link_read_from_the_end_of_the_body():
    body = (b'{"ports": [{"uuid": "p1", "extra": {"next": "not it"}}], '
            b'"next": "http://127.0.0.1:6385/v1/ports/detail?limit=1000'
            b'&marker=p1"}')
    assert cloudsim_load.next_link(body) == (
        'http://127.0.0.1:6385/v1/ports/detail?limit=1000&marker=p1')
    assert cloudsim_load.next_link(b'{"ports": []}') is None
    # escaped slashes are undone
    assert cloudsim_load.next_link(
        b'{"nodes": [], "next": "http:\\/\\/h\\/v1\\/nodes?marker=x"}') == (
        'http://h/v1/nodes?marker=x')
    # "next" elsewhere than at the end: the body is parsed after all
    assert cloudsim_load.next_link(
        b'{"next": "http://h/v1/nodes?marker=y", "nodes": []}') == (
        'http://h/v1/nodes?marker=y')


class _FakeConn(object):
    """Answers a shard list in two pages; ``next`` drops ``shard`` (as
    Ironic's does)."""

    def __init__(self):
        self.paths = []

    def request(self, method, path, headers=None):
        self.paths.append(path)

    def getresponse(self):
        if len(self.paths) == 1:
            raw = (b'{"nodes": [{"uuid": "a"}], "next": "http://h/v1/nodes'
                   b'?limit=1&marker=a&fields=uuid"}')
        else:
            raw = b'{"nodes": [{"uuid": "b"}]}'
        return types.SimpleNamespace(status=200, read=lambda: raw)


def test_walk_light_follows_next_and_keeps_the_shard():
    client = types.SimpleNamespace(conn=_FakeConn(), headers={})
    pages = cloudsim_load.walk_light(client, '/v1/nodes?shard=s1&fields=uuid')
    assert pages == 2
    assert client.conn.paths == [
        '/v1/nodes?shard=s1&fields=uuid',
        '/v1/nodes?limit=1&marker=a&fields=uuid&shard=s1']


class _Busy(object):
    """A connection answering ``statuses`` in turn."""

    def __init__(self, statuses):
        self.statuses = list(statuses)
        self.requests = 0

    def request(self, method, path, headers=None):
        self.requests += 1

    def getresponse(self):
        status = self.statuses.pop(0)
        return types.SimpleNamespace(status=status, read=lambda: b'{}')


def _get(statuses, delays):
    client = types.SimpleNamespace(conn=_Busy(statuses), headers={})
    try:
        return cloudsim_load.get_raw(client, '/v1/ports/detail',
                                     sleep=delays.append), client
    except RuntimeError as exc:
        return str(exc), client


def test_consumers_retry_409_and_503_as_the_sdk_does():
    delays = []
    body, client = _get([503, 409, 200], delays)
    assert body == b'{}' and delays == [0.5, 1.0]
    assert client.refusals == 2       # retried, and counted all the same
    error, client = _get([503] * 6, delays)
    # The answer's body is kept in the error: the report says why.
    assert error == 'GET /v1/ports/detail -> 503 {}'
    assert client.conn.requests == 6 and client.refusals == 6
    error, client = _get([404], delays)
    assert error == 'GET /v1/ports/detail -> 404 {}'
    assert client.conn.requests == 1
    assert not hasattr(client, 'refusals')


def test_refusals_are_summed_by_kind_and_shown():
    log = stats.CycleLog('agent#0', 30.0, 1.0)
    log.refused = 3
    kinds = stats.lag_by_kind([log.summary()])
    assert kinds['agent']['refused'] == 3 and kinds['agent']['behind'] == 0
    step = dict(_step(3), loadavg=1.0)
    step['lag'] = kinds
    line = stats.format_table([step], cloudsim_load.OPS).splitlines()[1]
    assert ' | agent refused 3 | ' in line


def test_a_service_of_several_processes_shows_its_largest():
    procs = {'ironic-api': {'rss_max_mb': 646.2, 'cpu_pct': 81.0,
                            'rss_max_process_mb': 251.4},
             'ironic-conductor': {'rss_max_mb': 127.0, 'cpu_pct': 3.0}}
    assert stats._proc_cell(procs) == (
        'api 646MB (one 251MB)/81% conductor 127MB/3%')


class _Stale(_Busy):
    """A kept-alive connection the server closed: the first ``drops``
    requests fail as http.client fails them, then ``statuses`` answer."""

    def __init__(self, drops, statuses):
        super().__init__(statuses)
        self.drops = drops
        self.closed = 0

    def getresponse(self):
        if self.drops:
            self.drops -= 1
            raise http.client.RemoteDisconnected(
                'Remote end closed connection without response')
        return super().getresponse()

    def close(self):
        self.closed += 1


def test_a_connection_closed_while_idle_is_reopened_once():
    """As urllib3's pool does for openstacksdk: a GET on a connection the
    server closed is sent again on a new one -- once."""
    client = types.SimpleNamespace(conn=_Stale(1, [200]), headers={})
    assert cloudsim_load.get_raw(client, '/v1/nodes') == b'{}'
    assert client.conn.requests == 2 and client.conn.closed == 1
    client = types.SimpleNamespace(conn=_Stale(2, [200]), headers={})
    with pytest.raises(http.client.RemoteDisconnected):
        cloudsim_load.get_raw(client, '/v1/nodes')
