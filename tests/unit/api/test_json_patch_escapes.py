"""RFC 6901 escapes in PATCH paths (API 1.98): the field a path names is
decoded from 1.98 (Ironic's check of the patchable fields); the keys
below it (``/extra/a~1b``) are decoded at every version, by the patch."""

import types
from unittest import mock

import pytest

from ironic_lite.api import json_patch
from ironic_lite.common import exception

ALLOWED = {'one', 'four/five', 'six~seven'}


def _at(minor):
    request = types.SimpleNamespace(
        version=types.SimpleNamespace(minor=minor))
    return mock.patch.object(json_patch.pecan, 'request', request)


@pytest.mark.parametrize('path', ['/four~1five', '/six~0seven/x'])
def test_escaped_fields_from_1_98(path):
    patch = [{'op': 'add', 'path': path, 'value': 1}]
    with _at(98):
        json_patch.check_patch_fields(patch, ALLOWED, {})
    with _at(97), pytest.raises(exception.InvalidParameterValue) as err:
        json_patch.check_patch_fields(patch, ALLOWED, {})
    assert str(err.value).startswith('Cannot patch %s. Only the '
                                     'following can be updated: ' % path)


@pytest.mark.parametrize('version', ['1.97', '1.98'])
def test_escaped_keys_of_a_field_at_every_version(client, node, version):
    resp = client.patch_json('/v1/nodes/node-0', [
        {'op': 'add', 'path': '/extra/a~1b', 'value': 1},
        {'op': 'add', 'path': '/extra/c~0d', 'value': 2}], version=version)
    assert resp.status_int == 200, resp.text
    assert resp.json['extra'] == {'a/b': 1, 'c~d': 2}
    for bad in ('/extra/x~2', '/extra/x~'):
        resp = client.patch_json('/v1/nodes/node-0', [
            {'op': 'add', 'path': bad, 'value': 1}], version=version)
        assert resp.status_int == 400
        assert 'is not a valid JSON pointer' in resp.json_body[
            'error_message']
