"""driver_info of a redfish node, and the sushy client that reaches its BMC.

``parse_driver_info`` reads and checks the node's ``redfish_*`` keys
(Ironic's names and messages); ``get_system`` returns the sushy
ComputerSystem of the node, through a client cached per BMC address and
credentials (at most ``[redfish]connection_cache_size`` of them), retried
``[redfish]connection_attempts`` times on a connection error.  Every
sushy failure leaves here as a RedfishError (or RedfishConnectionError)
whose message names the BMC without credentials and holds no password.
"""

import collections
import hashlib
import os
import threading
import time
from urllib import parse as urlparse

from oslo_log import log as logging
from oslo_utils import strutils
import sushy

from ironic_lite.common import deadline
from ironic_lite.common import exception
from ironic_lite.common import messages
from ironic_lite import conf

CONF = conf.CONF
LOG = logging.getLogger(__name__)

REQUIRED_PROPERTIES = {
    'redfish_address': 'The URL address to the Redfish controller. It must '
                       'include the authority portion of the URL. If the '
                       'scheme is missing, https is assumed. For example: '
                       'https://mgmt.vendor.com. If a path is added, it will '
                       'be used as the API endpoint root_prefix. Required',
}

OPTIONAL_PROPERTIES = {
    'redfish_system_id': 'The canonical path to the ComputerSystem resource '
                         'that the driver will interact with, e.g. '
                         '/redfish/v1/Systems/1. Only required if the BMC '
                         'manages more than one ComputerSystem; otherwise '
                         'the only one is used. Optional',
    'redfish_username': 'User account with admin/server-profile access '
                        'privilege. Not mandatory, but highly recommended. '
                        'Optional',
    'redfish_password': 'User account password. Not mandatory, but highly '
                        'recommended. Optional',
    'redfish_verify_ca': 'Either a Boolean value, a path to a CA_BUNDLE file '
                         'or directory with certificates of trusted CAs. '
                         'True verifies the BMC\'s certificate, False does '
                         'not. Defaults to True. Optional',
    'redfish_auth_type': 'Redfish HTTP client authentication method. Can be '
                         '"basic", "session" or "auto". If not set, '
                         '[redfish]auth_type is used. Optional',
}

COMMON_PROPERTIES = dict(REQUIRED_PROPERTIES, **OPTIONAL_PROPERTIES)

_AUTH_TYPES = ('basic', 'session', 'auto')


def _invalid(msg, **values):
    return exception.InvalidParameterValue(err=msg % values)


def _address(node, address):
    """(scheme://authority, root prefix) of ``redfish_address``."""
    if not isinstance(address, str):
        raise _invalid('Invalid Redfish address %(address)s set in '
                       'driver_info/redfish_address on node %(node)s',
                       address=messages.safe(address, limit=255),
                       node=node.uuid)
    if '://' not in address:
        address = 'https://%s' % address
    try:
        parsed = urlparse.urlsplit(address)
        valid = parsed.scheme in ('http', 'https') and parsed.hostname
        if parsed.port is not None and not 0 < parsed.port < 65536:
            valid = False
    except ValueError:
        valid = False
    if not valid or parsed.query or parsed.fragment:
        raise _invalid('Invalid Redfish address %(address)s set in '
                       'driver_info/redfish_address on node %(node)s',
                       address=_without_userinfo(address), node=node.uuid)
    return '%s://%s' % (parsed.scheme, parsed.netloc), parsed.path


def _without_userinfo(url):
    """``url`` without ``user:password@`` (never shown or logged)."""
    try:
        parsed = urlparse.urlsplit(url)
    except ValueError:
        return '<invalid address>'
    if '@' not in parsed.netloc:
        return url
    return urlparse.urlunsplit(parsed._replace(
        netloc=parsed.netloc.rpartition('@')[2]))


def _verify_ca(node, value):
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        if os.path.isdir(value) or os.path.isfile(value):
            return value
        try:
            return strutils.bool_from_string(value, strict=True)
        except ValueError:
            pass
    raise _invalid('Invalid value type set in driver_info/redfish_verify_ca '
                   'on node %(node)s. The value should be a Boolean or the '
                   'path to a file/directory, not "%(value)s"',
                   node=node.uuid, value=value)


def parse_driver_info(node):
    """The sushy parameters of ``node``'s driver_info.

    :raises: MissingParameterValue without ``redfish_address``.
    :raises: InvalidParameterValue on a malformed value.
    """
    info = node.driver_info or {}
    missing = sorted(key for key in REQUIRED_PROPERTIES if not info.get(key))
    if missing:
        raise exception.MissingParameterValue(
            err='Missing the following Redfish properties in node '
                '%(node)s driver_info: %(info)s'
                % {'node': node.uuid, 'info': missing})
    address, root_prefix = _address(node, info['redfish_address'])
    system_id = info.get('redfish_system_id')
    if system_id is not None:
        if not isinstance(system_id, str):
            raise _invalid(
                'Invalid value "%(value)s" set in driver_info/'
                'redfish_system_id on node %(node)s. The value should be a '
                'path (string) to the resource that the driver will '
                'interact with. For example: /redfish/v1/Systems/1',
                value=system_id, node=node.uuid)
        system_id = urlparse.quote(system_id)
    auth_type = info.get('redfish_auth_type', CONF.redfish.auth_type)
    if auth_type not in _AUTH_TYPES:
        raise _invalid('Invalid value "%(value)s" set in driver_info/'
                       'redfish_auth_type on node %(node)s. The value should '
                       'be one of "basic", "session" or "auto".',
                       value=auth_type, node=node.uuid)
    params = {'address': address, 'system_id': system_id,
              'username': info.get('redfish_username'),
              'password': info.get('redfish_password'),
              'verify_ca': _verify_ca(node, info.get('redfish_verify_ca',
                                                     True)),
              'auth_type': auth_type, 'node_uuid': node.uuid}
    if root_prefix and root_prefix != '/':
        params['root_prefix'] = root_prefix
    return params


# -- the client cache ------------------------------------------------------

_AUTH_CLASSES = {'basic': sushy.auth.BasicAuth,
                 'session': sushy.auth.SessionAuth,
                 'auto': sushy.auth.SessionOrBasicAuth}
_clients = collections.OrderedDict()
_clients_lock = threading.Lock()


def _cache_key(info):
    # The password only as a salted digest: a changed password makes a new
    # client, and the cache holds no password in the clear in its keys.
    digest = hashlib.sha256(('%s\0%s' % (info['address'],
                                         info['password'] or '')).encode())
    return (info['address'], info.get('root_prefix'), info['username'],
            str(info['verify_ca']), info['auth_type'], digest.hexdigest())


def _new_client(info):
    auth = _AUTH_CLASSES[info['auth_type']](username=info['username'],
                                            password=info['password'])
    kwargs = {'verify': info['verify_ca'], 'auth': auth,
              'connect_timeout': CONF.redfish.connect_timeout,
              'read_timeout': CONF.redfish.read_timeout,
              # A BMC answering 5xx is retried by the conductor's own
              # attempts, not sushy's 10 x 3 seconds.
              'server_side_retries': 1, 'server_side_retries_delay': 1}
    if 'root_prefix' in info:
        kwargs['root_prefix'] = info['root_prefix']
    return sushy.Sushy(info['address'], **kwargs)


def _client(info):
    key = _cache_key(info)
    with _clients_lock:
        client = _clients.get(key)
        if client is not None:
            _clients.move_to_end(key)
            return client
    client = _new_client(info)
    size = CONF.redfish.connection_cache_size
    if size:
        with _clients_lock:
            _clients[key] = client
            while len(_clients) > size:
                _clients.popitem(last=False)
    return client


def _forget(info):
    with _clients_lock:
        _clients.pop(_cache_key(info), None)


# -- errors ----------------------------------------------------------------

def _scrub(text, info):
    """``text`` (a BMC's error) safe to store and log: bounded to
    ``[DEFAULT]log_in_db_max_size`` characters, with no userinfo in URLs,
    no password (plain or in ``Basic`` credentials), no token."""
    text = str(text)
    address = info['address']
    text = text.replace(address, _without_userinfo(address))
    try:
        url = urlparse.urlsplit(address)
        secrets, users = [info.get('password'), url.password], [
            info.get('username'), url.username]
    except ValueError:
        secrets, users = [info.get('password')], [info.get('username')]
    return messages.safe(text, secrets, users)


def scrub(text, node):
    """``text`` (an error) without the node's BMC credentials."""
    return _scrub(text, parse_driver_info(node))


def translate(err, node):
    """The ironic-lite exception for sushy's ``err`` on ``node``."""
    return _error_of(err, parse_driver_info(node))


def _error_of(err, info):
    """The ironic-lite exception for a sushy error (a short message)."""
    where = _without_userinfo(info['address'])
    node = info['node_uuid']
    if isinstance(err, sushy.exceptions.ConnectionError):
        return exception.RedfishConnectionError(
            node=node, error='unable to connect to the BMC at %s' % where)
    if isinstance(err, sushy.exceptions.AccessError):
        return exception.RedfishError(
            error='access to the BMC at %s was denied (HTTP %s): check '
                  'redfish_username and redfish_password of node %s'
                  % (where, getattr(err, 'status_code', 401), node))
    if isinstance(err, sushy.exceptions.ResourceNotFoundError):
        return exception.RedfishError(
            error='the Redfish resource was not found on the BMC at %s: %s'
                  % (where, _scrub(err, info)))
    return exception.RedfishError(error=_scrub(err, info))


def call(node, func, *args):
    """``func(client, *args)`` with the node's cached sushy client.

    A connection error is retried ([redfish]connection_attempts, every
    connection_retry_interval seconds) until the deadline of the worker
    that runs the call, if it has one (``common/deadline.py``); each
    attempt is bounded by [redfish]connect_timeout and read_timeout.  A
    failed client is dropped from the cache.

    :raises: RedfishConnectionError when the BMC cannot be reached.
    :raises: RedfishError on any other failure of the BMC or sushy.
    """
    info = parse_driver_info(node)
    attempts = CONF.redfish.connection_attempts
    for attempt in range(1, attempts + 1):
        try:
            return func(_client(info), *args)
        except sushy.exceptions.SushyError as err:
            _forget(info)
            error = _error_of(err, info)
            LOG.warning('Redfish call for node %s failed (attempt %d of '
                        '%d): %s', node.uuid, attempt, attempts, error)
            retry = isinstance(err, sushy.exceptions.ConnectionError)
            # Nobody waits for the answer any more: no other attempt.
            if not retry or attempt == attempts or deadline.passed():
                raise error from None
        except AttributeError as err:
            # A stale session (sushy surfaces it so): a new client next.
            _forget(info)
            raise exception.RedfishError(error=_scrub(err, info)) from None
        time.sleep(CONF.redfish.connection_retry_interval)


def get_system(node):
    """The sushy ComputerSystem of ``node`` (its redfish_system_id, or
    the BMC's only one)."""
    system_id = parse_driver_info(node)['system_id']
    return call(node, lambda client: client.get_system(system_id))


def sushy_errors(node):
    """A context manager mapping sushy errors raised while using a
    system (after ``get_system``) to RedfishError."""
    return _Mapped(node)


class _Mapped(object):
    def __init__(self, node):
        self.node = node

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc is None or not isinstance(exc, sushy.exceptions.SushyError):
            return False
        info = parse_driver_info(self.node)
        if isinstance(exc, (sushy.exceptions.ConnectionError,
                            sushy.exceptions.AccessError)):
            _forget(info)
        raise _error_of(exc, info) from None
