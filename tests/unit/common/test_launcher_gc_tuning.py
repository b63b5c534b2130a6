"""The services freeze their start-up objects and collect less often."""

import gc

import pytest

from ironic_lite.common import launcher


@pytest.fixture
def restored_gc():
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


def test_tune_gc_freezes_and_raises_the_thresholds(restored_gc):
    gc.unfreeze()
    launcher.tune_gc()
    assert gc.get_threshold() == launcher.GC_THRESHOLDS
    # What existed at start is in the permanent generation.
    assert gc.get_freeze_count() > 0
    assert sum(gc.get_count()) < 100
    # Cycles made while serving are still collected.
    cycle = []
    cycle.append(cycle)
    del cycle
    assert gc.collect() >= 1


def test_run_tunes_the_collector_once_started(restored_gc, monkeypatch):
    calls = []
    monkeypatch.setattr(launcher, 'tune_gc', lambda: calls.append('gc'))

    class Svc(object):
        def start(self):
            calls.append('start')

        def stop(self):
            calls.append('stop')

    lch = launcher.Launcher([Svc()])
    lch.request_stop()
    assert launcher._start_wait_stop(lch) == 0
    assert calls == ['start', 'gc', 'stop']
