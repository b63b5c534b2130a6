"""``/healthcheck`` for load balancers (``[healthcheck]enabled``, off by
default, unauthenticated: as in Ironic).

oslo.middleware's Healthcheck answers it, with the backends of
``[healthcheck]backends``: by default ironic-lite's own two, plugins of
oslo.middleware's (setup.cfg's ``oslo.middleware.healthcheck`` entry
points), which an operator lists beside others such as
``disable_by_file`` (503 while an operator's file exists):

* ``ironic_lite_draining``: 503 once the server of this process has begun
  to stop (on the keep-alive connections still open; new ones are
  refused);
* ``ironic_lite_database``: 503 when the database does not answer
  ``SELECT 1`` within ``DB_TIMEOUT`` seconds.

Every other path goes to the API untouched.
"""

import threading

from oslo_middleware import healthcheck
from oslo_middleware.healthcheck import pluginbase

from ironic_lite.common import wsgi
from ironic_lite.objects import health

PATH = '/healthcheck'
DB_TIMEOUT = 2.0

_Result = pluginbase.HealthcheckResult


class DrainingCheck(pluginbase.HealthcheckBaseExtension):

    def healthcheck(self, _server_port):
        if wsgi.DRAINING.is_set():
            return _Result(available=False,
                           reason='The API server is stopping (draining)')
        return _Result(available=True, reason='The API server is serving')


class DatabaseCheck(pluginbase.HealthcheckBaseExtension):
    """``SELECT 1`` in a thread, waited for ``DB_TIMEOUT`` seconds; one
    probe at a time (a hung database does not pile threads up)."""

    _lock = threading.Lock()
    _running = None

    def healthcheck(self, _server_port):
        with self._lock:
            probe = DatabaseCheck._running
            if probe is None or not probe.is_alive():
                probe = DatabaseCheck._running = _Probe()
                probe.start()
        probe.join(DB_TIMEOUT)
        if probe.is_alive():
            return _Result(available=False, reason='The database did not '
                           'answer within %s seconds' % DB_TIMEOUT)
        if probe.error is not None:
            return _Result(available=False,
                           reason='The database cannot be reached',
                           details=probe.error)
        return _Result(available=True, reason='The database answers')


class _Probe(threading.Thread):

    def __init__(self):
        super().__init__(name='healthcheck-db', daemon=True)
        self.error = None

    def run(self):
        try:
            health.ping_database()
        except Exception as exc:
            self.error = type(exc).__name__


class HealthcheckRouter(object):
    """``/healthcheck`` to oslo.middleware's Healthcheck, the rest to the
    API."""

    def __init__(self, app, conf):
        self.app = app
        self.check = healthcheck.Healthcheck(None, conf)

    def __call__(self, environ, start_response):
        if environ.get('PATH_INFO', '').rstrip('/') == PATH:
            return self.check(environ, start_response)
        return self.app(environ, start_response)
