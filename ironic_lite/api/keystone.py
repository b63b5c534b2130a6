"""Keystone tokens (``[DEFAULT]auth_strategy = keystone``).

keystonemiddleware's ``auth_token`` validates the ``X-Auth-Token`` of each
request (options under ``[keystone_authtoken]``, as Ironic) and puts the
token's identity in the WSGI environment (``X-User-Id``, ``X-Project-Id``,
``X-Roles``, ``OpenStack-System-Scope`` ...), which oslo.context's
``from_environ`` turns into the request context.  The public routes
(``/`` and ``/v1``, as Ironic) are served without a token; identity headers
a client sends on them are dropped.
"""

from keystonemiddleware import auth_token

from ironic_lite.api import auth


class KeystoneAuthMiddleware(object):
    """auth_token around the API, except on the public routes."""

    def __init__(self, app, conf, public_paths=()):
        self.app = app
        self.public_paths = set(public_paths)
        self.auth = auth_token.AuthProtocol(app, {'oslo_config_config': conf})

    def __call__(self, environ, start_response):
        if environ.get('PATH_INFO', '').rstrip('/') in self.public_paths:
            auth.strip_identity(environ)
            environ['is_public_api'] = True
            return self.app(environ, start_response)
        return self.auth(environ, start_response)
