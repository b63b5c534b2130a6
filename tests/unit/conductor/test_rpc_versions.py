"""RPC 1.1 (release 2.0), 1.2 and 1.3 (release 3.0): the client's
downgrade and the server's tolerance."""

import pytest

from ironic_lite.common import exception
from ironic_lite.conductor import rpcapi


def _spy(api, monkeypatch):
    """Record (version, method, argument names) of every call of ``api``."""
    calls = []
    prepare = api.client.prepare

    def spying_prepare(**kwargs):
        cctxt = prepare(**kwargs)
        call = cctxt.call

        def spying_call(ctxt, method, **args):
            calls.append((kwargs['version'], method, sorted(args)))
            return call(ctxt, method, **args)
        cctxt.call = spying_call
        return cctxt
    monkeypatch.setattr(api.client, 'prepare', spying_prepare)
    return calls


@pytest.fixture
def sent(rpc_api, monkeypatch):
    return _spy(rpc_api, monkeypatch)


def test_unpinned_sends_1_1_with_reset_interfaces(rpc_api, sent, context,
                                                  make_node):
    assert rpc_api.version_cap == rpcapi.RPC_API_VERSION
    node = make_node(description='before')
    node.description = 'after'
    saved = rpc_api.update_node(context, node, reset_interfaces=False)
    assert saved.description == 'after'
    assert sent == [('1.1', 'update_node', ['node_obj',
                                            'reset_interfaces'])]


@pytest.mark.parametrize('pin', ['2.0', 'bellows', '1.0'])
def test_pinned_below_1_2_refuses_the_new_methods(config, conductor, context,
                                                  make_node, monkeypatch,
                                                  pin):
    """A pinned API never sends a 1.2 method: 409, nothing sent."""
    from ironic_lite.common import exception
    config.set_override('pin_release_version', pin)
    try:
        pinned = rpcapi.ConductorAPI()
        calls = _spy(pinned, monkeypatch)
        node = make_node()
        for method, args in (('add_node_traits', (['CUSTOM_A'],)),
                             ('remove_node_traits', ()),
                             ('vif_attach', ({'id': 'v'},)),
                             ('vif_detach', ('v',)),
                             ('vif_list', ()),
                             ('validate_driver_interfaces', ()),
                             ('set_boot_device', ('pxe',)),
                             ('get_boot_device', ()),
                             ('get_supported_boot_devices', ())):
            with pytest.raises(exception.PinnedRelease) as err:
                getattr(pinned, method)(context, node, *args)
            assert err.value.code == 409
            assert 'step 6.3' in str(err.value)
        assert calls == []
    finally:
        config.clear_override('pin_release_version')


def test_pinned_to_1_0_drops_the_new_argument(config, conductor, context,
                                              make_node, monkeypatch):
    config.set_override('pin_release_version', '1.0')
    try:
        pinned = rpcapi.ConductorAPI()
        assert pinned.version_cap == '1.0'
        assert not pinned.can_send_version('1.1')
        calls = _spy(pinned, monkeypatch)
        node = make_node(description='before')
        node.description = 'pinned'
        # The 2.0 conductor tolerates the 1.0 form of the call.
        saved = pinned.update_node(context, node, reset_interfaces=True)
        assert saved.description == 'pinned'
        assert calls == [('1.0', 'update_node', ['node_obj'])]
    finally:
        config.clear_override('pin_release_version')


def test_pinned_client_sends_node_at_1_0(config, conductor, context,
                                         make_node):
    """Objects go out at the pinned version: a 1.0 conductor can read them."""
    from ironic_lite.objects import base
    node = make_node(shard='s1')
    config.set_override('pin_release_version', '1.0')
    try:
        primitive = base.IronicObjectSerializer().serialize_entity(context,
                                                                   node)
    finally:
        config.clear_override('pin_release_version')
    assert primitive['ironic_object.version'] == '1.0'
    assert 'shard' not in primitive['ironic_object.data']


def test_unpinned_sends_expected_at_1_3(rpc_api, sent, context, make_node):
    node = make_node(extra={'a': 1})
    node.extra = {'a': 1, 'b': 2}
    saved = rpc_api.update_node(context, node, expected={'extra': {'a': 1}})
    assert saved.extra == {'a': 1, 'b': 2}
    assert sent == [('1.3', 'update_node', ['expected', 'node_obj',
                                            'reset_interfaces'])]
    # The node changed since: nothing written, 409.
    stale = make_node(extra={'a': 2})
    stale.extra = {'c': 3}
    with pytest.raises(exception.NodeChanged) as err:
        rpc_api.update_node(context, stale, expected={'extra': {'a': 1}})
    assert err.value.code == 409
    stale.refresh()
    assert stale.extra == {'a': 2}
    assert stale.reservation is None


def test_pinned_to_2_0_sends_1_1_without_expected(config, conductor, context,
                                                  make_node, monkeypatch):
    config.set_override('pin_release_version', '2.0')
    try:
        pinned = rpcapi.ConductorAPI()
        assert not pinned.can_send_version('1.3')
        calls = _spy(pinned, monkeypatch)
        node = make_node(extra={'a': 2})
        node.extra = {'b': 1}
        # Release 2.0's behaviour: the last write wins.
        saved = pinned.update_node(context, node,
                                   expected={'extra': {'a': 1}})
        assert saved.extra == {'b': 1}
        assert calls == [('1.1', 'update_node', ['node_obj',
                                                 'reset_interfaces'])]
    finally:
        config.clear_override('pin_release_version')


@pytest.fixture
def old_conductor(database, monkeypatch):
    """A conductor that serves RPC 1.0 only (release 1.0's)."""
    import oslo_messaging as messaging
    from ironic_lite.common import rpc
    from ironic_lite.conductor import manager
    from . import conftest
    monkeypatch.setattr(manager.ConductorManager, 'target',
                        messaging.Target(version='1.0'))
    cond = conftest.Conductor().start()
    yield cond
    cond.stop()
    rpc.cleanup()


def test_unpinned_call_to_an_older_conductor_is_conductor_too_old(
        old_conductor, context, make_node):
    """An API unpinned before the conductors are upgraded: the 1.0
    conductor refuses the 1.1 call, and the client says why (409), not
    "503, retry later" -- retrying will not help."""
    from ironic_lite.common import exception
    node = make_node(description='before')
    node.description = 'after'
    with pytest.raises(exception.ConductorTooOld) as exc:
        rpcapi.ConductorAPI().update_node(context, node)
    assert exc.value.code == 409
    # The client's cap: unpinned, the newest version it speaks.
    assert 'RPC %s' % rpcapi.RPC_API_VERSION in str(exc.value)
    node.refresh()
    assert node.description == 'before'


@pytest.mark.parametrize('exc_type', ['UnsupportedVersion',
                                      'IncompatibleObjectVersion'])
def test_remote_refusal_over_a_broker_is_conductor_too_old(
        rpc_api, context, make_node, monkeypatch, exc_type):
    """Over RabbitMQ the conductor's refusal arrives as a RemoteError."""
    import oslo_messaging as messaging
    from ironic_lite.common import exception

    raised = [messaging.RemoteError(exc_type, 'refused', [])]

    class Remote(object):
        def call(self, ctxt, method, **kwargs):
            raise raised[0]
    monkeypatch.setattr(rpc_api.client, 'prepare',
                        lambda **kwargs: Remote())
    with pytest.raises(exception.ConductorTooOld):
        rpc_api.destroy_node(context, make_node())
    # Any other remote failure stays a 503.
    raised[0] = messaging.RemoteError('KeyError', 'boom', [])
    with pytest.raises(exception.ServiceUnavailable):
        rpc_api.destroy_node(context, make_node())
