"""The supervisor of several API processes (common/workers.py), with
real child processes that run small functions instead of a server: each
child records its lives in a file of its own under ``tmp_path``."""

import os
import signal
import threading

import pytest

from ironic_lite.common import launcher
from ironic_lite.common import workers
from tests import timeouts


@pytest.fixture(autouse=True)
def quick(monkeypatch):
    monkeypatch.setattr(workers, 'RESTART_DELAY', 0)
    monkeypatch.setattr(workers, '_STOP_MARGIN', 0)


def _life(tmp_path, index, note=''):
    """Record a life of worker ``index``; how many it has had."""
    path = tmp_path / ('worker-%d' % index)
    with open(path, 'a') as f:
        f.write('%d %s\n' % (os.getpid(), note))
    return len(path.read_text().splitlines())


def _lives(tmp_path, index):
    path = tmp_path / ('worker-%d' % index)
    return path.read_text().splitlines() if path.exists() else []


def _wait_file(path):
    """Until ``path`` holds a whole line (``_life`` opens the file, so
    creates it, before it writes the line); a hang (timeouts.HANG)
    fails."""
    pause = threading.Event()
    for _ in range(int(timeouts.HANG / 0.02)):
        if path.exists() and path.read_text().endswith('\n'):
            return
        pause.wait(0.02)
    raise AssertionError('%s never appeared' % path)


def _until_stopped(on_hup=None):
    """Block until SIGTERM; 0 (a clean stop)."""
    stopped = threading.Event()
    signal.signal(signal.SIGTERM, lambda *a: stopped.set())
    if on_hup:
        signal.signal(signal.SIGHUP, lambda *a: on_hup())
    return stopped


def test_a_worker_that_is_killed_is_started_again(tmp_path):
    def run_worker(index):
        stopped = _until_stopped()
        lives = _life(tmp_path, index)
        if index == 0 and lives == 1:
            os.kill(os.getpid(), signal.SIGKILL)   # its first life
        if index == 0:
            _wait_file(tmp_path / 'worker-1')
            os.kill(os.getppid(), signal.SIGTERM)
        stopped.wait(timeouts.HANG)
        return 0

    assert workers.Supervisor(2, run_worker).run() == 0
    first, second = _lives(tmp_path, 0)
    assert first.split()[0] != second.split()[0]   # two processes
    assert len(_lives(tmp_path, 1)) == 1


def test_sighup_reaches_every_worker(tmp_path):
    def run_worker(index):
        stopped = _until_stopped(
            on_hup=lambda: _life(tmp_path, 10 + index, 'hup'))
        _life(tmp_path, index)
        if index == 0:
            _wait_file(tmp_path / 'worker-1')
            os.kill(os.getppid(), signal.SIGHUP)
            _wait_file(tmp_path / 'worker-10')
            _wait_file(tmp_path / 'worker-11')
            os.kill(os.getppid(), signal.SIGTERM)
        stopped.wait(timeouts.HANG)
        return 0

    assert workers.Supervisor(2, run_worker).run() == 0
    assert [line.split()[1] for line in _lives(tmp_path, 10)] == ['hup']
    assert [line.split()[1] for line in _lives(tmp_path, 11)] == ['hup']


def test_a_worker_that_fails_its_stop_makes_the_exit_code_1(tmp_path):
    def run_worker(index):
        stopped = _until_stopped()
        _life(tmp_path, index)
        if index == 0:
            _wait_file(tmp_path / 'worker-1')
            os.kill(os.getppid(), signal.SIGTERM)
        stopped.wait(timeouts.HANG)
        return 1 if index == 1 else 0

    assert workers.Supervisor(2, run_worker).run() == 1


def test_a_worker_that_outlives_the_stop_bound_is_killed(tmp_path,
                                                         conf_fixture):
    conf_fixture.config(graceful_shutdown_timeout=1)

    def run_worker(index):
        signal.signal(signal.SIGTERM, signal.SIG_IGN)   # never stops
        _life(tmp_path, index)
        os.kill(os.getppid(), signal.SIGTERM)
        threading.Event().wait(timeouts.HANG)
        return 0

    assert workers.Supervisor(1, run_worker).run() == (
        launcher.EXIT_STOP_TIMED_OUT)


def test_the_listening_socket_is_closed_on_stop(tmp_path):
    class Sock(object):
        closed = False

        def close(self):
            self.closed = True

    def run_worker(index):
        stopped = _until_stopped()
        os.kill(os.getppid(), signal.SIGTERM)
        stopped.wait(timeouts.HANG)
        return 0

    sock = Sock()
    assert workers.Supervisor(1, run_worker, sock).run() == 0
    assert sock.closed


def test_a_worker_stops_when_its_parent_is_killed(tmp_path):
    """A worker's parent (here a process of the test, killed with
    SIGKILL) ends: the worker gets SIGTERM and stops cleanly."""
    def run_worker(index):
        stopped = _until_stopped()
        _life(tmp_path, index)
        stopped.wait(timeouts.HANG)
        _life(tmp_path, 1, 'stopped')
        return 0

    middle = os.fork()
    if middle == 0:   # the parent to be killed
        try:
            workers.Supervisor(1, run_worker).run()
        finally:
            os._exit(0)
    _wait_file(tmp_path / 'worker-0')
    os.kill(middle, signal.SIGKILL)
    os.waitpid(middle, 0)
    _wait_file(tmp_path / 'worker-1')
    assert [line.split()[1] for line in _lives(tmp_path, 1)] == ['stopped']


def test_a_worker_that_cannot_start_stops_the_service(tmp_path):
    """Its exit code (1: a refused or failed start) is the parent's, and
    the other worker is stopped, not left running."""
    def run_worker(index):
        stopped = _until_stopped()
        _life(tmp_path, index)
        if index == 1:
            _wait_file(tmp_path / 'worker-0')
            return 1
        stopped.wait(timeouts.HANG)
        _life(tmp_path, 2, 'stopped')
        return 0

    assert workers.Supervisor(2, run_worker).run() == 1
    assert len(_lives(tmp_path, 1)) == 1     # not started again
    assert [line.split()[1] for line in _lives(tmp_path, 2)] == ['stopped']


def test_workers_that_all_cannot_start_end_the_parent(tmp_path):
    """Both refuse their start at once (as with an older release alive):
    the parent reaps both in one look and exits 1, not waiting for
    either again."""
    def run_worker(index):
        _life(tmp_path, index)
        return 1

    assert workers.Supervisor(2, run_worker).run() == 1
    assert len(_lives(tmp_path, 0)) == len(_lives(tmp_path, 1)) == 1
