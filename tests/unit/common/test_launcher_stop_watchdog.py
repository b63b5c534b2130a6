"""The stop of a service process is bounded by graceful_shutdown_timeout
(common/launcher.py's StopWatchdog), in-process: the process exit is a
fake that records its code and unblocks the stuck stop."""

import logging
import os
import signal
import threading

import pytest

from ironic_lite.common import launcher
from tests import timeouts


class FakeExit(object):
    def __init__(self):
        self.codes = []
        self.called = threading.Event()

    def __call__(self, code):
        self.codes.append(code)
        self.called.set()


class StuckStop(object):
    """A service whose stop blocks until the (fake) exit is called."""
    name = 'stuck-1'

    def __init__(self, exit_process):
        self.exit_process = exit_process

    def start(self):
        threading.Timer(0.1, os.kill,
                        (os.getpid(), signal.SIGTERM)).start()

    def stop(self):
        self.exit_process.called.wait(timeouts.HANG)


@pytest.fixture
def fake_exit(conf_fixture):
    conf_fixture.config(graceful_shutdown_timeout=1)
    return FakeExit()


def test_a_stuck_stop_ends_the_process_with_its_code(fake_exit, caplog):
    caplog.set_level(logging.ERROR, 'ironic_lite.common.launcher')
    watchdog = launcher.StopWatchdog(exit_process=fake_exit)
    assert launcher.run([StuckStop(fake_exit)], watchdog) == 0
    assert fake_exit.codes == [launcher.EXIT_STOP_TIMED_OUT]
    message = caplog.records[-1].getMessage()
    assert message.startswith(
        'The stop did not finish within [DEFAULT]graceful_shutdown_timeout '
        '(1s); gave up waiting for stopping StuckStop stuck-1, exiting now '
        'with code 3.')
    # Where the main thread was waiting.
    assert 'in stop\n' in message


def test_disarmed_it_never_ends_the_process(fake_exit):
    watchdog = launcher.StopWatchdog(exit_process=fake_exit)
    watchdog.arm()
    watchdog.disarm()
    watchdog.thread.join(timeouts.HANG)
    assert not watchdog.thread.is_alive()
    assert fake_exit.codes == []


def test_no_bound_with_a_timeout_of_0(fake_exit, conf_fixture):
    conf_fixture.config(graceful_shutdown_timeout=0)
    watchdog = launcher.StopWatchdog(exit_process=fake_exit)
    watchdog.arm()
    watchdog.thread.join(timeouts.HANG)
    assert not watchdog.thread.is_alive()
    assert fake_exit.codes == []


class StopsItself(object):
    """A service that sends its process SIGTERM once started."""

    def start(self):
        threading.Timer(0.1, os.kill, (os.getpid(), signal.SIGTERM)).start()

    def stop(self):
        pass


def test_run_disarms_its_own_watchdog(fake_exit, monkeypatch):
    # Its exit is the fake too: a watchdog left armed would end pytest.
    monkeypatch.setattr(launcher.os, '_exit', fake_exit)

    started = []
    real_start = threading.Thread.start

    def start(thread):
        started.append(thread)
        real_start(thread)
    monkeypatch.setattr(threading.Thread, 'start', start)
    assert launcher.run([StopsItself()]) == 0
    watchdogs = [t for t in started if t.name == 'stop-watchdog']
    assert len(watchdogs) == 1
    watchdogs[0].join(timeouts.HANG)
    assert not watchdogs[0].is_alive()
    assert fake_exit.codes == []


def test_a_second_signal_while_closing_the_connections_is_caught(
        fake_exit, monkeypatch):
    """The SQLite checkpoint and the broker's close run with the stop
    handlers still installed: a second SIGTERM then (a supervisor's, an
    operator's) is logged, and does not kill the process half-way."""
    handlers = []

    def reset():
        handler = signal.getsignal(signal.SIGTERM)
        handlers.append(handler)
        if handler not in (signal.SIG_DFL, signal.SIG_IGN, None):
            os.kill(os.getpid(), signal.SIGTERM)   # caught: only logged
    watchdog = launcher.StopWatchdog(exit_process=fake_exit)
    assert launcher.run([StopsItself()], watchdog, close=[reset]) == 0
    watchdog.disarm()
    assert len(handlers) == 1
    assert handlers[0] not in (signal.SIG_DFL, signal.SIG_IGN, None)
    assert fake_exit.codes == []
