"""Keystone tokens (``[DEFAULT]auth_strategy = keystone``).

keystonemiddleware's ``auth_token`` validates the ``X-Auth-Token`` of each
request (options under ``[keystone_authtoken]``, as Ironic) and puts the
token's identity in the WSGI environment (``X-User-Id``, ``X-Project-Id``,
``X-Roles``, ``OpenStack-System-Scope`` ...), which oslo.context's
``from_environ`` turns into the request context.  The public routes
(``/``, ``/v1``, ``/v1/lookup``, ``/v1/heartbeat/<node>`` and
``/v1/continue_inspection``, as Ironic) are served without a token;
identity headers
a client sends on them are dropped.

Around it: a token longer than any Keystone issues is a 401 before
Keystone is asked (Keystone's own web server would refuse it, and
auth_token would answer that with a 503); while Keystone cannot be
reached, auth_token's bare 503 becomes one with Ironic's error body that
names the identity service and says the request may be retried.
"""

from keystonemiddleware import auth_token
from oslo_config import cfg

from ironic_lite.api import auth
from ironic_lite.api import errors

# Fernet tokens are some 200 bytes, JWS tokens under 1 KiB.
MAX_TOKEN_BYTES = 8192
_TOKEN_HEADERS = ('HTTP_X_AUTH_TOKEN', 'HTTP_X_SERVICE_TOKEN')
# Set once auth_token has let a request through to the API.
_PASSED = 'ironic_lite.keystone_passed'

UNAVAILABLE = ('The identity service (Keystone) cannot be reached to '
               'validate the authentication token; nothing was done. '
               'Please retry the request later.')


class KeystoneAuthMiddleware(object):
    """auth_token around the API, except on the public routes."""

    def __init__(self, app, conf, public_paths=()):
        self.app = app
        self.conf = conf
        self.is_public = auth.public_matcher(public_paths)
        self.auth = auth_token.AuthProtocol(self._authenticated,
                                            {'oslo_config_config': conf})

    def _authenticated(self, environ, start_response):
        environ[_PASSED] = True
        return self.app(environ, start_response)

    def __call__(self, environ, start_response):
        if self.is_public(environ):
            auth.strip_identity(environ)
            environ['is_public_api'] = True
            return self.app(environ, start_response)
        for name in _TOKEN_HEADERS:
            if len(environ.get(name, '')) > MAX_TOKEN_BYTES:
                return self._too_long(name)(environ, start_response)
        return self._validated(environ, start_response)

    def _too_long(self, name):
        header = name[len('HTTP_'):].replace('_', '-').title()
        return errors.fault_response(
            401, 'The %s header is too long to be a token (at most %d '
                 'bytes): please authenticate again.'
                 % (header, MAX_TOKEN_BYTES), self._www_authenticate())

    def _www_authenticate(self):
        """auth_token's "WWW-Authenticate: Keystone uri=..." of a 401,
        from its own option (none when unset: auth_token would ask
        Keystone for it, and this answer must not wait for Keystone)."""
        try:
            uri = self.conf.keystone_authtoken.www_authenticate_uri
        except cfg.Error:
            uri = None
        return [('WWW-Authenticate', 'Keystone uri="%s"' % uri)] if uri else []

    def _validated(self, environ, start_response):
        """auth_token's answer, but its own 503 (Keystone unreachable)."""
        refused = []

        def _start_response(status, headers, exc_info=None):
            if status.startswith('503') and not environ.get(_PASSED):
                refused.append(status)
                return lambda _data: None
            return start_response(status, headers, exc_info)

        app_iter = self.auth(environ, _start_response)
        if not refused:
            return app_iter
        if hasattr(app_iter, 'close'):
            app_iter.close()
        resp = errors.fault_response(503, UNAVAILABLE)
        return resp(environ, start_response)
