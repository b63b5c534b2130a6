"""``ironic.conf`` as Ironic's devstack plugin writes it for the Tempest
API job, for Ironic 39 and ironic-lite alike.

``ironic_conf`` follows ``configure_ironic``, ``configure_ironic_api``,
``configure_client_for`` and ``configure_ironic_conductor`` of
devstack/lib/ironic with the settings of the ``ironic-tempest-functional-
python3`` job (``IRONIC_DEFAULT_NETWORK_INTERFACE: noop``, the interface
lists' defaults, scope enforced by Ironic's own defaults).  It departs
from devstack only where this machine has no such thing:

* ``enabled_hardware_types``: ``fake-hardware`` (devstack's default adds
  ``ipmi``: ironic-lite has no such type and, as Ironic with a type it
  cannot load, refuses to start with it);
* ``rpc_transport = none``: Ironic's all-in-one ``ironic`` command (the
  job runs ironic-api and ironic-conductor over JSON-RPC);
* no syslog, memcached or TLS bundle options, the TFTP and HTTP
  directories under ``$state_path``, and no ``[service_catalog]
  endpoint_override`` (it would carry the port: the catalog has the
  service instead);
* devstack leaves ``enabled_power_interfaces`` and
  ``enabled_management_interfaces`` empty; they are left out, so each
  service uses its default.

The same arguments give the same file but for the three values each
service must have of its own: ``[database]connection``, ``[api]port``
and ``[DEFAULT]state_path`` (``differences`` shows it).
"""

import configparser

from tools.benchmark import ironic_env

SERVICE_USER = 'ironic'
SERVICE_PROJECT = 'service'
HOST = 'tempest'
# The directories under state_path the options name (made beforehand).
DIRECTORIES = ('httpboot', 'tftpboot/master_images')
# devstack's IRONIC_HTTP_PORT (nothing serves it here: no deployment).
HTTP_PORT = 3928
# The only options whose values differ between the two services' files.
PER_SERVICE = frozenset([('database', 'connection'), ('api', 'port'),
                         ('DEFAULT', 'state_path')])
# devstack's IRONIC_ENABLED_<IFACE>_INTERFACES defaults (no ir-novnc).
ENABLED_INTERFACES = {
    'bios': 'fake,no-bios',
    'boot': 'fake,ipxe',
    'console': 'fake,no-console',
    'deploy': 'fake,direct,ramdisk',
    'inspect': 'fake,agent,no-inspect',
    'raid': 'fake,agent,no-raid',
    'rescue': 'fake,no-rescue',
    'storage': 'fake,cinder,noop',
    'network': 'flat,noop',
    'vendor': 'fake,ipmitool,no-vendor',
}
# The sections of configure_client_for: keystoneauth for the services
# Ironic calls (json_rpc too, whose auth strategy is unset: keystone).
CLIENT_SECTIONS = ('json_rpc', 'neutron', 'swift', 'glance', 'cinder',
                   'service_catalog', 'nova')


def _client(ks, password):
    return {'auth_type': 'password', 'auth_url': ks.url,
            'username': SERVICE_USER, 'password': password,
            'project_name': SERVICE_PROJECT,
            'project_domain_id': 'default', 'user_domain_id': 'default',
            'region_name': 'RegionOne'}


def _authtoken(ks, password):
    # devstack/lib/keystone configure_keystone_authtoken_middleware (by
    # names, where configure_client_for gives ids), then
    # configure_ironic_api's service_token_roles_required.
    return {'auth_type': 'password', 'interface': 'public',
            'auth_url': ks.url, 'username': SERVICE_USER,
            'password': password, 'user_domain_name': 'Default',
            'project_name': SERVICE_PROJECT,
            'project_domain_name': 'Default',
            'www_authenticate_uri': ks.url,
            'service_token_roles_required': True}


def _default(state_path, auth_strategy, hardware_types):
    default = {
        'debug': True,
        'state_path': state_path,
        'use_syslog': False,
        'host': HOST,
        'minimum_required_memory': 256,
        'rpc_transport': 'none',
        'rbac_service_role_elevated_access': True,
        'auth_strategy': auth_strategy,
        'enabled_hardware_types': ','.join(hardware_types),
        'default_network_interface': 'noop',
    }
    for iface, names in ENABLED_INTERFACES.items():
        default['enabled_%s_interfaces' % iface] = names
    if 'redfish' in hardware_types:
        # The interfaces Ironic's redfish virtual media job enables
        # (ironic-tempest-uefi-redfish-vmedia), beside the fake ones.
        default['enabled_boot_interfaces'] += ',redfish-virtual-media'
        default['enabled_power_interfaces'] = 'fake,redfish'
        default['enabled_management_interfaces'] = 'fake,redfish'
    return default


def sections(ks, password, database, port, state_path,
             auth_strategy='keystone', hardware_types=('fake-hardware',)):
    """{section: {option: value}} of the file (see the module's doc).

    :param ks: the Keystone (its ``url``); with ``auth_strategy='noauth'``
        it may be None (a functional test without Keystone).
    """
    result = {
        'DEFAULT': _default(state_path, auth_strategy, hardware_types),
        'api': {'response_validation': 'error', 'host_ip': '127.0.0.1',
                'port': port},
        'database': {'connection': database},
        'agent': {'deploy_logs_collect': 'always',
                  'deploy_logs_storage_backend': 'local',
                  'deploy_logs_local_path': '/var/log/ironic/deploy_logs'},
        'pxe': {'dir_permission': 493, 'tftp_server': '127.0.0.1',
                'tftp_root': '$state_path/tftpboot',
                'tftp_master_path': '$state_path/tftpboot/master_images'},
        # The ipxe boot interface writes boot.ipxe into http_root when it
        # loads; devstack's directories are under its data dir, these
        # under each service's state_path (the same line in both files).
        'deploy': {'fast_track': False, 'erase_devices_priority': 0,
                   'http_root': '$state_path/httpboot',
                   'http_url': 'http://127.0.0.1:%d' % HTTP_PORT},
        'conductor': {'automated_clean': True,
                      'log_step_flows_to_syslog': False},
        'dhcp': {'dhcp_provider': 'neutron'},
        'oslo_middleware': {'enable_proxy_headers_parsing': True},
    }
    if ks is not None:
        result['keystone_authtoken'] = _authtoken(ks, password)
        for section in CLIENT_SECTIONS:
            result[section] = _client(ks, password)
    result.setdefault('json_rpc', {})['port'] = 8089
    # No Nova: its power notifications are off (devstack without n-api).
    result.setdefault('nova', {})['send_power_notifications'] = False
    return result


def ironic_conf(path, ks, password, database, port, state_path, **kwargs):
    """Write the file at ``path``; returns ``path``."""
    return ironic_env.write_config(path, sections(
        ks, password, database, port, state_path, **kwargs))


def differences(path_a, path_b):
    """{(section, option)} whose values differ between two ini files (or
    that one of them lacks)."""
    values = []
    for path in (path_a, path_b):
        parser = configparser.RawConfigParser()
        parser.optionxform = str
        parser.read(path)
        found = {('DEFAULT', k): v for k, v in parser.defaults().items()}
        for section in parser.sections():
            found.update({(section, k): v
                          for k, v in parser.items(section, raw=True)
                          if k not in parser.defaults()})
        values.append(found)
    keys = set(values[0]) | set(values[1])
    return {key for key in keys if values[0].get(key) != values[1].get(key)}
