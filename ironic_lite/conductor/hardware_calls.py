"""Synchronous RPC methods that talk to a BMC: run with a deadline.

Reading or setting a node's boot device, its indicators, sending it an
NMI, validating its interfaces, a synchronous vendor method: the API
waits for the answer.  Run where the call arrives -- an RPC executor
thread of a conductor, or, in the all-in-one ``ironic-lite``, one of the
API's request threads (``common/rpc.py`` dispatches in place) -- a BMC
that accepts the connection and never answers held that thread for the
redfish timeouts times the attempts (316 s by default), and eight of
them froze the all-in-one API (issue 35).

``bounded`` runs the method in a worker of the conductor's pool instead
(``worker_pool.run_bounded``) and answers at
``rpc.hardware_call_timeout()`` at the latest: a HardwareTimeout (503)
naming the node, the worker finishing the call on its own.  The node's
lock, when the method takes one, is taken and released in the worker, so
it is held until the BMC call has really ended.  A full pool answers
NoFreeConductorWorker (503) at once.  The API bounds how many of its own
threads wait for such answers (``hardware_gate.py``).
"""

import functools

import oslo_messaging as messaging

from ironic_lite.common import exception
from ironic_lite.common import rpc


def bounded(func):
    """Decorate an RPC method of the conductor (inside
    ``expected_exceptions``) whose arguments name a ``node_id``."""
    @functools.wraps(func)
    def wrapper(self, context, *args, **kwargs):
        node = kwargs.get('node_id', args[0] if args else None)
        try:
            return self._pool.run_bounded(
                rpc.hardware_call_timeout(), node, func, self, context,
                *args, **kwargs)
        except (exception.HardwareTimeout, exception.NoFreeConductorWorker):
            # An answer, not a conductor failure: no traceback logged.
            raise messaging.ExpectedException()
    return wrapper
