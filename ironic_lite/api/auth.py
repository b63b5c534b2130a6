"""HTTP basic authentication (``[DEFAULT]auth_strategy = http_basic``).

Users live in an Apache htpasswd file with bcrypt hashes, as for Ironic.
ironic-lite reads two optional extra fields after the hash, which become
the identity the policy rules see::

    name:$2b$12$...                     # admin, system scope (like Ironic)
    name:$2b$12$...:reader              # system reader
    name:$2b$12$...:member,reader:PROJ  # member of project PROJ

Identity headers a client sends itself are always dropped.  The root
document (``/``), ``/v1`` and the ramdisk agent's ``/v1/lookup`` and
``/v1/heartbeat/<node>`` and ``/v1/continue_inspection`` need no
credentials, as in Ironic.
"""

import re

import webob
import webob.exc

from oslo_middleware import basic_auth

from ironic_lite.api import errors

REALM = 'Baremetal API'
DEFAULT_ROLES = 'admin'

# Identity a client could try to assert through headers.
IDENTITY_ENVIRON_KEYS = (
    'HTTP_X_USER', 'HTTP_X_USER_ID', 'HTTP_X_USER_NAME', 'HTTP_X_ROLES',
    'HTTP_X_ROLE', 'HTTP_X_PROJECT_ID', 'HTTP_X_PROJECT_NAME',
    'HTTP_X_TENANT_ID', 'HTTP_X_TENANT', 'HTTP_X_TENANT_NAME',
    'HTTP_X_SYSTEM_SCOPE', 'HTTP_X_DOMAIN_ID', 'HTTP_X_DOMAIN_NAME',
    'HTTP_X_USER_DOMAIN_ID', 'HTTP_X_USER_DOMAIN_NAME',
    'HTTP_X_PROJECT_DOMAIN_ID', 'HTTP_X_PROJECT_DOMAIN_NAME',
    'HTTP_X_IS_ADMIN_PROJECT', 'HTTP_X_IDENTITY_STATUS',
    'HTTP_X_SERVICE_ROLES', 'HTTP_X_AUTH_TOKEN', 'HTTP_X_STORAGE_TOKEN',
    'HTTP_OPENSTACK_SYSTEM_SCOPE', 'HTTP_X_SERVICE_TOKEN')


def public_matcher(public_paths):
    """A predicate: whether a request's PATH_INFO is one of the public
    paths (regular expressions matching the whole path, compared without
    a trailing slash, as Ironic's ``public_api_routes``)."""
    pattern = re.compile('|'.join('(?:%s)' % p for p in public_paths)
                         if public_paths else r'(?!)')

    def is_public(environ):
        return bool(pattern.fullmatch(
            environ.get('PATH_INFO', '').rstrip('/')))
    return is_public


def strip_identity(environ):
    for key in IDENTITY_ENVIRON_KEYS:
        environ.pop(key, None)


def find_entry(auth_file, username):
    """The htpasswd line of ``username`` split into (hash, roles, project).

    :raises: HTTPUnauthorized when the user is unknown.
    """
    prefix = username + ':'
    with open(auth_file) as f:
        for line in f:
            entry = line.strip()
            if entry.startswith(prefix):
                fields = entry[len(prefix):].split(':')
                crypted = fields[0]
                roles = fields[1] if len(fields) > 1 and fields[1] else None
                project = fields[2] if len(fields) > 2 and fields[2] else None
                return crypted, roles or DEFAULT_ROLES, project
    raise webob.exc.HTTPUnauthorized()


# Keystone's default implied roles: admin > member > reader.
IMPLIED_ROLES = {'admin': ('member', 'reader'), 'member': ('reader',)}


def expand_roles(roles):
    """'admin' -> 'admin,member,reader', as Keystone's implied roles."""
    names = [r.strip() for r in roles.split(',') if r.strip()]
    for name in list(names):
        names += [r for r in IMPLIED_ROLES.get(name, ()) if r not in names]
    return ','.join(names)


def identity_environ(username, roles, project):
    """The WSGI environment keys oslo.context reads an identity from."""
    env = {'HTTP_X_USER_ID': username, 'HTTP_X_USER_NAME': username,
           'HTTP_X_USER': username, 'HTTP_X_ROLES': expand_roles(roles)}
    if project:
        env['HTTP_X_PROJECT_ID'] = project
        env['HTTP_X_PROJECT_NAME'] = project
    else:
        env['HTTP_OPENSTACK_SYSTEM_SCOPE'] = 'all'
    return env


class BasicAuthMiddleware(object):
    """Checks basic credentials against the htpasswd file."""

    def __init__(self, app, auth_file, public_paths=()):
        self.app = app
        self.auth_file = auth_file
        self.is_public = public_matcher(public_paths)
        basic_auth.validate_auth_file(auth_file)

    def authenticate(self, environ):
        token = basic_auth.parse_header(environ)
        username, password = basic_auth.parse_token(token)
        crypted, roles, project = find_entry(self.auth_file, username)
        # The library checks the bcrypt hash (and only accepts bcrypt).
        basic_auth.auth_entry('%s:%s' % (username, crypted), password)
        return identity_environ(username, roles, project)

    def __call__(self, environ, start_response):
        strip_identity(environ)
        if self.is_public(environ):
            return self.app(environ, start_response)
        try:
            environ.update(self.authenticate(environ))
        except webob.exc.HTTPException as exc:
            headers = []
            if exc.code == 401:
                headers.append(('WWW-Authenticate',
                                'Basic realm="%s"' % REALM))
            message = (exc.detail if exc.code != 401
                       else 'Incorrect username or password')
            resp = errors.fault_response(exc.code, message, headers)
            return resp(environ, start_response)
        return self.app(environ, start_response)
