"""The ramdisk agent's calls, as ironic-python-agent makes them.

The deploy moves a node to ``wait call-back`` and then releases its lock:
a lookup (which asks the conductor for the token) or a heartbeat arriving
in between is answered ``409`` (the node is locked), and the agent tries
again, as ironic-python-agent does until its lookup timeout.  Tests that
play the agent use these instead of one bare request.
"""

import requests

from tests.functional import procs
from tests import timeouts

HEADERS = {'X-OpenStack-Ironic-API-Version': '1.72'}


def _retried(send):
    return procs.while_locked(send, lambda resp: resp.status_code)


def lookup(base, params, headers=HEADERS):
    """``GET /v1/lookup`` with ``params``, retried while the node is
    locked; the response."""
    return _retried(lambda: requests.get(
        '%s/v1/lookup' % base, params=params, headers=headers,
        timeout=timeouts.HANG))


def heartbeat(base, node, body, headers=HEADERS):
    """``POST /v1/heartbeat/<node>`` with ``body``, retried while the node
    is locked; the response."""
    return _retried(lambda: requests.post(
        '%s/v1/heartbeat/%s' % (base, node), json=body, headers=headers,
        timeout=timeouts.HANG))


def continue_inspection(base, data, params=None, headers=None):
    """``POST /v1/continue_inspection`` with the agent's ``data`` (its
    inventory and plugin data), retried while the node is locked; the
    response.  At 1.84 unless ``headers`` say otherwise."""
    headers = headers or {'X-OpenStack-Ironic-API-Version': '1.84'}
    return _retried(lambda: requests.post(
        '%s/v1/continue_inspection' % base, json=data, params=params,
        headers=headers, timeout=timeouts.HANG))
