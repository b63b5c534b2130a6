"""Issue 41: node lock waits and takeovers are counted for the metrics
(``ironic_node_lock_wait_seconds``, ``ironic_node_lock_takeovers_total``)."""

import pytest

from ironic_lite.common import exception
from ironic_lite.common import metrics
from ironic_lite import conf
from ironic_lite.conductor import recovery
from ironic_lite.conductor import task_manager

CONF = conf.CONF


def waits(outcome):
    return metrics.REGISTRY.get_sample_value(
        'ironic_node_lock_wait_seconds_count', {'outcome': outcome}) or 0


def takeovers(reason):
    return metrics.REGISTRY.get_sample_value(
        'ironic_node_lock_takeovers_total', {'reason': reason}) or 0


def locked_then(results):
    """attempt_to(): raises NodeLocked for each None of ``results``."""
    results = list(results)

    def attempt_to():
        result = results.pop(0)
        if result is None:
            raise exception.NodeLocked(node='n-1', host='other')
        return result
    return attempt_to


@pytest.fixture(autouse=True)
def quick_retries():
    CONF.set_override('node_locked_retry_interval', 0, group='conductor')
    CONF.set_override('node_locked_retry_attempts', 2, group='conductor')


def test_a_lock_taken_at_once_is_no_wait():
    before = waits('acquired'), waits('gave_up')
    assert task_manager._retry_while_locked(
        'n-1', True, locked_then(['node'])) == 'node'
    assert (waits('acquired'), waits('gave_up')) == before


def test_a_wait_then_the_lock():
    before = waits('acquired')
    assert task_manager._retry_while_locked(
        'n-1', True, locked_then([None, None, 'node'])) == 'node'
    assert waits('acquired') == before + 1


def test_a_wait_given_up():
    before = waits('gave_up')
    with pytest.raises(exception.NodeLocked):
        task_manager._retry_while_locked(
            'n-1', True, locked_then([None, None, None]))
    assert waits('gave_up') == before + 1


def test_stale_locks_reclaimed_are_takeovers(monkeypatch):
    monkeypatch.setattr(task_manager, 'reclaim_stale_locks',
                        lambda context, host: ['u-1', 'u-2'])
    monkeypatch.setattr(recovery, '_fail_if_stuck',
                        lambda *args, **kwargs: False)
    before = takeovers('stale')
    assert recovery.reclaim_stale_locks(None, 'c-1') == ['u-1', 'u-2']
    assert takeovers('stale') == before + 2
