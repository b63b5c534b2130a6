"""The RPC of a skip-level upgrade: a client pinned to the oldest release
this tree rolls from sends that release's calls, which this tree's server
still serves, and refuses the newer methods (409)."""

from oslo_utils import versionutils
import pytest

from ironic_lite.common import exception
from ironic_lite.common import release_mappings
from ironic_lite.conductor import rpcapi
from ironic_lite import objects
from tests.unit.conductor import test_rpc_versions

OLDEST = release_mappings.oldest_roll_from()
OLDEST_RPC = release_mappings.RELEASE_MAPPING[OLDEST]['rpc']


@pytest.fixture
def pinned(config, conductor, monkeypatch):
    config.set_override('pin_release_version', OLDEST)
    api = rpcapi.ConductorAPI()
    calls = test_rpc_versions._spy(api, monkeypatch)
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
