"""Interface implementations newer than the release in force
(``HardwareType.interfaces_since``): while pinned (or ``auto``-capped) to
5.0, neither the API (409 PinnedInterface, nothing sent) nor a conductor
(400, as a 5.0 conductor answers) gives a node the ``agent`` inspect
interface of release 6.0 -- a node set so through a pinned deployment
would wait in ``inspect wait`` for an agent whose data that deployment
refuses, and a 5.0 conductor could not load it.  Unpinned it is served."""

from oslo_utils import uuidutils
from oslo_utils import versionutils
import pytest

from ironic_lite.common import exception
from ironic_lite.common import release_mappings
from ironic_lite.conductor import rpcapi
from ironic_lite.drivers import factory
from ironic_lite import objects
from ironic_lite import version
from tests.unit.conductor import test_rpcapi_versions

INSPECT = ['fake', 'agent', 'no-inspect']


@pytest.fixture
def agent_enabled(config):
    config.set_override('enabled_inspect_interfaces', INSPECT)
    yield
    config.clear_override('enabled_inspect_interfaces')


@pytest.fixture
def pinned(config, agent_enabled):
    config.set_override('pin_release_version', '5.0')
    yield
    config.clear_override('pin_release_version')


def _stored(context, uuid):
    return objects.Node.get_by_uuid(context, uuid).inspect_interface


def test_a_pinned_api_refuses_a_new_interface_nothing_sent(
        pinned, conductor, context, make_node, monkeypatch):
    api = rpcapi.ConductorAPI()
    calls = test_rpcapi_versions._spy(api, monkeypatch)
    node = objects.Node(context, driver='fake-hardware', conductor_group='',
                        uuid=uuidutils.generate_uuid(),
                        inspect_interface='agent')
    with pytest.raises(exception.PinnedInterface) as err:
        api.create_node(context, node)
    assert err.value.code == 409
    assert ('The inspect interface agent of hardware type fake-hardware is '
            'new in release 6.0' in str(err.value))
    assert 'pinned to release 5.0' in str(err.value)
    with pytest.raises(exception.NodeNotFound):
        objects.Node.get_by_uuid(context, node.uuid)

    node = make_node(inspect_interface='fake')
    node.inspect_interface = 'agent'
    with pytest.raises(exception.PinnedInterface):
        api.update_node(context, node)
    assert calls == []
    assert _stored(context, node.uuid) == 'fake'
    # The other changes of a pinned API still go through.
    node = objects.Node.get_by_uuid(context, node.uuid)
    node.description = 'pinned'
    assert api.update_node(context, node).description == 'pinned'
    assert _stored(context, node.uuid) == 'fake'


def test_a_pinned_conductor_refuses_a_new_interface(pinned, context):
    """An API of the old release sends it anyway: the conductor answers
    400, as the old release's conductors do."""
    node = objects.Node(context, driver='fake-hardware',
                        inspect_interface='agent')
    hw_type = factory.get_hardware_type('fake-hardware')
    with pytest.raises(exception.InvalidParameterValue) as err:
        factory.check_and_update_node_interfaces(node, hw_type)
    assert err.value.code == 400
    assert ("inspect interface implementation 'agent' of hardware type "
            'fake-hardware is new in release 6.0: not available while this '
            'conductor is pinned to release 5.0' in str(err.value))
    # What 5.0 has is served.
    node = objects.Node(context, driver='fake-hardware',
                        inspect_interface='fake')
    factory.check_and_update_node_interfaces(node, hw_type)
    assert node.inspect_interface == 'fake'


def test_served_unpinned(agent_enabled, rpc_api, context, make_node):
    node = objects.Node(context, driver='fake-hardware', conductor_group='',
                        uuid=uuidutils.generate_uuid(),
                        inspect_interface='agent')
    assert rpc_api.create_node(context, node).inspect_interface == 'agent'
    assert _stored(context, node.uuid) == 'agent'
    node = make_node(inspect_interface='fake')
    node.inspect_interface = 'agent'
    assert rpc_api.update_node(context, node).inspect_interface == 'agent'
    assert _stored(context, node.uuid) == 'agent'


@pytest.mark.parametrize('name', sorted(factory.HARDWARE_TYPES))
def test_each_newer_interface_is_supported_and_released(name):
    """The table names implementations the type supports, each with a
    release of the mapping (or this code's), after the oldest one."""
    hw_type = factory.HARDWARE_TYPES[name]
    known = set(release_mappings.released_names()) | {version.RELEASE}
    for (iface, impl), since in hw_type.interfaces_since.items():
        assert impl in hw_type.supported[iface], (iface, impl)
        assert since in known, since
        assert versionutils.convert_version_to_tuple(since) > (1, 0)
