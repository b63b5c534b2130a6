"""RPC 1.9 on the fake and the real conductor (see
test_conductor_contract.py): the same requests get the same answers."""

from ironic_lite import objects
from tests.unit.api import utils
from tests.unit.api.test_conductor_contract import backend  # noqa: F401
from tests.unit.api.test_conductor_contract import create
from tests.unit.api.test_conductor_contract import NODES

RAID = {'logical_disks': [{'size_gb': 'MAX', 'raid_level': '5'}]}


def test_target_raid_config(backend):  # noqa: F811
    node = create(backend)
    url = '%s/%s/states/raid' % (NODES, node)
    assert backend.put_json(url, RAID).status_int == 204
    assert backend.get('%s/%s' % (NODES, node)).json[
        'target_raid_config'] == RAID
    resp = backend.put_json(url, {'logical_disks': [{'size_gb': -1,
                                                     'raid_level': '5'}]})
    assert resp.status_int == 400, resp.text
    assert utils.faultstring(resp).startswith(
        'RAID config validation error: ')
    objects.Node.reserve(None, 'cond-7', node)
    assert backend.put_json(url, {}).status_int == 409
    objects.Node.release(None, 'cond-7', node)
    assert backend.put_json(url, {}).status_int == 204
    assert backend.get('%s/%s' % (NODES, node)).json[
        'target_raid_config'] == {}


def test_vendor_passthru(backend):  # noqa: F811
    node = create(backend)
    url = '%s/%s/vendor_passthru' % (NODES, node)
    methods = backend.get(url + '/methods').json
    assert methods['second_method']['async'] is True
    resp = backend.post_json(url + '?method=third_method_sync',
                             {'bar': 'meow'})
    assert (resp.status_int, resp.json) == (200, True)
    resp = backend.post_json(url + '?method=second_method', {'bar': 'x'})
    assert resp.status_int == 202, resp.text
    resp = backend.post_json(url + '?method=second_method', {})
    assert resp.status_int == 400, resp.text
    assert utils.faultstring(resp) == (
        "Parameter 'bar' not passed to method 'second_method'.")
    drivers = '/v1/drivers/fake-hardware'
    assert backend.get(drivers + '/vendor_passthru/methods').json == {}
    props = backend.get(drivers + '/raid/logical_disk_properties').json
    assert 'raid_level' in props
    assert backend.get('/v1/drivers/nope/vendor_passthru/methods'
                       ).status_int == 404
