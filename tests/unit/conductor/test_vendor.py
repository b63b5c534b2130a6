"""Vendor passthru of nodes and drivers through the real RPC client and
conductor on the fake transport (conductor/vendor.py, RPC 1.9)."""

import pytest

from ironic_lite.common import exception
from ironic_lite.conductor import vendor
from ironic_lite.drivers import base as drivers_base
from ironic_lite.drivers import fake_hardware


def test_node_vendor_methods_and_calls(rpc_api, context, make_node):
    node = make_node()
    methods = rpc_api.get_node_vendor_passthru_methods(context, node)
    assert methods['first_method'] == {
        'http_methods': ['POST'], 'async': True, 'attach': False,
        'description': 'Test if the value of bar is baz',
        'require_exclusive_lock': True}
    assert rpc_api.vendor_passthru(
        context, node, 'third_method_sync', 'post', {'bar': 'meow'}) == {
            'return': True, 'async': False, 'attach': False}
    for method in ('first_method', 'fourth_method_shared_lock'):
        assert rpc_api.vendor_passthru(
            context, node, method, 'POST', {'bar': 'x'}) == {
                'return': None, 'async': True, 'attach': False}
    with pytest.raises(exception.MissingParameterValue):
        rpc_api.vendor_passthru(context, node, 'second_method', 'POST', {})
    with pytest.raises(exception.InvalidParameterValue) as err:
        rpc_api.vendor_passthru(context, node, 'second_method', 'GET',
                                {'bar': 'x'})
    assert str(err.value) == ('The method second_method does not support '
                              'HTTP GET')


def test_shared_lock_method_runs_on_a_locked_node(rpc_api, context,
                                                  make_node, config):
    config.set_override('node_locked_retry_attempts', 1, group='conductor')
    node = make_node(reservation='other-host')
    assert rpc_api.vendor_passthru(
        context, node, 'fourth_method_shared_lock', 'POST',
        {'bar': 'woof'})['async'] is True
    with pytest.raises(exception.NodeLocked):
        rpc_api.vendor_passthru(context, node, 'first_method', 'POST',
                                {'bar': 'baz'})


class _DriverVendor(fake_hardware.FakeVendor):
    @drivers_base.driver_passthru(['GET', 'POST'], async_call=False,
                                  description='echo')
    def echo(self, context, http_method, text=''):
        return {'http_method': http_method, 'text': text}

    @drivers_base.driver_passthru(['POST'], async_call=False)
    def broken(self, context, http_method):
        raise ValueError('driver bug')


def test_driver_vendor_methods(rpc_api, context, conductor, monkeypatch):
    assert rpc_api.get_driver_vendor_passthru_methods(
        context, 'fake-hardware') == {}
    monkeypatch.setattr(vendor, '_driver_vendor',
                        lambda name: _DriverVendor())
    assert rpc_api.get_driver_vendor_passthru_methods(
        context, 'fake-hardware')['echo'] == {
            'http_methods': ['GET', 'POST'], 'async': False,
            'attach': False, 'description': 'echo'}
    assert rpc_api.driver_vendor_passthru(
        context, 'fake-hardware', 'echo', 'get', {'text': 'hi'}) == {
            'return': {'http_method': 'GET', 'text': 'hi'}, 'async': False,
            'attach': False}
    with pytest.raises(exception.InvalidParameterValue):
        rpc_api.driver_vendor_passthru(context, 'fake-hardware', 'echo',
                                       'PUT', {})
    # A driver's own error is a 400 naming the method, never a 5xx.
    with pytest.raises(exception.InvalidParameterValue) as err:
        rpc_api.driver_vendor_passthru(context, 'fake-hardware', 'broken',
                                       'POST', {})
    assert str(err.value) == ('Vendor passthru method broken failed: '
                              'driver bug')
