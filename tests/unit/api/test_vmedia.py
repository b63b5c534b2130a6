"""/v1/nodes/<n>/vmedia: attach and detach (1.89), get (1.93) -- Ironic's
shapes, gates, order of checks and messages, on fake-hardware (whose
management records what is attached)."""

import pytest

from tests.unit.api import utils

URL = 'http://192.0.2.1/boot.iso'


def _vmedia(node_ident):
    return '/v1/nodes/%s/vmedia' % node_ident


def _inserted(client, node_ident):
    return {m['media_types'][0]: m['image']
            for m in client.get(_vmedia(node_ident)).json if m['inserted']}


def test_attach_get_detach(client, node, rpcapi):
    assert client.get(_vmedia('node-0')).json == [
        {'media_types': ['CD'], 'inserted': False, 'image': ''},
        {'media_types': ['USBStick'], 'inserted': False, 'image': ''},
        {'media_types': ['Floppy'], 'inserted': False, 'image': ''}]
    resp = client.post_json(_vmedia('node-0'),
                            {'device_type': 'cdrom', 'image_url': URL})
    assert resp.status_int == 204, resp.text
    assert resp.body == b''
    assert rpcapi.calls[-1] == ('attach_virtual_media', node['uuid'],
                                'cdrom', URL, 'local')
    resp = client.post_json(_vmedia(node['uuid']), {
        'device_type': 'floppy', 'image_url': 'nfs://host/f.img',
        'image_download_source': 'http'})
    assert resp.status_int == 204, resp.text
    assert rpcapi.calls[-1][-1] == 'http'
    assert _inserted(client, 'node-0') == {'CD': URL,
                                           'Floppy': 'nfs://host/f.img'}
    resp = client.delete(_vmedia('node-0') + '?device_types=Floppy,floppy')
    assert resp.status_int == 204, resp.text
    assert rpcapi.calls[-1] == ('detach_virtual_media', node['uuid'],
                                ['floppy'])
    assert _inserted(client, 'node-0') == {'CD': URL}
    assert client.delete(_vmedia('node-0')).status_int == 204
    assert rpcapi.calls[-1] == ('detach_virtual_media', node['uuid'], None)
    assert _inserted(client, 'node-0') == {}


def test_versions(client, node):
    body = {'device_type': 'cdrom', 'image_url': URL}
    for version in ('1.1', '1.88'):
        assert client.post_json(_vmedia('node-0'), body,
                                version=version).status_int == 404
        assert client.delete(_vmedia('node-0'),
                             version=version).status_int == 404
    # GET is 1.93's.
    assert client.get(_vmedia('node-0'), version='1.92').status_int == 404
    assert client.post_json(_vmedia('node-0'), body,
                            version='1.89').status_int == 204
    assert client.get(_vmedia('node-0'), version='1.93').status_int == 200


@pytest.mark.parametrize('body, message', [
    ({'device_type': 'cdrom', 'image_url': 'glance://image'},
     'Unsupported or missing URL scheme: glance'),
    ({'device_type': 'cdrom', 'image_url': '/boot.iso'},
     'Unsupported or missing URL scheme: '),
    ({'device_type': 'usb', 'image_url': URL}, "'usb' is not one of"),
    ({'image_url': URL}, "'device_type' is a required property"),
    ({'device_type': 'cdrom'}, "'image_url' is a required property"),
    ({'device_type': 'cdrom', 'image_url': URL, 'username': 'u'},
     'Additional properties are not allowed'),
    ({'device_type': 'cdrom', 'image_url': URL,
      'image_download_source': 'ftp'}, "'ftp' is not one of"),
])
def test_bad_attach_bodies(client, node, rpcapi, body, message):
    resp = client.post_json(_vmedia('node-0'), body)
    assert resp.status_int == 400, resp.text
    assert message in utils.faultstring(resp)
    assert rpcapi.calls[-1][0] == 'create_node'


def test_bad_detach_device_types(client, node, rpcapi):
    resp = client.delete(_vmedia('node-0') + '?device_types=cdrom,usb,x')
    assert resp.status_int == 400, resp.text
    assert utils.faultstring(resp) == (
        'Invalid device type(s) usb, x (valid are disk, cdrom, floppy)')
    assert rpcapi.calls[-1][0] == 'create_node'
    resp = client.delete(_vmedia('node-0') + '?other=1')
    assert resp.status_int == 400


def test_unknown_node(client, node):
    assert client.get(_vmedia('nope')).status_int == 404
    assert client.post_json(_vmedia('nope'), {
        'device_type': 'cdrom', 'image_url': URL}).status_int == 404


def test_pinned_to_5_0_not_served(client, node, rpcapi, config_pin):
    config_pin('5.0')
    body = {'device_type': 'cdrom', 'image_url': URL}
    resp = client.post_json(_vmedia('node-0'), body, version='1.89')
    assert resp.status_int == 406, resp.text
    # At the newest version the pinned release serves, no such path.
    assert client.post_json(_vmedia('node-0'), body).status_int == 404
    assert rpcapi.calls[-1][0] == 'create_node'


def test_a_json_body_of_delete_is_ignored_as_ironic(client, node, rpcapi):
    # openstacksdk sends the device types in a JSON body, which Ironic
    # does not read (pecan passes the query string only): all detached.
    resp = client.app.delete_json(_vmedia('node-0'),
                                  {'device_types': 'cdrom'},
                                  headers=client._headers(None, None),
                                  expect_errors=True)
    assert resp.status_int == 204, resp.text
    assert rpcapi.calls[-1] == ('detach_virtual_media', node['uuid'], None)
