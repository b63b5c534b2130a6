"""[DEFAULT]enabled_<interface>_interfaces and default_<interface>_interface:
the implementation a node gets when it names none, by Ironic's rules
(ironic/common/driver_factory.py ``default_interface``): the configured
default when set, else the first implementation the hardware type
supports that is enabled; checked when the conductor starts and when a
node takes it."""

from oslo_config import cfg
from oslo_utils import uuidutils
import pytest

from ironic_lite.common import exception
from ironic_lite.conf import default as default_opts
from ironic_lite.drivers import factory
from ironic_lite import objects
from tests.unit.conductor import conftest


def _new_node(context, driver='fake-hardware', **values):
    return objects.Node(context, driver=driver, conductor_group='',
                        uuid=uuidutils.generate_uuid(), **values)


# devstack's settings for Ironic's Tempest jobs (devstack/lib/ironic),
# with fake-hardware and redfish enabled; management and power unset.
DEVSTACK = {
    'enabled_hardware_types': ['fake-hardware', 'redfish'],
    'enabled_bios_interfaces': ['fake', 'no-bios'],
    'enabled_boot_interfaces': ['fake', 'ipxe', 'redfish-virtual-media'],
    'enabled_console_interfaces': ['fake', 'no-console'],
    'enabled_deploy_interfaces': ['fake', 'direct', 'ramdisk'],
    'enabled_inspect_interfaces': ['fake', 'agent', 'no-inspect'],
    'enabled_network_interfaces': ['flat', 'noop'],
    'enabled_raid_interfaces': ['fake', 'agent', 'no-raid'],
    'enabled_rescue_interfaces': ['fake', 'no-rescue'],
    'enabled_storage_interfaces': ['fake', 'cinder', 'noop'],
    'enabled_vendor_interfaces': ['fake', 'ipmitool', 'no-vendor'],
}
IFACES = ('bios', 'boot', 'console', 'deploy', 'inspect', 'management',
          'network', 'power', 'raid', 'rescue', 'storage', 'vendor')
# What Ironic 39 chooses (read from its driver_factory and the hardware
# types' supported_*_interfaces), in IFACES order.  Where Ironic's choice
# is an implementation ironic-lite does not have (ipxe, direct, agent
# raid),
# the next enabled one the type supports is taken: the comment says so.
TABLE = [
    ({}, 'fake-hardware',
     ('no-bios', 'fake', 'no-console', 'fake', 'fake', 'fake', 'flat',
      'fake', 'fake', 'no-rescue', 'noop', 'fake')),
    ({'enabled_hardware_types': ['fake-hardware', 'redfish']}, 'redfish',
     ('redfish', 'redfish-virtual-media',  # Ironic: ipxe
      'no-console', 'ramdisk',  # Ironic: autodetect
      'redfish', 'redfish', 'flat', 'redfish', 'no-raid',  # Ironic: agent
      'no-rescue', 'noop', 'no-vendor')),  # Ironic: ipmitool... redfish
    (DEVSTACK, 'fake-hardware',
     ('fake', 'fake', 'fake', 'fake', 'fake', 'fake', 'flat', 'fake',
      'fake', 'fake', 'noop', 'fake')),
    (DEVSTACK, 'redfish',
     ('no-bios', 'redfish-virtual-media',  # Ironic: ipxe
      'no-console', 'ramdisk',  # Ironic: direct
      'agent',
      'redfish', 'flat', 'redfish', 'no-raid', 'no-rescue', 'noop',
      'no-vendor')),
    (dict(DEVSTACK, default_rescue_interface='no-rescue',
          default_network_interface='noop'), 'fake-hardware',
     ('fake', 'fake', 'fake', 'fake', 'fake', 'fake', 'noop', 'fake',
      'fake', 'no-rescue', 'noop', 'fake')),
]


@pytest.mark.parametrize('options, driver, expected', TABLE)
def test_ironic_rules_choose_the_default(config, options, driver, expected):
    for name, value in options.items():
        config.set_override(name, value)
    hw_type = factory.get_hardware_type(driver)
    assert tuple(factory.default_interface(hw_type, i)
                 for i in IFACES) == expected


def test_enabled_lists_drop_what_is_not_implemented(config):
    config.set_override('enabled_deploy_interfaces',
                        ['direct', 'fake', 'fake', '', 'ramdisk'])
    assert factory.enabled_interfaces('deploy') == ['fake', 'ramdisk']
    assert factory.unimplemented_interfaces()['enabled_deploy_interfaces'] \
        == ['direct']


def test_unset_or_empty_enables_each_type_s_first(config):
    config.set_override('enabled_hardware_types', ['fake-hardware',
                                                   'redfish'])
    assert factory.enabled_interfaces('power') == ['fake', 'redfish']
    for empty in ([], ['']):
        config.set_override('enabled_bios_interfaces', empty)
        assert factory.enabled_interfaces('bios') == ['fake', 'redfish']
    # Only names ironic-lite lacks: none enabled (no default is found).
    config.set_override('enabled_boot_interfaces', ['ipxe'])
    assert factory.enabled_interfaces('boot') == []


def test_the_deprecated_conductor_group_still_enables(tmp_path):
    conf_file = tmp_path / 'ironic.conf'
    conf_file.write_text('[conductor]\n'
                         'enabled_hardware_types = fake-hardware,redfish\n')
    own = cfg.ConfigOpts()
    own.register_opts(default_opts.interface_opts)
    own(['--config-file', str(conf_file)], project='ironic')
    assert own.enabled_hardware_types == ['fake-hardware', 'redfish']


def test_create_takes_the_configured_defaults(config, context, rpc_api):
    config.set_override('enabled_console_interfaces', ['fake', 'no-console'])
    config.set_override('default_network_interface', 'noop')
    config.set_override('default_console_interface', 'fake')
    node = rpc_api.create_node(context, _new_node(context))
    assert (node.network_interface, node.console_interface) == ('noop',
                                                                'fake')
    # The others keep the first enabled of the hardware type's.
    assert node.bios_interface == 'no-bios'
    given = rpc_api.create_node(context, _new_node(
        context, network_interface='flat'))
    assert given.network_interface == 'flat'


def test_unset_means_the_first_enabled(context, rpc_api):
    node = rpc_api.create_node(context, _new_node(context))
    assert (node.network_interface, node.console_interface,
            node.storage_interface) == ('flat', 'no-console', 'noop')


def test_reset_interfaces_takes_the_configured_defaults(config, context,
                                                        rpc_api, make_node):
    node = make_node(network_interface='flat', rescue_interface='no-rescue')
    config.set_override('enabled_rescue_interfaces', ['fake', 'no-rescue'])
    node.driver = 'fake-hardware'
    rpc_api.update_node(context, node, reset_interfaces=True)
    node = objects.Node.get_by_uuid(context, node.uuid)
    assert (node.network_interface, node.rescue_interface) == ('flat',
                                                               'fake')


def test_a_node_may_not_name_a_disabled_interface(context, rpc_api):
    with pytest.raises(exception.InvalidParameterValue) as err:
        rpc_api.create_node(context, _new_node(context,
                                               rescue_interface='fake'))
    assert str(err.value) == (
        "Could not find the following interface in the "
        "'ironic.hardware.interfaces.rescue' entrypoint: fake. Valid "
        "interfaces are ['no-rescue'].")


def test_an_unsupported_interface_is_incompatible(config, context):
    config.set_override('enabled_hardware_types', ['fake-hardware',
                                                   'redfish'])
    node = _new_node(context, driver='redfish', deploy_interface='fake')
    with pytest.raises(exception.InvalidParameterValue) as err:
        factory.check_and_update_node_interfaces(
            node, factory.get_hardware_type('redfish'))
    assert str(err.value) == (
        "deploy interface implementation 'fake' is not supported by "
        "hardware type RedfishHardware.")


def test_an_unsupported_default_fails_the_create(config, context, rpc_api):
    config.set_override('default_deploy_interface', 'direct')
    with pytest.raises(exception.InvalidParameterValue) as err:
        rpc_api.create_node(context, _new_node(context))
    assert err.value.code == 400
    assert str(err.value) == (
        "Could not find the following interface in the "
        "'ironic.hardware.interfaces.deploy' entrypoint: direct. Valid "
        "interfaces are ['ramdisk', 'fake'].")
    assert objects.Node.list(context) == []
    # A node that names its deploy interface does not need the default.
    rpc_api.create_node(context, _new_node(context, deploy_interface='fake'))


def test_a_default_the_type_lacks_finds_no_default(config, context):
    config.set_override('enabled_hardware_types', ['fake-hardware',
                                                   'redfish'])
    config.set_override('default_deploy_interface', 'fake')
    node = _new_node(context, driver='redfish')
    with pytest.raises(exception.InvalidParameterValue) as err:
        factory.check_and_update_node_interfaces(
            node, factory.get_hardware_type('redfish'))
    assert str(err.value) == (
        "For node %s with hardware type 'redfish', no default value found "
        "for deploy interface could be determined. Please ensure the "
        "interfaces are enabled." % node.uuid)


def test_an_unsupported_default_keeps_the_conductor_from_starting(
        config, database):
    config.set_override('enabled_power_interfaces', ['fake', 'redfish'])
    config.set_override('default_power_interface', 'redfish')
    with pytest.raises(exception.InvalidParameterValue) as err:
        conftest.Conductor().start()
    assert str(err.value) == (
        "For hardware type 'fake-hardware', no default value found for "
        "power interface could be determined. Please ensure the "
        "interfaces are enabled.")
