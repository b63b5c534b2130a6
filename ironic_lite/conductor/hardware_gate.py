"""The API's side of the synchronous calls that talk to a BMC.

The API waits for their answer in one of its ``[api]threads`` request
threads, for up to ``[DEFAULT]rpc_response_timeout`` seconds (the
conductor answers a little earlier: ``hardware_calls.py``).  So that BMCs
that never answer cannot take every request thread, at most
``[api]max_concurrent_hardware_calls`` requests of this process wait for
one at once.  In ironic-lite's own HTTP server the others wait their turn
in the server, holding no thread (api/lanes.py), and never wait here; under
another WSGI server they wait here, in the server's threads, and one that
gets no turn within ``[api]request_queue_timeout`` is answered 503,
nothing sent, safe to retry.
"""

import threading

from ironic_lite.common import exception
from ironic_lite import conf

CONF = conf.CONF

# The RPC methods whose conductor side calls a BMC while the API waits.
METHODS = frozenset([
    'get_boot_device', 'set_boot_device', 'get_supported_boot_devices',
    'validate_driver_interfaces', 'inject_nmi', 'get_supported_indicators',
    'get_indicator_state', 'set_indicator_state', 'vendor_passthru',
])

_lock = threading.Lock()
_gate = {'size': None, 'slots': None}


def _slots():
    """The semaphore of the configured bound (None: no bound)."""
    size = CONF.api.max_concurrent_hardware_calls
    with _lock:
        if _gate['size'] != size:
            _gate['size'] = size
            _gate['slots'] = threading.BoundedSemaphore(size) if size else None
        return _gate['slots']


def call(cctxt, context, method, **kwargs):
    """``cctxt.call(context, method, **kwargs)``, within the bound when
    ``method`` talks to a BMC.

    :raises: ServiceUnavailable (503, nothing sent) when no turn comes
        within [api]request_queue_timeout.
    """
    slots = _slots() if method in METHODS else None
    if slots is None:
        return cctxt.call(context, method, **kwargs)
    timeout = CONF.api.request_queue_timeout
    if not slots.acquire(timeout=timeout):
        raise exception.ServiceUnavailable(reason=(
            'Too many requests are waiting for a BMC to answer (at most %d '
            'at once): this one could not be served within %ss '
            '([api]request_queue_timeout) and was not carried out; retry '
            'later.' % (CONF.api.max_concurrent_hardware_calls, timeout)))
    try:
        return cctxt.call(context, method, **kwargs)
    finally:
        slots.release()
