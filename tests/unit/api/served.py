"""Requests to the API served by the real HTTP server in a test
(common/wsgi.WSGIService on a free port), as the tests of its bounds send
them: one connection per request, waits bounded by a hang's time only."""

import http.client
import threading

from tests import timeouts
from tests.unit.api import conftest


def get(service, path):
    """(status, body) of ``GET path``, at the latest microversion."""
    conn = http.client.HTTPConnection(
        '127.0.0.1', service.server.effective_port, timeout=timeouts.HANG)
    try:
        conn.request('GET', path, headers={
            'X-OpenStack-Ironic-API-Version': conftest.LATEST})
        resp = conn.getresponse()
        return resp.status, resp.read()
    finally:
        conn.close()


def in_thread(service, path, results):
    """``get`` in a thread of its own; its answer appended to
    ``results``."""
    thread = threading.Thread(
        target=lambda: results.append(get(service, path)), daemon=True)
    thread.start()
    return thread


def wait_for(predicate):
    """Whether ``predicate()`` became true within a hang's time."""
    done = threading.Event()
    for _ in range(int(timeouts.HANG / 0.01)):
        if predicate():
            return True
        done.wait(0.01)
    return False
