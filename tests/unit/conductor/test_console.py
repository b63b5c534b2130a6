"""The console and NMI through the real RPC client and conductor on the
fake transport (conductor/console.py, RPC 1.6)."""

import pytest

from ironic_lite.common import exception
from ironic_lite import objects


def _stored(context, node):
    return objects.Node.get_by_uuid(context, node.uuid)


def test_inject_nmi_is_not_implemented_by_fake_management(rpc_api, context,
                                                          make_node):
    node = make_node()
    with pytest.raises(exception.UnsupportedDriverExtension) as err:
        rpc_api.inject_nmi(context, node)
    assert str(err.value) == ('Driver fake-hardware does not support '
                              'inject_nmi (disabled or not implemented).')


def test_console_enable_read_disable(rpc_api, context, make_node, wait_node):
    node = make_node(console_interface='fake')
    with pytest.raises(exception.NodeConsoleNotEnabled):
        rpc_api.get_console_information(context, node)
    rpc_api.set_console_mode(context, node, True)
    node = wait_node(node.uuid, console_enabled=True)
    assert rpc_api.get_console_information(context, node) == {}
    rpc_api.set_console_mode(context, node, True)   # nothing to do
    rpc_api.set_console_mode(context, node, False)
    wait_node(node.uuid, console_enabled=False)


def test_no_console(rpc_api, context, make_node):
    node = make_node(console_enabled=True)
    with pytest.raises(exception.UnsupportedDriverExtension) as err:
        rpc_api.get_console_information(context, node)
    assert 'does not support console' in str(err.value)
    with pytest.raises(exception.UnsupportedDriverExtension):
        rpc_api.set_console_mode(context, node, False)
    assert _stored(context, node).console_enabled is True
