"""The RPC client's versions (conductor/rpcapi.py): what it sends at each
pin -- the downgrade of 1.1, 1.2 and 1.3 and the server's tolerance of
the older calls, a skip-level upgrade's calls -- and the newer methods a
pinned client refuses (409, nothing sent)."""

from oslo_utils import versionutils
import pytest

from ironic_lite.common import exception
from ironic_lite.common import release_mappings
from ironic_lite.common import states
from ironic_lite.conductor import rpcapi
from ironic_lite import objects


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


OLDEST = release_mappings.oldest_roll_from()
OLDEST_RPC = release_mappings.RELEASE_MAPPING[OLDEST]['rpc']


@pytest.fixture
def pinned(config, conductor, monkeypatch):
    config.set_override('pin_release_version', OLDEST)
    api = rpcapi.ConductorAPI()
    calls = _spy(api, monkeypatch)
    yield api, calls
    config.clear_override('pin_release_version')


# One RPC method with no older form per RPC version that added some:
# (version, a call of it).
NEW_METHODS = [
    ('1.4', lambda api, ctx, node: api.create_volume_connector(
        ctx, None, node)),
    ('1.8', lambda api, ctx, node: api.change_node_boot_mode(
        ctx, node, 'uefi')),
    ('1.9', lambda api, ctx, node: api.set_target_raid_config(
        ctx, node, {'logical_disks': []})),
    ('1.10', lambda api, ctx, node: api.get_node_with_token(ctx, node)),
    ('1.11', lambda api, ctx, node: api.continue_inspection(
        ctx, node, {'interfaces': []})),
    ('1.12', lambda api, ctx, node: api.do_node_service(
        ctx, node, [{'interface': 'power', 'step': 'reboot'}])),
    ('1.13', lambda api, ctx, node: api.attach_virtual_media(
        ctx, node, 'cdrom', 'http://192.0.2.1/boot.iso')),
]


def _newer_than(version):
    return [(v, call) for v, call in NEW_METHODS
            if versionutils.convert_version_to_tuple(v) >
            versionutils.convert_version_to_tuple(version)]


def test_the_oldest_release_is_a_skip_level_one():
    assert OLDEST != release_mappings.released_names()[0]
    assert OLDEST in release_mappings.rolls_from()[1:]
    # It lacks RPC methods this tree has.
    assert _newer_than(OLDEST_RPC)


def test_its_calls_are_served_by_this_tree(pinned, context, make_node):
    api, calls = pinned
    assert api.version_cap == OLDEST_RPC
    node = make_node(extra={'a': 1})
    node.extra = {'b': 2}
    saved = api.update_node(context, node, expected={'extra': {'a': 1}})
    assert saved.extra == {'b': 2}
    api.add_node_traits(context, node, ['CUSTOM_SKIP'])
    port = objects.Port(context, node_id=node.id,
                        address='52:54:00:aa:bb:cc')
    created = api.create_port(context, port, node)
    assert created.address == '52:54:00:aa:bb:cc'
    assert [(v, m) for v, m, _ in calls] == [
        ('1.3', 'update_node'), ('1.2', 'add_node_traits'),
        ('1.3', 'create_port')]
    stored = objects.Node.get_by_uuid(context, node.uuid)
    assert stored.traits.get_trait_names() == ['CUSTOM_SKIP']


def test_newer_methods_are_refused_with_nothing_sent(pinned, context,
                                                     make_node):
    api, calls = pinned
    node = make_node()
    for version, call in _newer_than(OLDEST_RPC):
        with pytest.raises(exception.PinnedRelease) as err:
            call(api, context, node)
        assert 'pinned to release %s' % OLDEST in str(err.value), version
    assert calls == []


def _stored(context, node):
    return objects.Node.get_by_uuid(context, node.uuid)


STEPS = [{'interface': 'bios', 'step': 'factory_reset'},
         {'interface': 'vendor', 'step': 'log_passthrough'},
         {'interface': 'bios', 'step': 'apply_configuration',
          'args': {'settings': [{'name': 'a', 'value': 'b'}]}}]


@pytest.mark.parametrize('pin', ['3.0', '2.0'])
def test_pinned_below_1_6_refuses_the_new_methods(config, conductor,
                                                  context, make_node, pin):
    """A pinned API never sends a 1.6 method: 409, nothing written."""
    config.set_override('pin_release_version', pin)
    pinned = rpcapi.ConductorAPI()
    node = make_node(provision_state='active', rescue_interface='fake',
                     console_interface='fake')
    for method, args in (('do_node_rescue', ('pw',)),
                         ('do_node_unrescue', ()),
                         ('do_node_clean', (STEPS,)),
                         ('inject_nmi', ()),
                         ('get_console_information', ()),
                         ('set_console_mode', (True,))):
        with pytest.raises(exception.PinnedRelease) as err:
            getattr(pinned, method)(context, node, *args)
        assert err.value.code == 409
        assert 'pinned to release %s (RPC 1.6)' % pin in str(err.value)
    stored = _stored(context, node)
    assert (stored.provision_state, stored.instance_info,
            stored.console_enabled) == (states.ACTIVE, {}, False)


@pytest.mark.parametrize('pin', ['4.0', '3.0'])
def test_pinned_below_1_8_refuses_the_new_methods(config, conductor,
                                                  context, make_node,
                                                  monkeypatch, pin):
    """A pinned API never sends a 1.8 method: 409, nothing sent, nothing
    written -- a 4.0 conductor would not know it."""
    config.set_override('pin_release_version', pin)
    pinned = rpcapi.ConductorAPI()
    sent = _spy(pinned, monkeypatch)
    node = make_node()
    for method, args in (('change_node_boot_mode', ('uefi',)),
                         ('change_node_secure_boot', (True,)),
                         ('get_supported_indicators', ()),
                         ('get_indicator_state', ('system', 'led')),
                         ('set_indicator_state', ('system', 'led', 'off'))):
        with pytest.raises(exception.PinnedRelease) as err:
            getattr(pinned, method)(context, node, *args)
        assert err.value.code == 409
        assert 'pinned to release %s (RPC 1.8)' % pin in str(err.value)
    assert sent == []
    stored = _stored(context, node)
    assert (stored.boot_mode, stored.secure_boot, stored.reservation,
            stored.driver_internal_info) == (None, None, None, {})


def test_unpinned_sends_1_8(rpc_api, context, make_node, monkeypatch):
    sent = _spy(rpc_api, monkeypatch)
    node = make_node()
    rpc_api.get_supported_indicators(context, node)
    rpc_api.get_indicator_state(context, node, 'system', 'led')
    assert sent == [('1.8', 'get_supported_indicators',
                     ['component', 'node_id']),
                    ('1.8', 'get_indicator_state',
                     ['component', 'indicator', 'node_id'])]


RAID = {'logical_disks': [
    {'size_gb': 100, 'raid_level': '1', 'is_root_volume': True},
    {'size_gb': 'MAX', 'raid_level': '5'}]}


def test_pinned_to_4_0_refuses_every_1_9_method(config, conductor, context,
                                                make_node, monkeypatch):
    config.set_override('pin_release_version', '4.0')
    try:
        pinned = rpcapi.ConductorAPI()
        calls = _spy(pinned, monkeypatch)
        node = make_node()
        for method, args in (
                ('set_target_raid_config', (node, RAID)),
                ('get_raid_logical_disk_properties', ('fake-hardware',)),
                ('vendor_passthru', (node, 'first_method', 'POST', {})),
                ('driver_vendor_passthru',
                 ('fake-hardware', 'x', 'POST', {})),
                ('get_node_vendor_passthru_methods', (node,)),
                ('get_driver_vendor_passthru_methods', ('fake-hardware',))):
            with pytest.raises(exception.PinnedRelease) as err:
                getattr(pinned, method)(context, *args)
            assert err.value.code == 409
            assert '1.9' in str(err.value)
        assert calls == []
        assert _stored(context, node).target_raid_config == {}
    finally:
        config.clear_override('pin_release_version')
