"""The lanes of ironic-api's HTTP server (api/lanes.py): requests that
wait for a BMC take at most [api]max_concurrent_hardware_calls worker
threads; the others wait their turn in the server, holding no thread,
and are served once a turn comes -- or answered 503 after
[api]request_queue_timeout.

The API runs in the real HTTP server with 4 worker threads and both
lanes, as ironic-api's; the fake conductor's boot device read blocks on
an event (a BMC that does not answer).  No test times anything: a
request that would wait for the blocked ones waits a hang's time
(timeouts.HANG) and fails; a wait that must run out is 1 s, and only its
outcome is checked.
"""

import json
import threading

import pytest

from ironic_lite.api import app as api_app
from ironic_lite.api import lanes
from ironic_lite.common import wsgi
from tests import timeouts
from tests.unit.api import conftest
from tests.unit.api import served


@pytest.fixture
def slow_bmc(rpcapi, monkeypatch):
    """get_boot_device waits for ``release``; ``entered`` is released
    once per call that reached the "BMC"."""
    entered = threading.Semaphore(0)
    release = threading.Event()
    read = rpcapi.get_boot_device

    def blocking(context, node):
        entered.release()
        assert release.wait(timeouts.HANG), 'never released'
        return read(context, node)
    monkeypatch.setattr(rpcapi, 'get_boot_device', blocking)
    yield entered, release
    release.set()


@pytest.fixture
def server(client, rpcapi, node, slow_bmc):
    conftest.CONF.set_override('max_concurrent_hardware_calls', 2,
                               group='api')
    app = api_app.setup_app(rpcapi_factory=lambda: rpcapi)
    service = wsgi.WSGIService('test-api', app, '127.0.0.1', 0, threads=4,
                               lanes=lanes.server_lanes())
    service.start()
    yield service
    slow_bmc[1].set()
    service.stop()


def _in_threads(service, path, count):
    results = []
    threads = [served.in_thread(service, path, results)
               for _ in range(count)]
    return threads, results


def _hardware_lane(service):
    [lane] = [lane for lane in service.server.lanes
              if lane.classify is lanes.is_hardware_request]
    return lane


def test_a_burst_of_bmc_calls_is_served_in_turn(server, node, slow_bmc):
    """6 boot device reads at once with 2 turns: 2 wait for the BMC, 4
    wait in the server holding no thread -- a node GET is answered
    meanwhile -- and all 6 are served once the BMC answers."""
    entered, release = slow_bmc
    lane = _hardware_lane(server)
    path = '/v1/nodes/%s/management/boot_device' % node['uuid']
    threads, results = _in_threads(server, path, 6)
    for _ in range(2):
        assert entered.acquire(timeout=timeouts.HANG)
    assert served.wait_for(lambda: lane.waiting() == 4)
    status, body = served.get(server, '/v1/nodes/%s' % node['uuid'])
    assert status == 200, body
    assert not entered.acquire(blocking=False), 'a third call reached it'
    release.set()
    for thread in threads:
        thread.join(timeouts.HANG)
    assert [status for status, _ in results] == [200] * 6
    assert lane.high_water == 2 and lane.expired == 0


def test_a_bmc_call_without_a_turn_in_time_is_answered_503(server, node,
                                                           slow_bmc):
    entered, release = slow_bmc
    lane = _hardware_lane(server)
    lane.wait = 1
    path = '/v1/nodes/%s/management/boot_device' % node['uuid']
    threads, results = _in_threads(server, path, 2)
    for _ in range(2):
        assert entered.acquire(timeout=timeouts.HANG)
    status, body = served.get(server, path)
    assert status == 503, body
    fault = json.loads(json.loads(body)['error_message'])['faultstring']
    assert 'waiting for a BMC' in fault and 'not carried out' in fault
    assert lane.expired == 1
    assert not entered.acquire(blocking=False), 'the late call reached it'
    release.set()
    for thread in threads:
        thread.join(timeouts.HANG)
    assert [status for status, _ in results] == [200, 200]


@pytest.mark.parametrize('method,path,hardware', [
    ('GET', '/v1/nodes/n1/management/boot_device', True),
    ('PUT', '/v1/nodes/n1/management/boot_device', True),
    ('GET', '/v1/nodes/n1/management/boot_device/supported', True),
    ('PUT', '/v1/nodes/n1/management/inject_nmi', True),
    ('GET', '/v1/nodes/n1/management/indicators/system@led', True),
    ('GET', '/v1/nodes/n1/validate', True),
    ('POST', '/v1/nodes/n1/vendor_passthru', True),
    ('GET', '/v1/nodes/n1/vendor_passthru/methods', False),
    ('GET', '/v1/nodes/n1', False),
    ('GET', '/v1/nodes/n1/states', False),
    ('PUT', '/v1/nodes/n1/states/power', False),
    ('GET', '/v1/nodes/detail', False),
    ('GET', '/v1/drivers/redfish/vendor_passthru', False),
])
def test_which_requests_wait_for_a_bmc(method, path, hardware):
    """The synchronous calls of conductor/rpcapi_hardware.METHODS; a
    power action is asynchronous (202) and waits for no BMC."""
    assert lanes.is_hardware_request(method, path, '') is hardware


def test_the_lanes_follow_the_options():
    conftest.CONF.set_override('max_concurrent_hardware_calls', 0,
                               group='api')
    conftest.CONF.set_override('max_concurrent_large_lists', 0, group='api')
    assert lanes.server_lanes() == []
    conftest.CONF.set_override('max_concurrent_hardware_calls', 3,
                               group='api')
    [lane] = lanes.server_lanes()
    assert (lane.running, lane.wait) == (3, 30)


def test_the_large_page_line_is_two_per_api_process_unless_set():
    """Unset, [api]max_concurrent_large_lists is 2 for each API process
    of the service (the lane the workers share); a value set is the
    whole service's, however many processes; 0 is no line."""
    conftest.CONF.set_override('max_concurrent_hardware_calls', 0,
                               group='api')
    conftest.CONF.clear_override('max_concurrent_large_lists', group='api')
    assert conftest.CONF.api.max_concurrent_large_lists is None
    for processes, running in ((1, 2), (2, 4), (4, 8)):
        [lane] = lanes.server_lanes(processes)
        assert lane.running == running
    conftest.CONF.set_override('max_concurrent_large_lists', 3, group='api')
    [lane] = lanes.server_lanes(4)
    assert lane.running == 3
    conftest.CONF.set_override('max_concurrent_large_lists', 0, group='api')
    assert lanes.server_lanes(4) == []
