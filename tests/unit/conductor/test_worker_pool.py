"""The conductor's worker threads run in the request context of whoever
submitted the work, so that oslo.log puts the request's id on every line
they log, and a pooled thread keeps no request's context afterwards."""

from oslo_context import context as ctx_lib

from ironic_lite.common import context as ir_context
from ironic_lite.conductor import worker_pool


def _current():
    found = ctx_lib.get_current()
    return found and found.global_request_id


def test_work_runs_in_the_submitters_context_and_leaves_none():
    # Two threads kept: the second piece of work may run in the first's.
    pool = worker_pool.WorkerPool(2)
    try:
        request = ir_context.RequestContext(
            global_request_id='req-00000000-0000-0000-0000-000000000001',
            overwrite=False)
        with ir_context.carried(request):
            first = pool.claim().submit(_current)
        assert first.result() == request.global_request_id
        with ir_context.carried(None):
            second = pool.claim().submit(_current)
        assert second.result() is None
    finally:
        pool.shutdown(wait=True)


def test_carried_puts_back_what_was_there():
    before = ir_context.RequestContext(overwrite=True)
    other = ir_context.RequestContext(overwrite=False)
    with ir_context.carried(other):
        assert ctx_lib.get_current() is other
        with ir_context.carried(None):
            assert ctx_lib.get_current() is None
        assert ctx_lib.get_current() is other
    assert ctx_lib.get_current() is before
