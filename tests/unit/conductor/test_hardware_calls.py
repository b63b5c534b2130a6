"""BMCs that never answer (issue 35): a synchronous call that talks to
one answers HardwareTimeout at its deadline, in the all-in-one's own
thread as over RPC, while its worker finishes on its own; the API's
threads that wait for BMCs are bounded; the power state sync leaves a
hung node behind and syncs the others; the reserved part of the pool is
kept for the API."""

import threading

import pytest

from ironic_lite.common import exception
from ironic_lite.common import rpc
from ironic_lite.conductor import power
from ironic_lite.conductor import hardware_gate
from ironic_lite.conductor import worker_pool
from ironic_lite.drivers import fake_hardware
from ironic_lite import objects
from tests.unit.conductor import conftest
from tests.unit.conductor.conftest import HOST
from tests import timeouts


@pytest.fixture
def hung(monkeypatch):
    """Every read of a fake node's boot device hangs
    until the test ends (``release``); ``entered`` counts the calls."""
    release = threading.Event()
    entered = []

    def hang(self, task, *args):
        entered.append(task.node.uuid)
        release.wait(timeouts.HANG)
        return {'boot_device': 'pxe', 'persistent': False}
    monkeypatch.setattr(fake_hardware.FakeManagement, 'get_boot_device',
                        hang)
    yield release, entered
    release.set()


def test_the_timeout_is_just_below_rpc_response_timeout(config):
    config.set_override('rpc_response_timeout', 60)
    assert rpc.hardware_call_timeout() == 55
    config.set_override('rpc_response_timeout', 3)
    assert rpc.hardware_call_timeout() == pytest.approx(2.4)


def test_run_bounded_answers_at_the_deadline_worker_goes_on():
    pool = worker_pool.WorkerPool(3)
    release = threading.Event()
    try:
        with pytest.raises(exception.HardwareTimeout) as err:
            pool.run_bounded(0.2, 'node-1', release.wait, timeouts.HANG)
        assert err.value.code == 503
        assert 'node-1 did not answer within 0.2 seconds' in str(err.value)
        # The abandoned call keeps its worker until it ends.
        assert pool.in_flight == 1
        release.set()
        assert pool.wait(timeouts.HANG) == 0
        assert pool.in_flight == 0
        assert pool.run_bounded(1, 'node-1', lambda: 42) == 42
        with pytest.raises(KeyError):
            pool.run_bounded(1, 'node-1', {}.__getitem__, 'x')
    finally:
        release.set()
        pool.shutdown()


def test_the_reserved_workers_are_kept_for_the_api():
    pool = worker_pool.WorkerPool(20, reserved_percentage=10)
    try:
        slots = [pool.claim(reserved=False) for _ in range(18)]
        with pytest.raises(exception.NoFreeConductorWorker):
            pool.claim(reserved=False)
        slots += [pool.claim(), pool.claim()]
        with pytest.raises(exception.NoFreeConductorWorker):
            pool.claim()
        for slot in slots:
            slot.cancel()
        assert pool.in_flight == 0
    finally:
        pool.shutdown()


def test_a_hung_bmc_answers_503_in_place_and_frees_the_caller(
        config, rpc_api, context, make_node, hung):
    """fake:// dispatches in the caller's thread (the all-in-one's API
    thread): the call still ends at the deadline."""
    config.set_override('rpc_response_timeout', 2)
    release, entered = hung
    node = make_node()
    with pytest.raises(exception.HardwareTimeout) as err:
        rpc_api.get_boot_device(context, node)
    assert err.value.code == 503
    assert node.uuid in str(err.value)
    assert entered == [node.uuid]
    # Another node's request is served meanwhile.
    other = make_node()
    assert rpc_api.get_supported_boot_devices(context, other)


def test_the_api_threads_waiting_for_bmcs_are_bounded(
        config, rpc_api, context, make_node, hung):
    config.set_override('rpc_response_timeout', 30)
    config.set_override('max_concurrent_hardware_calls', 2, 'api')
    # Under another WSGI server than ironic-lite's (no lane), a request
    # waits for its turn in its thread, 1 s here.
    config.set_override('request_queue_timeout', 1, 'api')
    release, entered = hung
    nodes = [make_node() for _ in range(3)]
    errors = []

    def ask(node):
        try:
            rpc_api.get_boot_device(context, node)
        except exception.IronicException as err:
            errors.append(err)
    threads = [threading.Thread(target=ask, args=(n,)) for n in nodes[:2]]
    for thread in threads:
        thread.start()
    try:
        conftest.wait_for(lambda: len(entered) == 2, what='two calls waiting')
        with pytest.raises(exception.ServiceUnavailable) as err:
            rpc_api.get_boot_device(context, nodes[2])
        assert 'not carried out' in str(err.value)
        assert 'request_queue_timeout' in str(err.value)
        assert len(entered) == 2   # nothing was sent
        # Calls that talk to no BMC are not bounded.
        assert rpc_api.vif_list(context, nodes[2]) == []
    finally:
        release.set()
        for thread in threads:
            thread.join(timeouts.HANG)
    assert errors == []
    assert hardware_gate._slots()._value == 2


def test_power_sync_leaves_a_hung_node_behind(config, context, conductor,
                                              make_node, monkeypatch):
    config.set_override('rpc_response_timeout', 2)
    config.set_override('sync_power_state_workers', 2, 'conductor')
    release = threading.Event()
    hung = make_node(provision_state='manageable', power_state=None)
    others = [make_node(provision_state='manageable', power_state=None)
              for _ in range(4)]

    def read(self, task):
        if task.node.uuid == hung.uuid:
            release.wait(timeouts.HANG)
        return 'power on'
    monkeypatch.setattr(fake_hardware.FakePower, 'get_power_state', read)
    try:
        power.sync_power_states(context, HOST, conductor.manager._pool)
        for node in others:
            assert objects.Node.get(context, node.uuid).power_state == (
                'power on')
        # Left behind, still running: its node stays locked meanwhile.
        assert objects.Node.get(context, hung.uuid).power_state is None
    finally:
        release.set()
