"""signals.handled: the stop and reload handlers, only within the block."""

import signal

from ironic_lite.common import signals


def test_handlers_within_the_block_and_the_previous_ones_after():
    before = {sig: signal.getsignal(sig)
              for sig in signals.STOP_SIGNALS + (signal.SIGHUP,)}

    def request_stop(signum=None, frame=None):
        pass

    with signals.handled(request_stop):
        assert all(signal.getsignal(sig) is request_stop
                   for sig in signals.STOP_SIGNALS)
        assert signal.getsignal(signal.SIGHUP) is signals.reload_config
    assert {sig: signal.getsignal(sig) for sig in before} == before


def test_a_failed_reload_keeps_running(monkeypatch):
    def fail():
        raise ValueError('bad file')
    monkeypatch.setattr(signals.CONF, 'mutate_config_files', fail)
    signals.reload_config(signal.SIGHUP, None)  # logged, not raised
