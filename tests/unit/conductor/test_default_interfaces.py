"""[DEFAULT]default_<interface>_interface: the implementation a node gets
when it names none (Ironic's options), checked against the hardware
type when the conductor starts and when a node takes it."""

from oslo_utils import uuidutils
import pytest

from ironic_lite.common import exception
from ironic_lite import objects
from tests.unit.conductor import conftest


def _new_node(context, **values):
    return objects.Node(context, driver='fake-hardware', conductor_group='',
                        uuid=uuidutils.generate_uuid(), **values)


def test_create_takes_the_configured_defaults(config, context, rpc_api):
    config.set_override('default_network_interface', 'noop')
    config.set_override('default_console_interface', 'fake')
    node = rpc_api.create_node(context, _new_node(context))
    assert (node.network_interface, node.console_interface) == ('noop',
                                                                'fake')
    # The others keep the hardware type's default.
    assert node.bios_interface == 'no-bios'
    given = rpc_api.create_node(context, _new_node(
        context, network_interface='flat'))
    assert given.network_interface == 'flat'


def test_unset_means_the_hardware_type_default(context, rpc_api):
    node = rpc_api.create_node(context, _new_node(context))
    assert (node.network_interface, node.console_interface,
            node.storage_interface) == ('flat', 'no-console', 'noop')


def test_reset_interfaces_takes_the_configured_defaults(config, context,
                                                        rpc_api, make_node):
    node = make_node(network_interface='flat', rescue_interface='no-rescue')
    config.set_override('default_rescue_interface', 'fake')
    node.driver = 'fake-hardware'
    rpc_api.update_node(context, node, reset_interfaces=True)
    node = objects.Node.get_by_uuid(context, node.uuid)
    assert (node.network_interface, node.rescue_interface) == ('flat',
                                                               'fake')


def test_an_unsupported_default_fails_the_create(config, context, rpc_api):
    config.set_override('default_deploy_interface', 'direct')
    with pytest.raises(exception.InvalidParameterValue) as err:
        rpc_api.create_node(context, _new_node(context))
    assert err.value.code == 400
    assert str(err.value) == (
        "Could not find the following interface in the "
        "'ironic.hardware.interfaces.deploy' entrypoint: direct. Valid "
        "interfaces are fake, ramdisk.")
    assert objects.Node.list(context) == []
    # A node that names its deploy interface does not need the default.
    rpc_api.create_node(context, _new_node(context, deploy_interface='fake'))


def test_an_unsupported_default_keeps_the_conductor_from_starting(
        config, database):
    config.set_override('default_power_interface', 'ipmitool')
    with pytest.raises(exception.InvalidParameterValue) as err:
        conftest.Conductor().start()
    assert 'ipmitool' in str(err.value)
