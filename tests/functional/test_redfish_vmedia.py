"""Virtual media of a redfish node (API 1.89, 1.93) against sushy-tools'
emulator, through the embedded service, as Metal3's baremetal-operator
uses it: attach an image, read the devices, detach -- with the REST API
and with openstacksdk; and inspection rules (1.96) through openstacksdk,
applied by the node's (out-of-band) inspection."""

import uuid as uuidlib

from tests.functional import consumers
from tests.functional import procs
from tests.functional.test_redfish import api  # noqa: F401 (fixture)
from tests.functional.test_redfish import emulator  # noqa: F401 (fixture)
from tests.functional.test_redfish import image_url  # noqa: F401 (fixture)
from tests.functional import test_redfish as rf
from tests import redfish_emulator as emulator_mod
from tests import timeouts

V = '1.96'


def _vmedia(api, uuid):  # noqa: F811 (fixture name)
    status, body = api('GET', '/v1/nodes/%s/vmedia' % uuid, version=V)
    assert status == 200, body
    return {t: (m['inserted'], m['image']) for m in body
            for t in m['media_types']}


def _settled(api, uuid):  # noqa: F811
    return rf.wait_node(api, uuid, lambda n: n['reservation'] is None)


def test_attach_get_detach(api, emulator, image_url):  # noqa: F811
    node = rf.enroll(api, emulator_mod.driver_info(emulator))
    uuid = node['uuid']
    assert _vmedia(api, uuid)['CD'] == (False, '')
    status, body = procs.while_locked(lambda: api(
        'POST', '/v1/nodes/%s/vmedia' % uuid,
        {'device_type': 'cdrom', 'image_url': image_url}, version=V))
    assert status == 204, body
    node = _settled(api, uuid)
    assert node['last_error'] is None
    assert _vmedia(api, uuid)['CD'] == (True, image_url)
    status, body = procs.while_locked(lambda: api(
        'DELETE', '/v1/nodes/%s/vmedia?device_types=cdrom' % uuid,
        version=V))
    assert status == 204, body
    _settled(api, uuid)
    assert _vmedia(api, uuid)['CD'] == (False, '')

    # openstacksdk, as the baremetal-operator's gophercloud calls.
    bm = consumers.connect(api.service).baremetal
    bm.attach_vmedia_to_node(uuid, device_type='cdrom', image_url=image_url)
    procs.wait_for(lambda: _vmedia(api, uuid)['CD'] == (True, image_url),
                   timeout=timeouts.HANG)
    bm.detach_vmedia_from_node(uuid)
    procs.wait_for(lambda: _vmedia(api, uuid)['CD'] == (False, ''),
                   timeout=timeouts.HANG)
    # A URL the BMC cannot fetch: the conductor's failure is last_error.
    status, body = procs.while_locked(lambda: api(
        'POST', '/v1/nodes/%s/vmedia' % uuid,
        {'device_type': 'cdrom', 'image_url': 'http://127.0.0.1:9/x.iso'},
        version=V))
    assert status == 204, body
    node = rf.wait_node(api, uuid, lambda n: n['reservation'] is None
                        and n['last_error'])
    assert 'Could not attach device cdrom' in node['last_error']
    assert api('DELETE', '/v1/nodes/%s' % uuid)[0] == 204


def test_inspection_rules_through_openstacksdk(api, emulator):  # noqa: F811
    bm = consumers.connect(api.service).baremetal
    rule = bm.create_inspection_rule(
        description='CPU count', priority=20,
        conditions=[{'op': 'gt', 'args': {
            'values': ['{inventory[cpu][count]}', '0']}}],
        actions=[{'op': 'set-attribute', 'args': {
            'path': '/extra/arch',
            'value': '{inventory[cpu][architecture]}'}},
            {'op': 'add-trait', 'args': {'name': 'CUSTOM_RULED'}}])
    secret = bm.create_inspection_rule(
        sensitive=True, actions=[{'op': 'log', 'args': {'msg': 'x'}}])
    try:
        assert bm.get_inspection_rule(rule.id).priority == 20
        assert bm.get_inspection_rule(secret.id).actions is None
        assert {r.id for r in bm.inspection_rules()} == {rule.id, secret.id}
        bm.patch_inspection_rule(rule.id, [
            {'op': 'replace', 'path': '/priority', 'value': 30}])
        assert bm.get_inspection_rule(rule.id).priority == 30

        node = rf.enroll(api, emulator_mod.driver_info(emulator),
                         name='ruled-%s' % uuidlib.uuid4().hex[:8])
        uuid = node['uuid']
        assert rf.manage(api, uuid)['provision_state'] == 'manageable'
        status, body = rf.put_action(
            api, '/v1/nodes/%s/states/provision' % uuid,
            {'target': 'inspect'})
        assert status == 202, body
        node = rf.wait_node(api, uuid,
                            lambda n: n['provision_state'] != 'inspecting')
        assert node['provision_state'] == 'manageable', node['last_error']
        assert node['extra']['arch'] == 'x86_64'
        status, traits = api('GET', '/v1/nodes/%s/traits' % uuid)
        assert traits['traits'] == ['CUSTOM_RULED']
        assert api('DELETE', '/v1/nodes/%s' % uuid)[0] == 204
    finally:
        bm.delete_inspection_rule(rule.id)
        bm.delete_inspection_rule(secret.id)
    assert list(bm.inspection_rules()) == []
