"""Hardware types per release (issue 23): a conductor registers only the
enabled types the release in force has, and an API pinned to a release
that lacks a type refuses a node of it (409, nothing written).

A type newer than every release ("future-hardware", registered in the
factory and in master's ``hardware_types`` by the test) stands for the
first one a release adds (redfish in 5.0).
"""

import pytest
import webtest

from ironic_lite.api import app as api_app
from ironic_lite.common import exception
from ironic_lite.common import release_mappings
from ironic_lite.common import release_pin
from ironic_lite.common import rpc
from ironic_lite.conductor import hash_ring
from ironic_lite.conductor import rpcapi
from ironic_lite.drivers import factory
from ironic_lite.drivers import fake_hardware
from ironic_lite import objects
from tests.unit.conductor import conftest

NEW_TYPE = 'future-hardware'
HEADERS = {'X-OpenStack-Ironic-API-Version': '1.82'}


class FutureHardware(fake_hardware.FakeHardware):
    name = NEW_TYPE


@pytest.fixture
def new_type(monkeypatch, config):
    monkeypatch.setitem(factory.HARDWARE_TYPES, NEW_TYPE, FutureHardware)
    master = release_mappings.RELEASE_MAPPING['master']
    monkeypatch.setitem(master, 'hardware_types',
                        master['hardware_types'] + [NEW_TYPE])
    config.set_override('enabled_hardware_types',
                        ['fake-hardware', NEW_TYPE])
    yield
    config.clear_override('enabled_hardware_types')


@pytest.fixture
def pin(config):
    def set_pin(release):
        if release is None:
            config.clear_override('pin_release_version')
        else:
            config.set_override('pin_release_version', release)
    yield set_pin
    config.clear_override('pin_release_version')


def _registered(context):
    return objects.Conductor.get_by_hostname(context, conftest.HOST).drivers


@pytest.fixture
def conductor(database, new_type):
    cond = conftest.Conductor().start()
    yield cond
    cond.stop()
    rpc.cleanup()


@pytest.fixture
def api(conductor):
    app = api_app.setup_app(rpcapi_factory=rpcapi.ConductorAPI)
    return webtest.TestApp(app)


def _call(api, method, url, body=None):
    kwargs = {'headers': HEADERS, 'expect_errors': True}
    if body is not None:
        return getattr(api, method + '_json')(url, body, **kwargs)
    return getattr(api, method)(url, **kwargs)


def _nodes(context):
    return sorted(n.driver for n in objects.Node.list(context))


def test_hardware_types_of_master_are_the_factory_s():
    assert sorted(release_mappings.hardware_types()) == sorted(
        factory.HARDWARE_TYPES)
    assert release_mappings.hardware_types(None) == \
        release_mappings.RELEASE_MAPPING['master']['hardware_types']


@pytest.mark.parametrize('name', release_mappings.released_names())
def test_released_entries_without_the_key_had_fake_hardware(name):
    entry = release_mappings.RELEASE_MAPPING[name]
    expected = entry.get('hardware_types', ['fake-hardware'])
    assert release_mappings.hardware_types(name) == expected
    assert 'fake-hardware' in release_mappings.hardware_types(name)


def test_unpinned_conductor_registers_every_enabled_type(context,
                                                         conductor):
    assert _registered(context) == ['fake-hardware', NEW_TYPE]


def test_pinned_conductor_leaves_out_the_new_type(context, database,
                                                  new_type, pin):
    pin(release_mappings.released_names()[0])
    cond = conftest.Conductor().start()
    try:
        assert _registered(context) == ['fake-hardware']
        # The ring has no conductor for it: Ironic's "No valid host".
        node = objects.Node(context, uuid='1be26c0b-03f2-4d2d-ae87-'
                            'c02d7f33c781', driver=NEW_TYPE,
                            conductor_group='')
        hash_ring.RING_MANAGER.reset()
        with pytest.raises(exception.NoValidHost):
            rpcapi.conductor_for(context, node)
        # An API that routes by the registered types (as 4.0's does, here
        # one not pinned) answers Ironic's 400, nothing written.
        pin(None)
        api = webtest.TestApp(api_app.setup_app(
            rpcapi_factory=rpcapi.ConductorAPI))
        resp = _call(api, 'post', '/v1/nodes', {'driver': NEW_TYPE})
        assert resp.status_int == 400, resp.text
        assert 'No valid host was found' in resp.json['error_message']
        assert _nodes(context) == []
    finally:
        cond.stop()
        rpc.cleanup()


def test_registration_follows_the_auto_cap(context, conductor, pin,
                                           monkeypatch):
    """pin_release_version = auto: registered again as the cap moves
    (each report, and on SIGHUP, runs release_pin.recheck)."""
    pin('auto')
    old = release_mappings.released_names()[0]
    monkeypatch.setitem(release_pin._state, 'value', old)
    release_pin.recheck()
    assert _registered(context) == ['fake-hardware']
    monkeypatch.setitem(release_pin._state, 'value', None)
    release_pin.recheck()
    assert _registered(context) == ['fake-hardware', NEW_TYPE]


def test_a_drained_conductor_is_not_registered_again(context, conductor,
                                                     pin, monkeypatch):
    conductor.manager._unregister()
    pin('auto')
    monkeypatch.setitem(release_pin._state, 'value',
                        release_mappings.released_names()[0])
    release_pin.recheck()
    assert not objects.Conductor.get_by_hostname(
        context, conftest.HOST, online=False).online


def test_unpinned_api_creates_a_node_of_the_new_type(api, context):
    resp = _call(api, 'post', '/v1/nodes', {'driver': NEW_TYPE})
    assert resp.status_int == 201, resp.text
    assert _nodes(context) == [NEW_TYPE]


def _refusal(resp, pinned_to):
    assert resp.status_int == 409, resp.text
    text = resp.json['error_message']
    assert 'Hardware type %s is not available while this API is pinned ' \
        'to release %s' % (NEW_TYPE, pinned_to) in text
    assert 'step 6.3' in text and 'nothing was changed' in text
    assert 'Traceback' not in text


def test_pinned_api_refuses_a_node_of_a_type_the_release_lacks(
        api, context, pin):
    old = release_mappings.released_names()[0]
    pin(old)
    _refusal(_call(api, 'post', '/v1/nodes', {'driver': NEW_TYPE}), old)
    assert _nodes(context) == []
    # A type the pinned release has is created as ever.
    resp = _call(api, 'post', '/v1/nodes', {'driver': 'fake-hardware'})
    assert resp.status_int == 201, resp.text


def test_pinned_api_refuses_a_driver_change_to_it(api, context, pin):
    resp = _call(api, 'post', '/v1/nodes', {'driver': 'fake-hardware',
                                            'name': 'n1'})
    assert resp.status_int == 201, resp.text
    old = release_mappings.released_names()[0]
    pin(old)
    _refusal(_call(api, 'patch', '/v1/nodes/n1', [
        {'op': 'replace', 'path': '/driver', 'value': NEW_TYPE}]), old)
    assert _nodes(context) == ['fake-hardware']
    # Other changes of the node go through.
    resp = _call(api, 'patch', '/v1/nodes/n1', [
        {'op': 'add', 'path': '/description', 'value': 'still here'}])
    assert resp.status_int == 200, resp.text


def test_pinned_api_leaves_unknown_types_to_the_conductor(api, pin):
    pin(release_mappings.released_names()[0])
    resp = _call(api, 'post', '/v1/nodes', {'driver': 'no-such-type'})
    assert resp.status_int == 400, resp.text
