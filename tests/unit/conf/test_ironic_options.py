"""ironic-lite's options against Ironic's (``ironic_options.json``,
generated from Ironic's source by tools/gen-ironic-options.py): an option
both have keeps Ironic's type and default, but for the differences named
here, each with its reason (doc/source/api/differences.rst); and the
options of Ironic a configuration sets that ironic-lite lacks are found.
"""

import json

from oslo_config import cfg

from ironic_lite.conf import ironic_options
from ironic_lite.conf import opts

# (group, name) -> why ironic-lite's default differs from Ironic's.
DEFAULT_DIFFERENCES = {
    ('DEFAULT', 'host'): 'the machine\'s name, as Ironic (its sample shows '
                         '"localhost")',
    ('DEFAULT', 'state_path'): 'Ironic: its package directory',
    ('DEFAULT', 'auth_strategy'): 'the embedded default needs no Keystone',
    ('DEFAULT', 'enabled_hardware_types'): 'no ipmi hardware type',
    ('DEFAULT', 'enabled_boot_interfaces'): 'fake added for fake-hardware',
    ('DEFAULT', 'enabled_deploy_interfaces'): 'fake added',
    ('DEFAULT', 'enabled_inspect_interfaces'): 'fake added',
    ('DEFAULT', 'enabled_raid_interfaces'): 'fake added',
    ('DEFAULT', 'enabled_vendor_interfaces'): 'fake added',
    ('conductor', 'sync_power_state_interval'): 'ironic-lite syncs every '
    'minute (Ironic: 2)',
    ('conductor', 'node_locked_retry_interval'): 'seconds as a float '
    '(Ironic: an integer, 1)',
}


def _both():
    with open(ironic_options.DATA_FILE) as data:
        ironic = json.load(data)['groups']
    for group, options in opts.list_opts():
        for opt in options:
            theirs = ironic.get(group, {}).get(opt.dest)
            if theirs is not None:
                yield group, opt, theirs


def test_shared_options_keep_ironic_s_type_and_default():
    differ = {(group, opt.dest) for group, opt, theirs in _both()
              if type(opt).__name__ != theirs['type']
              or opt.default != theirs['default']}
    assert differ == set(DEFAULT_DIFFERENCES)


def test_the_driver_options_are_ironic_s():
    names = {(group, opt.dest) for group, opt, _theirs in _both()}
    for iface in ('bios', 'boot', 'deploy', 'power', 'vendor'):
        assert ('DEFAULT', 'enabled_%s_interfaces' % iface) in names
        assert ('DEFAULT', 'default_%s_interface' % iface) in names


def test_unimplemented_options_of_a_configuration(tmp_path):
    conf_file = tmp_path / 'ironic.conf'
    conf_file.write_text('[DEFAULT]\nrpc_transport = json-rpc\n'
                         'my_ip = 10.0.0.1\nenabled_hardware_types = x\n'
                         'not_an_option = 1\n'
                         '[pxe]\ntftp_root = /tftpboot\n'
                         '[conductor]\nheartbeat_interval = 5\n'
                         '[json_rpc]\nport = 8089\n'
                         'unix_socket = /run/ironic/json-rpc\n')
    conf = cfg.ConfigOpts()
    for group, options in opts.list_opts():
        conf.register_opts(options,
                           group=None if group == 'DEFAULT' else group)
    conf(['--config-file', str(conf_file)], project='ironic')
    assert ironic_options.unimplemented(conf) == [
        '[DEFAULT]my_ip', '[json_rpc]unix_socket', '[pxe]tftp_root']


def test_an_ironic_keystone_json_rpc_section_is_implemented(tmp_path):
    """Ironic's usual [json_rpc] with Keystone: keystoneauth's password
    plugin and session options, all taken here."""
    conf_file = tmp_path / 'ironic.conf'
    conf_file.write_text('[DEFAULT]\nauth_strategy = keystone\n'
                         'rpc_transport = json-rpc\n'
                         '[json_rpc]\nauth_type = password\n'
                         'auth_url = http://keystone.example/identity\n'
                         'username = ironic\npassword = secret\n'
                         'project_name = service\n'
                         'user_domain_name = Default\n'
                         'project_domain_name = Default\n'
                         'cafile = /etc/ironic/ca.pem\ninsecure = false\n'
                         'timeout = 120\nallowed_roles = admin,service\n')
    conf = cfg.ConfigOpts()
    for group, options in opts.list_opts():
        conf.register_opts(options,
                           group=None if group == 'DEFAULT' else group)
    conf(['--config-file', str(conf_file)], project='ironic')
    assert ironic_options.unimplemented(conf) == []
    assert conf.json_rpc.allowed_roles == ['admin', 'service']
    assert conf.json_rpc.timeout == 120.0
