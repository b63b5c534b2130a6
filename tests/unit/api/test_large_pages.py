"""Large list pages cannot take every worker thread (issue 20), and a
burst of them is served in turn, not refused (issue 34).

The API runs in the real HTTP server with 4 worker threads, its large
pages admitted by the server's lane as ironic-api's are; large pages
(more than [api]large_list_threshold items: detailed node pages, any
port or port group page) block on an event while reading.  No test
times anything: a request that would wait for the blocked pages waits a
hang's time (timeouts.HANG) and fails; a wait that must run out
([api]request_queue_timeout) is 1 s, and only its outcome is checked.
"""

import json
import threading
import types
from unittest import mock

import pytest

from ironic_lite.api import app as api_app
from ironic_lite.api.controllers.v1 import node_list
from ironic_lite.api.controllers.v1 import resource
from ironic_lite.api import large_pages
from ironic_lite.common import wsgi
from tests import timeouts
from tests.unit.api import conftest
from tests.unit.api import served

HEAVY = '/v1/nodes/detail?limit=2'


@pytest.fixture(autouse=True)
def fresh_returns(monkeypatch):
    """No memory return is remembered from another test (at most one per
    RETURN_EVERY seconds)."""
    monkeypatch.setattr(large_pages, '_returned',
                        {'at': None, 'timer': None})
    monkeypatch.setattr(large_pages, '_lane', None)


@pytest.fixture
def blocked(monkeypatch):
    """Large pages wait for ``release`` inside the gate; ``entered`` is
    released once per large page rendering."""
    entered = threading.Semaphore(0)
    release = threading.Event()
    render = node_list._read_and_render
    list_objects = resource.ResourceController.list_objects

    def block(limit):
        if limit > 1:
            entered.release()
            assert release.wait(timeouts.HANG), 'never released'

    def blocking(ctx, params, limit, *args):
        block(limit)
        return render(ctx, params, limit, *args)

    def blocking_list(self, ctx, limit, *args):
        block(limit)
        return list_objects(self, ctx, limit, *args)
    monkeypatch.setattr(node_list, '_read_and_render', blocking)
    monkeypatch.setattr(resource.ResourceController, 'list_objects',
                        blocking_list)
    monkeypatch.setattr(large_pages, '_gate', None)
    yield entered, release
    release.set()


def _serve(rpcapi, blocked, lane):
    conftest.CONF.set_override('large_list_threshold', 1, group='api')
    conftest.CONF.set_override('max_concurrent_large_lists', 2,
                               group='api')
    app = api_app.setup_app(rpcapi_factory=lambda: rpcapi)
    service = wsgi.WSGIService('test-api', app, '127.0.0.1', 0, threads=4,
                               lanes=[large_pages.lane()] if lane else ())
    service.start()
    return service


@pytest.fixture
def server(client, rpcapi, node, blocked):
    """The API in ironic-lite's own server: large pages wait in its lane."""
    service = _serve(rpcapi, blocked, lane=True)
    yield service
    blocked[1].set()
    service.stop()


@pytest.fixture
def bare_server(client, rpcapi, node, blocked):
    """The API in a server with no lane (as under uwsgi or mod_wsgi):
    large pages wait in the application's gate, each in its thread."""
    service = _serve(rpcapi, blocked, lane=False)
    yield service
    blocked[1].set()
    service.stop()


def test_a_burst_of_heavy_pages_is_served_in_turn(server, node, blocked):
    """4 worker threads; 10 large pages asked for at once: 2 render
    (blocked), 8 wait in the server's lane holding no thread -- a
    one-node GET is answered meanwhile -- and once released all 10 are
    served, never more than 2 at once.  (The first bound refused the
    fifth page with a 503; without any bound the pages would take every
    thread and the GET would wait for them, a hang's time.)"""
    entered, release = blocked
    lane = server.server.lanes[0]
    results = []
    threads = [served.in_thread(server, HEAVY, results) for _ in range(10)]
    for _ in range(2):
        assert entered.acquire(timeout=timeouts.HANG)
    assert served.wait_for(lambda: lane.waiting() == 8)
    status, body = served.get(server, '/v1/nodes/%s' % node['uuid'])
    assert status == 200, body
    assert not entered.acquire(blocking=False), 'a third page rendered'
    release.set()
    for thread in threads:
        thread.join(timeouts.HANG)
    assert [status for status, _ in results] == [200] * 10
    assert lane.high_water == 2 and lane.waited == 8
    assert lane.expired == 0 and large_pages.gate().refused == 0


def _fault(body):
    return json.loads(json.loads(body)['error_message'])['faultstring']


def test_a_page_not_served_in_time_is_answered_503(server, node, blocked):
    """[api]request_queue_timeout = 1: a page that waited that long while
    the 2 slots stay busy is answered a retry-safe 503, nothing done;
    the pages that rendered are served."""
    conftest.CONF.set_override('request_queue_timeout', 1, group='api')
    server.server.lanes[0].wait = 1
    entered, release = blocked
    results = []
    threads = [served.in_thread(server, HEAVY, results) for _ in range(2)]
    for _ in range(2):
        assert entered.acquire(timeout=timeouts.HANG)
    status, body = served.get(server, HEAVY)
    assert status == 503, body
    assert 'request_queue_timeout' in _fault(body)
    assert 'not carried out' in _fault(body)
    assert server.server.lanes[0].expired == 1
    assert not entered.acquire(blocking=False), 'the late page rendered'
    release.set()
    for thread in threads:
        thread.join(timeouts.HANG)
    assert [status for status, _ in results] == [200, 200]


def test_without_the_lane_pages_wait_in_the_gate(bare_server, node,
                                                 blocked):
    """Under another WSGI server (no lane), the application's gate still
    renders 2 at once: a third page waits in its thread and is served
    once a slot frees; with request_queue_timeout = 1 a page that cannot get
    a slot in time is answered 503."""
    entered, release = blocked
    results = []
    threads = [served.in_thread(bare_server, HEAVY, results) for _ in range(3)]
    for _ in range(2):
        assert entered.acquire(timeout=timeouts.HANG)
    gate = large_pages.gate()
    assert served.wait_for(lambda: gate.in_line == 1)
    gate.timeout = 1
    status, body = served.get(bare_server, HEAVY)
    assert status == 503 and 'request_queue_timeout' in _fault(body), body
    assert gate.refused == 1
    release.set()
    for thread in threads:
        thread.join(timeouts.HANG)
    assert [status for status, _ in results] == [200] * 3


def test_small_and_plain_pages_are_not_bounded(server, blocked):
    """A plain list of 1,000 (few columns) and a detailed page within the
    threshold never wait for the gate."""
    conftest.CONF.set_override('max_concurrent_large_lists', 1,
                               group='api')
    assert not large_pages.is_large(1000, False, False)
    assert large_pages.is_large(1000, False, True)
    assert not large_pages.is_large(1, True, False)
    status, _ = served.get(server, '/v1/nodes/detail?limit=1')
    assert status == 200


@pytest.fixture
def two_of_each(client, node):
    """Two nodes and two ports: a page of limit=2 holds more than the
    threshold (1) of this module."""
    other = client.post_json('/v1/nodes', {'driver': 'fake-hardware'})
    assert other.status_int == 201, other.text
    for i, owner in enumerate((node, other.json)):
        resp = client.post_json('/v1/ports', {
            'node_uuid': owner['uuid'], 'address': '52:54:00:00:0a:0%d' % i})
        assert resp.status_int == 201, resp.text


@pytest.mark.parametrize('heavy', [HEAVY, '/v1/ports/detail?limit=2'])
def test_memory_is_returned_after_the_last_large_page(server, node, heavy,
                                                      two_of_each, blocked,
                                                      monkeypatch):
    """gc.collect() and malloc_trim() run once a large page has been
    answered and no other is rendered or waiting -- not after a light
    request, and not while another large page is in flight."""
    entered, release = blocked
    collect = mock.Mock()
    monkeypatch.setattr(large_pages.gc, 'collect', collect)
    # Called once a response is written (after the client has it).
    calls = mock.Mock(wraps=large_pages.return_memory)
    monkeypatch.setattr(large_pages, 'return_memory', calls)
    status, _ = served.get(server, '/v1/nodes/%s' % node['uuid'])
    assert status == 200
    results = []
    first = served.in_thread(server, heavy, results)
    assert entered.acquire(timeout=timeouts.HANG)
    with large_pages.gate().held():   # another large page in flight
        release.set()
        first.join(timeouts.HANG)
        assert results[0][0] == 200
        assert served.wait_for(lambda: calls.call_count == 1)
        assert not collect.called
    status, _ = served.get(server, heavy)
    assert status == 200
    assert served.wait_for(lambda: calls.call_count == 2)
    assert collect.call_count == 1


def test_a_short_page_of_a_large_limit_keeps_its_memory(server, node,
                                                        blocked,
                                                        monkeypatch):
    """A page that may be large (limit above the threshold) waits for the
    gate, but one that turned out short -- one node here, a plain port
    group list of a few dozen in a cloud -- does not pay for a full
    collection once answered."""
    blocked[1].set()
    calls = mock.Mock(wraps=large_pages.return_memory)
    monkeypatch.setattr(large_pages, 'return_memory', calls)
    collect = mock.Mock()
    monkeypatch.setattr(large_pages.gc, 'collect', collect)
    for path in (HEAVY, '/v1/ports?limit=2', '/v1/portgroups?limit=2'):
        status, _ = served.get(server, path)
        assert status == 200, path
    status, _ = served.get(server, '/v1/nodes/%s' % node['uuid'])
    assert status == 200
    assert not calls.called and not collect.called


def test_a_plain_port_page_keeps_its_memory(server, two_of_each, blocked,
                                            monkeypatch):
    """A plain port list of more than the threshold waits for the gate
    but does not run the full collection while it is being sent."""
    blocked[1].set()
    calls = mock.Mock(wraps=large_pages.return_memory)
    monkeypatch.setattr(large_pages, 'return_memory', calls)
    status, body = served.get(server, '/v1/ports?limit=2')
    assert status == 200 and len(json.loads(body)['ports']) == 2
    assert not calls.called
    status, _ = served.get(server, '/v1/ports/detail?limit=2')
    assert status == 200
    assert served.wait_for(lambda: calls.call_count == 1)


PORT_PAGES = ['/v1/ports/detail?limit=2', '/v1/ports?limit=2',
              '/v1/portgroups/detail?limit=2', '/v1/portgroups?limit=2',
              '/v1/ports?limit=2&fields=uuid',
              '/v1/nodes/node-0/ports?limit=2',
              '/v1/nodes/node-0/ports/detail?limit=2',
              '/v1/nodes/node-0/portgroups?limit=2']


def test_port_pages_wait_in_the_node_pages_line(server, node, blocked):
    """One line for every kind: with 2 node pages rendering, a port page
    and a port group page wait their turn -- not a pool each, which
    would let as many more heavy pages take the threads."""
    entered, release = blocked
    results = []
    threads = [served.in_thread(server, HEAVY, results) for _ in range(2)]
    for _ in range(2):
        assert entered.acquire(timeout=timeouts.HANG)
    threads.append(served.in_thread(server, PORT_PAGES[0], results))
    threads.append(served.in_thread(server, '/v1/portgroups/detail?limit=2',
                                    results))
    assert served.wait_for(lambda: server.server.lanes[0].waiting() == 2)
    status, body = served.get(server, '/v1/nodes/%s' % node['uuid'])
    assert status == 200, body
    release.set()
    for thread in threads:
        thread.join(timeouts.HANG)
    assert [status for status, _ in results] == [200] * 4
    assert server.server.lanes[0].high_water == 2


@pytest.fixture
def full_gate(bare_server, blocked):
    """Every slot of the application's gate held, a page waits 1 s at
    most (and no page blocked in its reading)."""
    blocked[1].set()
    conftest.CONF.set_override('request_queue_timeout', 1, group='api')
    large_pages._gate = None
    gate = large_pages.gate()
    with gate.held(), gate.held():
        yield gate


def _large_request(path):
    """What the HTTP server's lane makes of ``path``."""
    path, _, query = path.partition('?')
    return large_pages.is_large_request('GET', path, query)


@pytest.mark.parametrize('path', PORT_PAGES)
def test_large_port_and_portgroup_pages_are_bounded(bare_server,
                                                    full_gate, path):
    """Plain lists too: a port or port group list reads whole rows
    whatever it renders.  The server's lane sees them as the
    application does."""
    status, body = served.get(bare_server, path)
    assert status == 503, body
    assert full_gate.refused == 1
    assert _large_request(path)


@pytest.mark.parametrize('path', [
    '/v1/ports/detail?limit=1', '/v1/portgroups?limit=1',
    '/v1/nodes?limit=2', '/v1/chassis/detail?limit=2',
    '/v1/conductors?limit=2'])
def test_other_pages_are_not_bounded(bare_server, full_gate, path):
    """Pages within the threshold, plain node lists (a few columns), and
    the few rows of chassis and conductors never wait for the gate, nor
    in the server's lane."""
    status, body = served.get(bare_server, path)
    assert status == 200, body
    assert full_gate.refused == 0
    assert not _large_request(path)


def test_an_instance_lookup_is_never_queued(bare_server, full_gate):
    """nova looks a node up by instance (with its field list, at the
    default limit) for every instance action: one node at most, so it
    does not wait behind the computes' large pages."""
    fields = 'uuid,power_state,provision_state,instance_uuid,traits'
    big = '/v1/nodes?fields=%s&limit=1000' % fields
    status, _ = served.get(bare_server, big)
    assert status == 503 and full_gate.refused == 1
    lookup = '/v1/nodes?instance_uuid=%s&fields=%s' % (
        '6f1d5a0e-2b8c-4c2e-9d4f-0a1b2c3d4e5f', fields)
    status, body = served.get(bare_server, lookup)
    assert status == 200, body
    assert json.loads(body) == {'nodes': []}
    assert full_gate.refused == 1
    assert _large_request(big) and not _large_request(lookup)


def test_memory_is_returned_at_most_once_a_second(monkeypatch):
    """A walk of many large pages leaves the gate idle between them: the
    collection runs after the first, is put off after the next ones, and
    runs once more after the last, RETURN_EVERY seconds on."""
    conftest.CONF.set_override('max_concurrent_large_lists', 2,
                               group='api')
    monkeypatch.setattr(large_pages, '_gate', None)
    collect = mock.Mock()
    monkeypatch.setattr(large_pages.gc, 'collect', collect)
    monkeypatch.setattr(large_pages, 'RETURN_EVERY', 0.3)
    # The clock the throttle reads is the test's: however slow the
    # machine, the next pages come "within" RETURN_EVERY.
    clock = [100.0]
    monkeypatch.setattr(large_pages, 'time',
                        types.SimpleNamespace(monotonic=lambda: clock[0]))
    large_pages.return_memory()
    assert collect.call_count == 1
    clock[0] = 100.1
    for _ in range(5):
        large_pages.return_memory()
    assert collect.call_count == 1
    timer = large_pages._returned['timer']
    assert timer is not None
    clock[0] = 101.0    # the deferred return finds the second passed
    assert served.wait_for(lambda: collect.call_count == 2)
    timer.join(timeouts.HANG)
    assert large_pages._returned['timer'] is None


def test_no_memory_is_returned_while_pages_wait_in_the_lane(monkeypatch):
    """A burst waiting in the server's lane returns the memory once,
    after its last page, not after each (the gate is idle between two of
    them: the next is handed over only once the previous is answered)."""
    conftest.CONF.set_override('max_concurrent_large_lists', 2,
                               group='api')
    monkeypatch.setattr(large_pages, '_gate', None)
    collect = mock.Mock()
    monkeypatch.setattr(large_pages.gc, 'collect', collect)
    waiting = [3]
    monkeypatch.setattr(large_pages, '_lane', types.SimpleNamespace(
        waiting=lambda: waiting[0]))
    large_pages.return_memory()
    assert not collect.called
    waiting[0] = 0
    large_pages.return_memory()
    assert collect.call_count == 1
