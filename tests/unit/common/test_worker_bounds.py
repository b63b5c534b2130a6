"""The bounds that API worker processes share (common/worker_bounds.py),
and a lane counted over workers (common/admission.py).  Two workers'
views of one Bounds in one process: the memory is the same one that
forked workers share."""

import types

from ironic_lite.common import admission
from ironic_lite.common import worker_bounds


def _pair(per_client=2, lanes=0):
    bounds = worker_bounds.Bounds(2, max_connections=10,
                                  per_client=per_client, lanes=lanes)
    return bounds, bounds.worker(0), bounds.worker(1)


def test_connections_are_counted_over_workers():
    _bounds, one, two = _pair()
    a = one.address_key('192.0.2.1')
    one.opened(a)
    two.opened(a)
    two.opened(two.address_key('192.0.2.2'))
    assert one.total_connections() == two.total_connections() == 3
    two.closed(a)
    assert one.total_connections() == 2


def test_an_address_s_connections_elsewhere_and_their_idle_ones():
    _bounds, one, two = _pair()
    a, b = one.address_key('192.0.2.1'), one.address_key('2001:db8::1')
    assert a != b and a == two.address_key('192.0.2.1')
    two.opened(a)
    two.opened(a)
    two.opened(b)
    assert one.elsewhere(a) == (2, 0, None)   # none idle yet
    two.publish_idle({a: 1})
    assert one.elsewhere(a) == (2, 1, 1)
    assert one.elsewhere(b) == (1, 0, None)
    assert two.elsewhere(a) == (0, 0, None)   # its own are not elsewhere
    two.closed(a)
    two.closed(a)
    assert one.elsewhere(a) == (0, 0, None)


def test_a_worker_asked_to_make_room_reads_each_request_once():
    _bounds, one, two = _pair()
    a = one.address_key('192.0.2.1')
    one.ask_to_close_idle(1, a)
    assert one.asked() == []
    assert two.asked() == [a]
    assert two.asked() == []


def test_a_replacement_worker_clears_what_the_dead_one_held():
    bounds, one, two = _pair(lanes=1)
    a = one.address_key('192.0.2.1')
    two.opened(a)
    two.lane_cells(0)[1] = 3
    again = bounds.worker(1)
    assert one.total_connections() == 0
    assert one.elsewhere(a) == (0, 0, None)
    assert again.lane_cells(0)[1] == 0


def test_no_per_client_cap_keeps_no_address_table():
    _bounds, one, _two = _pair(per_client=0)
    a = one.address_key('192.0.2.1')
    one.opened(a)
    one.closed(a)
    assert one.total_connections() == 0


class _Channel(object):
    connected = True


def _request():
    return types.SimpleNamespace(error=None, command='GET', path='/x',
                                 query='')


def _shared_lanes(running=1):
    _bounds, one, two = _pair(lanes=1)
    dispatched = []
    lanes = []
    for view in (one, two):
        lane = admission.Lane(lambda *a: True, running, wait=30,
                              dispatch=dispatched.append)
        lane.share(view, view.lane_cells(0))
        lanes.append(lane)
    return lanes, dispatched


def test_a_lane_runs_at_most_its_figure_over_all_workers():
    (first, second), dispatched = _shared_lanes(running=1)
    served = _request()
    assert first.take(_Channel(), served)
    waiting, channel = _request(), _Channel()
    assert not second.take(channel, waiting)   # the slot is the first's
    assert first.running_now() == second.running_now() == 1
    assert second.in_flight == 0 and second.waiting() == 1
    first.done(served)
    assert dispatched == []        # the second worker's line: its turn
    second.expire()
    assert dispatched == [channel] and waiting.lane_state == 'slot'
    assert first.running_now() == 1 and second.in_flight == 1
    second.done(waiting)
    assert first.running_now() == 0
