"""The cloud Tempest runs against: a real Keystone and ironic-lite.

Keystone is the functional tests' (tests/functional/keystone.py: installed
from PyPI once into a cached venv, SQLite, served on a free loopback port).
Into it go the pre-provisioned accounts that ironic-tempest-plugin's tests
ask for -- per set: a system admin, member and reader (system scope) and a
project admin, member and reader in a project of their own -- ironic-lite's
service user, and ironic-lite itself in the catalog as ``baremetal``.

ironic-lite is this tree's single-process ``ironic-lite`` (API and
conductor, SQLite, the in-process transport): ``auth_strategy = keystone``
with keystonemiddleware validating the tokens, and Ironic's secure RBAC on
(``[oslo_policy] enforce_scope`` and ``enforce_new_defaults``).
"""

import os

from tests.functional import keystone
from tests.functional import procs

PASSWORD = 'tempest-secret'
SERVICE_USER = 'ironic'
SERVICE_PROJECT = 'service'
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


def provision(ks, sets, lite_url):
    """Users, projects and role assignments; ironic-lite in the catalog.

    :returns: the accounts file's entries (Tempest's accounts.yaml format),
        ``sets`` copies of :data:`SET_ACCOUNTS`: with ``tempest run
        --concurrency N`` each worker locks one account of a kind while a
        test class runs, so N sets are needed, and one more is spare.
    """
    ident = keystone.Identity(ks)
    ident.user(SERVICE_USER, PASSWORD, 'service', SERVICE_PROJECT)
    ident.register_baremetal(lite_url)
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

# [DEFAULT] as devstack/lib/ironic writes it for Ironic's Tempest jobs
# (fake-hardware): the fake implementations enabled beside the others.
# Ironic's rules then give a fake-hardware node the fake ones, which
# fake-hardware lists first (TestHardwareInterfaces.test_reset_interfaces
# expects it).  Names ironic-lite lacks (ipxe, direct, agent, ipmitool)
# are ignored with a warning, as an Ironic operator's file would have them.
DEVSTACK_INTERFACES = {
    'enabled_hardware_types': 'fake-hardware',
    'enabled_bios_interfaces': 'fake,no-bios',
    'enabled_boot_interfaces': 'fake,ipxe',
    'enabled_console_interfaces': 'fake,no-console',
    'enabled_deploy_interfaces': 'fake,direct,ramdisk',
    'enabled_inspect_interfaces': 'fake,agent,no-inspect',
    'enabled_network_interfaces': 'flat,noop',
    'enabled_raid_interfaces': 'fake,agent,no-raid',
    'enabled_rescue_interfaces': 'fake,no-rescue',
    'enabled_storage_interfaces': 'fake,cinder,noop',
    'enabled_vendor_interfaces': 'fake,ipmitool,no-vendor',
}


def lite_config(directory, port, ks):
    """ironic-lite's configuration file: Keystone auth, scoped RBAC."""
    default = {'auth_strategy': 'keystone',
               'state_path': os.path.join(directory, 'state'),
               'host': 'tempest-lite',
               'debug': True}
    default.update(DEVSTACK_INTERFACES)
    return procs.write_config(os.path.join(directory, 'ironic.conf'), {
        'DEFAULT': default,
        'api': {'host_ip': '127.0.0.1', 'port': port},
        'database': {'connection': 'sqlite:///%s'
                     % os.path.join(directory, 'ironic.sqlite')},
        'conductor': {'heartbeat_interval': 1},
        'oslo_policy': {'enforce_scope': True,
                        'enforce_new_defaults': True},
        'keystone_authtoken': {
            'www_authenticate_uri': ks.url, 'auth_url': ks.url,
            'auth_type': 'password', 'username': SERVICE_USER,
            'password': PASSWORD, 'user_domain_name': 'Default',
            'project_name': SERVICE_PROJECT,
            'project_domain_name': 'Default'},
    })


def start_lite(directory, port, ks):
    """This tree's ``ironic-lite`` on ``port``, once it answers /v1."""
    os.makedirs(directory, exist_ok=True)
    config = lite_config(directory, port, ks)
    service = procs.Service('ironic-lite', config, directory)
    service.base = 'http://127.0.0.1:%d' % port
    procs.wait_http(service.base + '/v1', service)
    return service


def system_admin_headers(ks):
    """Headers with a system admin's token (the bootstrap admin)."""
    return {'X-Auth-Token': ks.admin_session().get_token()}


def fake_hardware_interfaces(lite, ks):
    """{interface: [enabled names]} of fake-hardware, as the API says."""
    status, _h, body = procs.http(
        'GET', lite.base + '/v1/drivers/fake-hardware',
        headers=system_admin_headers(ks))
    if status != 200:
        raise RuntimeError('GET /v1/drivers/fake-hardware: %s %s'
                           % (status, body))
    prefix, suffix = 'enabled_', '_interfaces'
    return {key[len(prefix):-len(suffix)]: value
            for key, value in body.items()
            if key.startswith(prefix) and key.endswith(suffix)}


def microversions(lite):
    """(min, max) of the service's API, from GET /v1."""
    body = procs.http('GET', lite.base + '/v1', version=None)[2]
    version = body['version']
    return version['min_version'], version['version']
