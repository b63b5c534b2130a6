"""The cloud Tempest runs against: a real Keystone and the service under
test, ironic-lite or Ironic 39.

Keystone is the functional tests' (tests/functional/keystone.py: installed
from PyPI once into a cached venv, SQLite, served on a free loopback port).
Into it go the pre-provisioned accounts that ironic-tempest-plugin's tests
ask for -- per set: a system admin, member and reader (system scope) and a
project admin, member and reader in a project of their own -- the
service's user, and the service itself in the catalog as ``baremetal``.

Both services start from the ``ironic.conf`` devstack would write
(tools/tempest/devstack.py: Keystone auth, Ironic's secure RBAC):
ironic-lite is this tree's single-process ``ironic-lite`` (API and
conductor, the in-process transport, SQLite), Ironic 39 its all-in-one
``ironic`` from the benchmarks' cached venv (tools/benchmark/ironic_env.py)
on PostgreSQL.
"""

import os
import shutil

from tests import conftest
from tests.functional import keystone
from tests.functional import procs
from tools.benchmark import ironic_env
from tools.tempest import devstack

PASSWORD = 'tempest-secret'
SERVICE_USER = devstack.SERVICE_USER
SERVICE_PROJECT = devstack.SERVICE_PROJECT
# The accounts of one set: (name, role, scope); scope 'project' means the
# set's project.  Keystone's implied roles (admin > member > reader) give
# each token the weaker roles too, as in a real deployment.
SET_ACCOUNTS = (
    ('sysadmin', 'admin', 'system'),
    ('sysmember', 'member', 'system'),
    ('sysreader', 'reader', 'system'),
    ('projadmin', 'admin', 'project'),
    ('projmember', 'member', 'project'),
    ('projreader', 'reader', 'project'),
)


class SerialKeystone(keystone.Keystone):
    """One request at a time: Tempest's workers authenticate in parallel,
    and SQLite refuses concurrent writes (see keystone.Keystone)."""

    threaded = False


def start_keystone(directory):
    """A running Keystone in ``directory`` (its data and log there)."""
    bindir = keystone.install()
    os.makedirs(directory, exist_ok=True)
    ks = SerialKeystone(bindir, directory)
    ks.setup()
    ks.start()
    return ks


def provision(ks, sets, service_url):
    """Users, projects and role assignments; the service in the catalog.

    :returns: the accounts file's entries (Tempest's accounts.yaml format),
        ``sets`` copies of :data:`SET_ACCOUNTS`: with ``tempest run
        --concurrency N`` each worker locks one account of a kind while a
        test class runs, so N sets are needed, and one more is spare.
    """
    ident = keystone.Identity(ks)
    ident.user(SERVICE_USER, PASSWORD, 'service', SERVICE_PROJECT)
    ident.register_baremetal(service_url)
    accounts = []
    for number in range(1, sets + 1):
        project = 'tempest-project-%d' % number
        for name, role, scope in SET_ACCOUNTS:
            user = 'tempest-%s-%d' % (name, number)
            entry = {'username': user, 'password': PASSWORD,
                     'user_domain_name': 'Default', 'roles': [role]}
            if scope == 'system':
                ident.user(user, PASSWORD, role)
                entry['system'] = 'all'
            else:
                ident.user(user, PASSWORD, role, project)
                entry['project_name'] = project
                entry['project_domain_name'] = 'Default'
            accounts.append(entry)
    return accounts


SERVICES = ('lite', 'ironic')
LABELS = {'lite': 'ironic-lite', 'ironic': 'ironic-39'}
# The database named in Ironic's file when another service runs (unused).
IRONIC_DATABASE = conftest.POSTGRESQL_URL + '/ironic'


def ironic_database():
    """A context manager: a new PostgreSQL database for Ironic 39 (its
    migrations cannot run on SQLite: ALTER of constraints), dropped at
    the end; its URL."""
    if not conftest.reachable('127.0.0.1', 5432):
        raise RuntimeError('--service ironic needs PostgreSQL on '
                           '127.0.0.1:5432 (user postgres, trust)')
    return conftest.temp_database(conftest.POSTGRESQL_URL, 5432)


def write_configs(workdir, ks, ports, ironic_url=IRONIC_DATABASE):
    """Each service's ``ironic.conf`` (devstack.ironic_conf), in
    ``<workdir>/<label>/``: {service: path}.  ironic-lite's database is a
    SQLite file there, Ironic's ``ironic_url``.  The two files differ only in
    devstack.PER_SERVICE, which is checked here, before either starts."""
    paths = {}
    for service in SERVICES:
        directory = os.path.join(workdir, LABELS[service])
        for made in devstack.DIRECTORIES:  # as configure_ironic_dirs
            os.makedirs(os.path.join(directory, 'state', made),
                        exist_ok=True)
        paths[service] = devstack.ironic_conf(
            os.path.join(directory, 'ironic.conf'), ks, PASSWORD,
            ironic_url if service == 'ironic' else
            'sqlite:///%s' % os.path.join(directory, 'ironic.sqlite'),
            ports[service],
            os.path.join(directory, 'state'))
    changed = devstack.differences(paths['lite'], paths['ironic'])
    if changed != devstack.PER_SERVICE:
        raise RuntimeError('the two ironic.conf differ in %s, not only in '
                           '%s' % (sorted(changed),
                                   sorted(devstack.PER_SERVICE)))
    return paths


def _start_ironic(config, directory):
    """Ironic 39's all-in-one ``ironic`` from its cached venv, on a
    new database its own ``ironic-dbsync upgrade`` made."""
    if shutil.which('ipmitool') is None:
        raise RuntimeError('Ironic loads the ipmitool vendor interface the '
                           'file enables only with the ipmitool command on '
                           'PATH (devstack installs it): apt-get install '
                           'ipmitool')
    bindir = ironic_env.ensure_installed()
    procs.run_command(os.path.join(bindir, 'ironic-dbsync'),
                      '--config-file', config, 'upgrade')
    return procs.Service('ironic', config, directory, label=LABELS['ironic'],
                         executable=os.path.join(bindir, 'ironic'))


def start_service(service, config, port):
    """``service`` ('lite': this tree's ``ironic-lite``; 'ironic': Ironic
    39) started from ``config`` on ``port``, once it answers /v1."""
    directory = os.path.dirname(config)
    if service == 'ironic':
        process = _start_ironic(config, directory)
    else:
        process = procs.Service('ironic-lite', config, directory)
    process.base = 'http://127.0.0.1:%d' % port
    procs.wait_http(process.base + '/v1', process)
    return process


def system_admin_headers(ks):
    """Headers with a system admin's token (the bootstrap admin)."""
    return {'X-Auth-Token': ks.admin_session().get_token()}


def fake_hardware_interfaces(service, ks):
    """{interface: [enabled names]} of fake-hardware, as the API says."""
    status, _h, body = procs.http(
        'GET', service.base + '/v1/drivers/fake-hardware',
        headers=system_admin_headers(ks))
    if status != 200:
        raise RuntimeError('GET /v1/drivers/fake-hardware: %s %s'
                           % (status, body))
    prefix, suffix = 'enabled_', '_interfaces'
    return {key[len(prefix):-len(suffix)]: value
            for key, value in body.items()
            if key.startswith(prefix) and key.endswith(suffix)}


def microversions(service):
    """(min, max) of the service's API, from GET /v1."""
    body = procs.http('GET', service.base + '/v1', version=None)[2]
    version = body['version']
    return version['min_version'], version['version']
