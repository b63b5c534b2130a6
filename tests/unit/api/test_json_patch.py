"""ironic_lite/api/json_patch.py, the JSON patch engine: Ironic's words
for an operation that does not apply, and a field newer than the request
(the other aspects: test_json_patch_<aspect>.py)."""

import pytest

from tests.unit.api import utils


def test_patch_error_names_the_failed_operation(client, node):
    resp = client.patch_json('/v1/nodes/node-0', [
        {'op': 'add', 'path': '/extra/a', 'value': 1},
        {'op': 'remove', 'path': '/extra/missing'}])
    assert resp.status_int == 400
    assert utils.faultstring(resp).startswith(
        "Couldn't apply patch '{'op': 'remove', 'path': '/extra/missing'}'. "
        "Reason: ")
    # Nothing was written.
    assert client.get('/v1/nodes/node-0').json['extra'] == {}


def test_patch_newer_field_removal_is_not_406(client, node):
    resp = client.patch_json('/v1/nodes/node-0', [
        {'op': 'remove', 'path': '/description'}], version='1.50')
    assert resp.status_int == 200, resp.text
    resp = client.patch_json('/v1/nodes/node-0', [
        {'op': 'add', 'path': '/description', 'value': 'x'}],
        version='1.50')
    assert resp.status_int == 406
    assert utils.faultstring(resp) == 'Request not acceptable.'


@pytest.mark.parametrize('path', ['/properties/p', '/extra/p'])
def test_remove_of_a_missing_path(client, path):
    # "baremetal node unset --property p" of a node without it.
    uuid = utils.named_node(client)
    resp = client.patch_json('/v1/nodes/%s' % uuid,
                             [{'op': 'remove', 'path': path}],
                             expect_errors=True)
    utils.refused_400(
        resp, "Couldn't apply patch '{'op': 'remove', 'path': '%s'}'. "
        "Reason: can't remove a non-existent object 'p'" % path)


# -- input patterns match the whole value (issue 21): ``\Z``, never a
# ``$`` that also matches before a final newline ----------------------

def test_patch_list_index_with_a_newline_is_refused(client, node):
    url = '/v1/nodes/' + node['uuid']
    assert client.patch_json(url, [{'op': 'add', 'path': '/extra/l',
                                    'value': [1, 2]}]).status_int == 200
    resp = client.patch_json(url, [{'op': 'replace', 'path': '/extra/l/1\n',
                                    'value': 3}])
    assert resp.status_int == 400, resp.text
    assert 'is not a valid list index' in utils.faultstring(resp)
    assert client.get(url).json['extra'] == {'l': [1, 2]}
