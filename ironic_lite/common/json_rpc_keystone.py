"""Keystone on the JSON-RPC transport (``auth_strategy = keystone``, from
``[json_rpc]`` or else ``[DEFAULT]``, as Ironic).

The conductor's side (``protect``): keystonemiddleware's auth_token
validates each call's ``X-Auth-Token`` (options in
``[keystone_authtoken]``, as the API) and the caller must hold one of
``[json_rpc]allowed_roles``; as in Ironic's server, a call without a
valid token is auth_token's 401 and one without an allowed role a 403
whose body is ``{"error": {"code": 403, "message": "Forbidden"}}``.
Nothing is dispatched in either case.

The API's side (``Tokens``): a keystoneauth plugin and session loaded
from ``[json_rpc]`` (``auth_type``, ``auth_url``, ``username``...); the
plugin keeps its token and fetches a new one when it is about to expire.
What goes wrong is told apart: Keystone unreachable or failing
(``IdentityUnavailable``, an outage: retry later) and a configuration
Keystone or keystoneauth refuses (``AuthMisconfigured``, logged with
what to check).  Neither sends anything to a conductor.
"""

from keystoneauth1 import exceptions as ks_exc
from keystoneauth1 import loading as ks_loading
from keystonemiddleware import auth_token
from oslo_log import log as logging
import oslo_messaging as messaging
from oslo_serialization import jsonutils
import webob

from ironic_lite.conf import json_rpc as json_rpc_conf

LOG = logging.getLogger(__name__)
GROUP = 'json_rpc'

# keystoneauth's errors that mean Keystone could not answer (an outage),
# as opposed to an answer that refuses the configuration.
_OUTAGES = (ks_exc.ConnectionError, ks_exc.RetriableConnectionFailure,
            ks_exc.ServiceUnavailable, ks_exc.BadGateway,
            ks_exc.GatewayTimeout, ks_exc.InternalServerError)


def _outage(err):
    """Whether ``err`` comes of Keystone not answering: itself, or what
    it was raised while handling (the generic plugins turn a failed
    version discovery into a DiscoveryFailure)."""
    while err is not None:
        if isinstance(err, _OUTAGES):
            return True
        err = err.__context__
    return False


class IdentityUnavailable(messaging.MessageDeliveryFailure):
    """Keystone could not be reached (by this service, or by the
    conductor to validate the token): the call was not carried out."""


class AuthMisconfigured(messaging.MessageDeliveryFailure):
    """The credentials of ``[json_rpc]`` are incomplete, or refused by
    Keystone or by the conductor: the call was not carried out."""


def _load_plugin(conf):
    """The keystoneauth plugin ``[json_rpc]auth_type`` names.  Its
    options not registered yet (a plugin other than ``password``) are
    registered first, as keystoneauth's own loader does."""
    group = conf[GROUP]
    loader = ks_loading.get_plugin_loader(
        group.auth_type or json_rpc_conf.DEFAULT_AUTH_TYPE)
    for opt in loader.get_options():
        oslo_opt = opt._to_oslo_opt()
        oslo_opt.required = False   # checked by the loader below
        if oslo_opt.dest not in group:
            conf.register_opt(oslo_opt, group=GROUP)
    return loader.load_from_options_getter(lambda opt: group[opt.dest])


def misconfigured(what):
    """Log ``what`` is wrong with ``[json_rpc]``, once per failed call:
    the operator's fix is in the configuration, not in a retry."""
    LOG.error('JSON-RPC with auth_strategy=keystone: %s.  Check '
              '[json_rpc]auth_type, auth_url, username, password, '
              'project_name and the domain options of this service, and '
              'that its user holds one of the conductors\' '
              '[json_rpc]allowed_roles.', what)
    return AuthMisconfigured(
        'The credentials in [json_rpc] are not usable: %s' % what)


class Tokens(object):
    """The token each call carries, from a keystoneauth session built
    once per process (it keeps its connections to Keystone).
    ``timeout``: seconds Keystone has to answer, the calls' own when
    ``[json_rpc]timeout`` is unset (keystoneauth would wait for ever)."""

    def __init__(self, conf, timeout):
        try:
            auth = _load_plugin(conf)
        except (ks_exc.NoMatchingPlugin,
                ks_exc.MissingRequiredOptions) as err:
            raise misconfigured(str(err)) from None
        self.session = ks_loading.load_session_from_conf_options(
            conf, GROUP, auth=auth, timeout=timeout)

    def headers(self):
        """``{'X-Auth-Token': <token>}``: the cached token, or a new one
        when it expires soon (keystoneauth decides)."""
        try:
            headers = self.session.get_auth_headers()
        except ks_exc.ClientException as err:
            if not _outage(err):
                raise misconfigured('Keystone refused the credentials '
                                    '(%s)' % err) from None
            LOG.warning('Keystone cannot be reached for a JSON-RPC '
                        'token: %s', err)
            raise IdentityUnavailable(
                'Keystone cannot be reached: %s' % err) from None
        if not headers:
            raise misconfigured('the auth plugin gave no token')
        return headers

    def invalidate(self):
        """Forget the token (the conductor refused it): the next call
        fetches a new one."""
        self.session.invalidate()


class RoleCheck(object):
    """The caller's roles (``X-Roles``, set by auth_token) must meet
    ``[json_rpc]allowed_roles``; Ironic's rule and answer."""

    def __init__(self, app, allowed_roles):
        self.app = app
        self.allowed_roles = frozenset(allowed_roles)

    def __call__(self, environ, start_response):
        roles = (environ.get('HTTP_X_ROLES') or '').split(',')
        if self.allowed_roles.isdisjoint(roles):
            LOG.debug('JSON-RPC call refused: roles %s hold none of %s',
                      roles, sorted(self.allowed_roles))
            response = webob.Response(
                status=403, content_type='application/json',
                charset='UTF-8', body=jsonutils.dump_as_bytes(
                    {'error': {'code': 403, 'message': 'Forbidden'}}))
            return response(environ, start_response)
        return self.app(environ, start_response)


def protect(app, conf):
    """``app`` behind auth_token and the role check."""
    return auth_token.AuthProtocol(
        RoleCheck(app, conf[GROUP].allowed_roles),
        {'oslo_config_config': conf})
