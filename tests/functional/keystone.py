"""A real Keystone for the functional tests.

Keystone (``KEYSTONE_VERSION`` from PyPI) is installed once into a venv of
its own, outside ironic-lite's dependencies, cached under
``$XDG_CACHE_HOME/ironic-lite-keystone/<version>`` (``~/.cache`` when
unset) as the upgrade tests cache old releases.  :func:`start` sets up a
SQLite-backed Keystone in a directory (``db_sync``, ``fernet_setup``,
``credential_setup``, ``bootstrap``) and serves its public WSGI application
(``keystone.server.wsgi.initialize_public_application``) on a free
loopback port.  Where Keystone cannot be installed the tests are skipped
with the reason (a failure with ``CI=true``).
"""

import contextlib
import grp
import json
import os
import pwd
import shutil
import subprocess
import sys

from tests import conftest
from tests.functional import procs
from tests import timeouts

KEYSTONE_VERSION = '30.0.0'
COMPLETE_MARKER = '.complete'
# Lines of the install log a failure shows (the whole log stays there).
LOG_TAIL = 30
REGION = 'RegionOne'
ADMIN_PASSWORD = 'admin-secret'

# Keystone's own server: oslo.config there reads sys.argv, so the script
# clears its arguments before it imports Keystone.
SERVER_SCRIPT = '''
import os, sys
host, port, config = sys.argv[1], int(sys.argv[2]), sys.argv[3]
threaded = sys.argv[4] == 'threaded'
sys.argv = sys.argv[:1]
os.environ['OS_KEYSTONE_CONFIG_FILES'] = config
from keystone.server import wsgi
from werkzeug import serving
app = wsgi.initialize_public_application()
serving.make_server(host, port, app, threaded=threaded).serve_forever()
'''


def cache_root():
    return procs.cache_dir('ironic-lite-keystone')


def _complete(venv):
    marker = os.path.join(venv, COMPLETE_MARKER)
    return (os.path.exists(marker) and
            os.access(os.path.join(venv, 'bin', 'keystone-manage'), os.X_OK))


def _install(root, venv):
    """A venv with Keystone from PyPI.  pip's output goes to install.log
    and is shown only when the install fails: -qq leaves errors alone,
    without the warnings a machine's pip configuration can print for
    every package (an extra index that is not there, say)."""
    log_path = os.path.join(root, 'install.log')
    shutil.rmtree(venv, ignore_errors=True)
    with open(log_path, 'w') as log:
        try:
            for args in ([sys.executable, '-m', 'venv', venv],
                         [os.path.join(venv, 'bin', 'python'), '-m', 'pip',
                          'install', '-qq', '--disable-pip-version-check',
                          '--no-input', 'keystone==%s' % KEYSTONE_VERSION]):
                subprocess.run(args, stdout=log, stderr=subprocess.STDOUT,
                               check=True, timeout=timeouts.INSTALL_HANG)
        except (OSError, subprocess.SubprocessError) as err:
            with open(log_path) as f:
                tail = f.read().splitlines()[-LOG_TAIL:]
            conftest.unavailable(
                'Keystone %s could not be installed from PyPI into %s (%s; '
                'log: %s):\n%s' % (KEYSTONE_VERSION, venv, err, log_path,
                                   '\n'.join(tail) or '(no output)'))
    with open(os.path.join(venv, COMPLETE_MARKER), 'w') as f:
        f.write(KEYSTONE_VERSION + '\n')


def install():
    """The bin directory of the cached Keystone venv (installed once)."""
    root = os.path.join(cache_root(), KEYSTONE_VERSION)
    venv = os.path.join(root, 'venv')
    if not _complete(venv):
        os.makedirs(root, exist_ok=True)
        with procs.file_lock(os.path.join(root, '.lock')):
            if not _complete(venv):
                _install(root, venv)
    return os.path.join(venv, 'bin')


class Keystone(object):
    """A running Keystone; ``url`` is its public endpoint (``/v3``).

    ``threaded``: one thread per request.  Each password authentication
    writes the user's ``last_active_at``; on SQLite two of them at once
    can fail with "database is locked" (a 500), which a client that
    authenticates in parallel (Tempest's workers) meets.
    """

    threaded = True

    def __init__(self, bindir, directory):
        self.bindir = bindir
        self.directory = directory
        self.port = procs.free_port()
        self.url = 'http://127.0.0.1:%d/v3' % self.port
        self.config = self._write_config()
        self.proc = None
        self._session = None
        self.log_path = os.path.join(directory, 'keystone.log')

    def _write_config(self):
        d = self.directory
        return procs.write_config(os.path.join(d, 'keystone.conf'), {
            'DEFAULT': {'log_file': os.path.join(d, 'keystone-app.log')},
            'database': {'connection': 'sqlite:///%s'
                         % os.path.join(d, 'keystone.db')},
            'fernet_tokens': {'key_repository': os.path.join(d, 'fernet')},
            'credential': {'key_repository': os.path.join(d, 'credential')},
            'token': {'provider': 'fernet'},
            # bcrypt's fewest rounds: test passwords, many logins.
            'identity': {'password_hash_rounds': 4},
        })

    def manage(self, *args):
        result = subprocess.run(
            [os.path.join(self.bindir, 'keystone-manage'), '--config-file',
             self.config] + list(args),
            capture_output=True, text=True, timeout=timeouts.HANG)
        if result.returncode != 0:
            raise AssertionError('keystone-manage %s exited %s:\n%s'
                                 % (args[0], result.returncode,
                                    result.stderr[-3000:]))

    def _initialise(self):
        user = pwd.getpwuid(os.getuid()).pw_name
        group = grp.getgrgid(os.getgid()).gr_name
        owner = ('--keystone-user', user, '--keystone-group', group)
        self.manage('db_sync')
        self.manage('fernet_setup', *owner)
        self.manage('credential_setup', *owner)
        self.manage('bootstrap', '--bootstrap-password', ADMIN_PASSWORD,
                    '--bootstrap-admin-url', self.url,
                    '--bootstrap-public-url', self.url,
                    '--bootstrap-internal-url', self.url,
                    '--bootstrap-region-id', REGION)

    def setup(self):
        """db_sync, fernet_setup, credential_setup and bootstrap.

        They run once per cached Keystone, into a template directory that
        each Keystone then copies (test keys and data only); :meth:`start`
        points the identity endpoints at this Keystone's port.
        """
        template = os.path.join(os.path.dirname(self.bindir), 'template')
        marker = os.path.join(template, COMPLETE_MARKER)
        if not os.path.exists(marker):
            with procs.file_lock(template + '.lock'):
                if not os.path.exists(marker):
                    shutil.rmtree(template, ignore_errors=True)
                    os.makedirs(template)
                    Keystone(self.bindir, template)._initialise()
                    with open(marker, 'w') as f:
                        f.write(KEYSTONE_VERSION + '\n')
        shutil.copyfile(os.path.join(template, 'keystone.db'),
                        os.path.join(self.directory, 'keystone.db'))
        for name in ('fernet', 'credential'):
            shutil.copytree(os.path.join(template, name),
                            os.path.join(self.directory, name))

    def _point_endpoints_here(self):
        for endpoint in self.call('GET', '/endpoints')['endpoints']:
            if endpoint['url'] != self.url:
                self.call('PATCH', '/endpoints/%s' % endpoint['id'],
                          {'endpoint': {'url': self.url}})

    def start(self):
        python = os.path.join(self.bindir, 'python')
        log = open(self.log_path, 'ab')
        self.proc = subprocess.Popen(
            [python, '-c', SERVER_SCRIPT, '127.0.0.1', str(self.port),
             self.config, 'threaded' if self.threaded else 'serial'],
            stdout=log, stderr=subprocess.STDOUT)
        log.close()
        procs.wait_for(self._ready, what='Keystone up')
        self._point_endpoints_here()

    def _ready(self):
        if self.proc.poll() is not None:
            raise AssertionError('Keystone exited %s:\n%s'
                                 % (self.proc.returncode, self.log()))
        try:   # a probe that gets no answer in 5 s is simply tried again
            return procs.http('GET', self.url, version=None,
                              timeout=5)[0] == 200
        except OSError:
            return False

    def log(self):
        with open(self.log_path, errors='replace') as f:
            return f.read()[-5000:]

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeouts.HANG)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    # -- the identity API, as the bootstrap admin (system scope) ----------

    def admin_session(self):
        from keystoneauth1 import session
        from keystoneauth1.identity import v3
        auth = v3.Password(auth_url=self.url, username='admin',
                           password=ADMIN_PASSWORD, user_domain_id='default',
                           system_scope='all')
        return session.Session(auth=auth)

    def call(self, method, path, body=None):
        if self._session is None:
            self._session = self.admin_session()
        sess = self._session
        resp = sess.request(self.url + path, method, json=body,
                            raise_exc=False)
        assert resp.status_code < 300, (method, path, resp.status_code,
                                        resp.text)
        return resp.json() if resp.content else None


class Identity(object):
    """Creates projects, users and role assignments in a Keystone."""

    def __init__(self, keystone):
        self.ks = keystone
        self.roles = {r['name']: r['id'] for r in
                      keystone.call('GET', '/roles')['roles']}
        self.projects = {}

    def role(self, name):
        if name not in self.roles:
            self.roles[name] = self.ks.call('POST', '/roles', {
                'role': {'name': name}})['role']['id']
        return self.roles[name]

    def project(self, name):
        if name not in self.projects:
            found = self.ks.call('GET', '/projects?name=%s' % name)
            if found['projects']:
                self.projects[name] = found['projects'][0]['id']
            else:
                self.projects[name] = self.ks.call('POST', '/projects', {
                    'project': {'name': name, 'domain_id': 'default'}}
                )['project']['id']
        return self.projects[name]

    def user(self, name, password, role, project=None):
        """A user with ``role`` on ``project``, or on the system."""
        user_id = self.ks.call('POST', '/users', {'user': {
            'name': name, 'password': password,
            'domain_id': 'default'}})['user']['id']
        if project is None:
            path = '/system/users/%s/roles/%s' % (user_id, self.role(role))
        else:
            path = '/projects/%s/users/%s/roles/%s' % (
                self.project(project), user_id, self.role(role))
        self.ks.call('PUT', path)
        return user_id

    def register_baremetal(self, url):
        """ironic-lite in the catalog: service baremetal, public URL."""
        service = self.ks.call('POST', '/services', {'service': {
            'type': 'baremetal', 'name': 'ironic'}})['service']['id']
        self.ks.call('POST', '/endpoints', {'endpoint': {
            'service_id': service, 'interface': 'public', 'url': url,
            'region_id': REGION}})


@contextlib.contextmanager
def with_baremetal(directory):
    """A Keystone started in ``directory``, ironic-lite in its catalog as
    service type ``baremetal`` at a free port (``ks.lite_port``), where
    ironic-lite is to listen; yields (the Keystone, its Identity)."""
    ks = Keystone(install(), directory)
    ks.setup()
    ks.start()
    try:
        ident = Identity(ks)
        ks.lite_port = procs.free_port()
        ident.register_baremetal('http://127.0.0.1:%d' % ks.lite_port)
        yield ks, ident
    finally:
        ks.stop()


def authtoken_section(ks, password):
    """ironic-lite's [keystone_authtoken], as the user ``ironic`` (role
    ``service`` in project ``service``) with ``password``."""
    return {'www_authenticate_uri': ks.url, 'auth_url': ks.url,
            'auth_type': 'password', 'username': 'ironic',
            'password': password, 'user_domain_name': 'Default',
            'project_name': 'service', 'project_domain_name': 'Default'}


def clouds_yaml(path, keystone, users):
    """A clouds.yaml with one cloud per user.

    :param users: {cloud name: (user, password, project or None)}; no
        project means a system-scoped token.
    """
    clouds = {}
    for name, (user, password, project) in users.items():
        auth = {'auth_url': keystone.url, 'username': user,
                'password': password, 'user_domain_name': 'Default'}
        if project is None:
            auth['system_scope'] = 'all'
        else:
            auth['project_name'] = project
            auth['project_domain_name'] = 'Default'
        clouds[name] = {'auth': auth, 'auth_type': 'password',
                        'region_name': REGION, 'identity_api_version': 3}
    with open(path, 'w') as f:
        json.dump({'clouds': clouds}, f, indent=1)  # JSON is YAML
    return path
