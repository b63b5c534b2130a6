"""A node's indicators through the real RPC client and conductor on the
fake transport (conductor/indicators.py, RPC 1.8)."""

import pytest

from ironic_lite.common import exception
from ironic_lite.drivers import fake_management
from ironic_lite import objects


def _stored(context, node):
    return objects.Node.get_by_uuid(context, node.uuid)


def test_indicators_read_set_and_read_back(rpc_api, context, make_node):
    node = make_node()
    assert rpc_api.get_supported_indicators(context, node) == \
        fake_management.INDICATORS
    assert rpc_api.get_supported_indicators(context, node,
                                            component='chassis') == {
        'chassis': fake_management.INDICATORS['chassis']}
    assert rpc_api.get_indicator_state(context, node, 'system', 'led') \
        == 'on'
    rpc_api.set_indicator_state(context, node, 'system', 'led', 'Blinking')
    assert rpc_api.get_indicator_state(context, node, 'system', 'led') \
        == 'blinking'
    stored = _stored(context, node)
    assert stored.driver_internal_info == {
        fake_management.INDICATORS_KEY: {'led@system': 'blinking'}}
    assert stored.reservation is None


@pytest.mark.parametrize('args, message', [
    (('chassis', 'led-0', 'off'),
     'Indicator led-0 of component chassis is read-only.'),
    (('disk', 'led', 'on'), 'Invalid component disk specified.'),
    (('system', 'led-0', 'on'), 'Invalid indicator led-0 specified.'),
    (('system', 'led', None),
     'Invalid state None of indicator led, supported states are: '
     'blinking, off, on'),
])
def test_bad_indicator_changes_write_nothing(rpc_api, context, make_node,
                                             args, message):
    node = make_node()
    with pytest.raises(exception.InvalidParameterValue) as err:
        rpc_api.set_indicator_state(context, node, *args)
    assert str(err.value) == message
    assert _stored(context, node).driver_internal_info in (None, {})


def test_a_locked_node_cannot_set_an_indicator(rpc_api, context,
                                               make_node):
    node = make_node(reservation='another-conductor')
    with pytest.raises(exception.NodeLocked):
        rpc_api.set_indicator_state(context, node, 'system', 'led', 'off')
    # Reading takes no lock.
    assert rpc_api.get_indicator_state(context, node, 'system', 'led') \
        == 'on'
