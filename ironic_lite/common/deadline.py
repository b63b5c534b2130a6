"""The deadline of the work running in this thread, if it has one.

A conductor worker that runs a call to a node's BMC on behalf of a
request, or of the power state sync, gives up waiting for it at a
deadline (``conductor/worker_pool.py``); the thread itself goes on until
the call returns.  Drivers read the deadline here so that such a thread
does not start another attempt once nobody waits for its result: the
redfish driver stops retrying a BMC that does not answer
(``drivers/redfish/utils.py``).
"""

import contextlib
import threading
import time

_local = threading.local()


@contextlib.contextmanager
def until(when):
    """Run the block with the deadline ``when`` (time.monotonic())."""
    previous = getattr(_local, 'at', None)
    _local.at = when
    try:
        yield
    finally:
        _local.at = previous


def passed():
    """Whether this thread's deadline (if any) has passed."""
    at = getattr(_local, 'at', None)
    return at is not None and time.monotonic() >= at
