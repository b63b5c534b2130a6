"""RPC 1.1 (release 2.0): the client's downgrade and the server's tolerance."""

import pytest

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
    assert rpc_api.version_cap == rpcapi.RPC_API_VERSION == '1.1'
    node = make_node(description='before')
    node.description = 'after'
    saved = rpc_api.update_node(context, node, reset_interfaces=False)
    assert saved.description == 'after'
    assert sent == [('1.1', 'update_node', ['node_obj',
                                            'reset_interfaces'])]


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
