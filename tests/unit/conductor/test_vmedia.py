"""Virtual media (RPC 1.13): the conductor's get, attach and detach on
fake-hardware (whose management records what is attached) and on the
redfish management interface (sushy's VirtualMedia, mocked here; against
sushy-tools' emulator in tests/functional/test_redfish_vmedia.py); a
service pinned below 1.13 refuses, nothing sent."""

from unittest import mock

import pytest
import sushy

from ironic_lite.common import exception
from ironic_lite.conductor import rpcapi
from ironic_lite.conductor import task_manager
from ironic_lite.drivers.redfish import management as redfish_management
from ironic_lite import objects

URL = 'http://192.0.2.1/boot.iso'


def _media(context, node):
    return {m['media_types'][0]: (m['inserted'], m['image'])
            for m in rpcapi.ConductorAPI().get_virtual_media(context, node)}


def test_attach_get_and_detach_on_fake_hardware(context, rpc_api,
                                                make_node, wait_node):
    node = make_node(last_error='an older failure')
    assert _media(context, node) == {'CD': (False, ''),
                                     'Floppy': (False, ''),
                                     'USBStick': (False, '')}
    rpc_api.attach_virtual_media(context, node, 'cdrom', URL)
    node = wait_node(node.uuid)
    assert node.last_error is None
    rpc_api.attach_virtual_media(context, node, 'disk', URL + '2',
                                 image_download_source='http')
    wait_node(node.uuid)
    assert _media(context, node) == {'CD': (True, URL),
                                     'Floppy': (False, ''),
                                     'USBStick': (True, URL + '2')}
    rpc_api.detach_virtual_media(context, node, device_types=['disk'])
    wait_node(node.uuid)
    assert _media(context, node)['USBStick'] == (False, '')
    assert _media(context, node)['CD'] == (True, URL)
    rpc_api.detach_virtual_media(context, node)
    wait_node(node.uuid)
    assert {v for v in _media(context, node).values()} == {(False, '')}


def test_a_device_type_outside_ironics_is_refused(context, rpc_api,
                                                  make_node):
    node = make_node()
    with pytest.raises(exception.InvalidParameterValue) as err:
        rpc_api.attach_virtual_media(context, node, 'usb', URL)
    assert 'Invalid device type usb' in str(err.value)
    assert not objects.Node.get_by_uuid(
        context, node.uuid).driver_internal_info


def test_a_locked_node_is_refused(context, rpc_api, make_node):
    node = make_node()
    with task_manager.acquire(context, node.uuid, purpose='test'):
        with pytest.raises(exception.NodeLocked):
            rpc_api.attach_virtual_media(context, node, 'cdrom', URL)


def test_a_failure_is_the_nodes_last_error(context, rpc_api, make_node,
                                           wait_node, monkeypatch):
    from ironic_lite.drivers import fake_hardware

    def broken(self, task, device_type, image_url):
        raise exception.InvalidParameterValue(err='the BMC said no')
    monkeypatch.setattr(fake_hardware.FakeManagement,
                        'attach_virtual_media', broken)
    node = make_node()
    rpc_api.attach_virtual_media(context, node, 'floppy', URL)
    node = wait_node(node.uuid)
    assert node.last_error == (
        'Could not attach device floppy to node %s: the BMC said no'
        % node.uuid)


def test_pinned_to_5_0_nothing_is_sent(config, conductor, context,
                                       make_node):
    config.set_override('pin_release_version', '5.0')
    node = make_node()
    api = rpcapi.ConductorAPI()
    for call in (lambda: api.get_virtual_media(context, node),
                 lambda: api.attach_virtual_media(context, node, 'cdrom',
                                                  URL),
                 lambda: api.detach_virtual_media(context, node)):
        with pytest.raises(exception.PinnedRelease) as err:
            call()
        assert '(RPC 1.13)' in str(err.value)
    assert not objects.Node.get_by_uuid(
        context, node.uuid).driver_internal_info


# -- redfish: sushy's VirtualMedia ------------------------------------------

def _device(media_type, inserted=False, image=''):
    device = mock.Mock(media_types=[media_type], inserted=inserted,
                       image=image)
    return device


@pytest.fixture
def redfish_system(monkeypatch):
    cd = _device(sushy.VIRTUAL_MEDIA_CD, inserted=True, image='http://old')
    usb = _device(sushy.VIRTUAL_MEDIA_USBSTICK)
    system = mock.Mock()
    system.virtual_media.get_members.return_value = [cd, usb]
    from ironic_lite.drivers.redfish import utils as redfish_utils
    monkeypatch.setattr(redfish_utils, 'get_system', lambda node: system)
    return system, cd, usb


def _task(node):
    import types
    return types.SimpleNamespace(node=node)


def test_redfish_attach_ejects_then_inserts(redfish_system, make_node):
    _system, cd, usb = redfish_system
    management = redfish_management.RedfishManagement()
    task = _task(make_node())
    management.attach_virtual_media(task, 'cdrom', URL)
    cd.eject_media.assert_called_once_with()
    cd.insert_media.assert_called_once_with(URL, inserted=True,
                                            write_protected=True)
    management.attach_virtual_media(task, 'disk', URL)
    usb.eject_media.assert_not_called()
    usb.insert_media.assert_called_once_with(URL, inserted=True,
                                             write_protected=True)
    with pytest.raises(exception.InvalidParameterValue) as err:
        management.attach_virtual_media(task, 'floppy', URL)
    assert 'No suitable virtual media device of type Floppy' in str(
        err.value)


def test_redfish_detach_and_get(redfish_system, make_node):
    _system, cd, usb = redfish_system
    management = redfish_management.RedfishManagement()
    task = _task(make_node())
    assert management.get_virtual_media(task) == [
        {'media_types': ['CD'], 'inserted': True, 'image': 'http://old'},
        {'media_types': ['USBStick'], 'inserted': False, 'image': ''}]
    management.detach_virtual_media(task, device_types=['disk'])
    cd.eject_media.assert_not_called()
    management.detach_virtual_media(task)
    cd.eject_media.assert_called_once_with()
    usb.eject_media.assert_not_called()   # nothing inserted there
