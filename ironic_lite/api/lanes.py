"""The API's lanes in its HTTP server (common/admission.py): requests
held back before they take a worker thread, and the answer to one that
waited too long.

Two kinds of request hold a worker thread long enough that a burst of
them could take every thread: large list pages (large_pages.py: a
detailed page of 1,000 nodes) and calls that wait for a BMC's answer
(conductor/hardware_gate.py: boot device, indicators, NMI, interface
validation, node vendor passthru; a BMC that never answers holds its
request for up to ``[DEFAULT]rpc_response_timeout``).  At most
``[api]max_concurrent_large_lists`` and
``[api]max_concurrent_hardware_calls`` of them run at once; the others
wait their turn in the server, holding no thread, for up to
``[api]request_queue_timeout`` seconds.  A burst is served in turn, not
refused; only a request that could not be served in that time is
answered 503 (ExpiredRequests), nothing done, safe to retry.

Under another WSGI server (uwsgi, mod_wsgi) there are no lanes: the
application's own bounds (the large pages' gate, the BMC calls'
semaphore) wait in the server's threads within the same timeout.
"""

from ironic_lite.api import errors
from ironic_lite.api import large_pages
from ironic_lite.common import admission
from ironic_lite.common import wsgi
from ironic_lite import conf

CONF = conf.CONF

# The node sub-resources whose requests wait for the node's BMC.
_HARDWARE = frozenset(['management', 'validate', 'vendor_passthru'])


def is_hardware_request(method, path, query):
    """A request on a node that waits for its BMC's answer:
    ``/v1/nodes/<node>/management/...``, ``/v1/nodes/<node>/validate``,
    ``/v1/nodes/<node>/vendor_passthru`` (not its list of methods)."""
    parts = [p for p in path.split('/') if p]
    return (len(parts) >= 4 and parts[:2] == ['v1', 'nodes']
            and parts[3] in _HARDWARE and parts[-1] != 'methods')


def hardware_refusal():
    return ('Too many requests are waiting for a BMC to answer: this one '
            'could not be served within %ss ([api]request_queue_timeout) '
            'and was not carried out; retry later.'
            % CONF.api.request_queue_timeout)


def server_lanes(processes=1):
    """The lanes of ironic-api's HTTP server, as configured, for a
    service of ``processes`` API processes."""
    lanes = []
    large = large_pages.lane(processes)
    if large is not None:
        lanes.append(large)
    if CONF.api.max_concurrent_hardware_calls:
        lanes.append(admission.Lane(
            is_hardware_request, CONF.api.max_concurrent_hardware_calls,
            CONF.api.request_queue_timeout, hardware_refusal()))
    return lanes


class ExpiredRequests(object):
    """WSGI middleware: a request that waited in its lane past
    [api]request_queue_timeout is answered 503 with the lane's words,
    before anything is done."""

    def __init__(self, app):
        self.app = app

    def __call__(self, environ, start_response):
        if environ.get(wsgi.LANE_KEY) != 'expired':
            return self.app(environ, start_response)
        resp = errors.fault_response(503, environ[wsgi.LANE_REFUSAL_KEY])
        return resp(environ, start_response)
