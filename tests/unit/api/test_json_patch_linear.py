"""Issue 20, item 1: a JSON patch costs time linear in its length.

No wall-clock figure here (tools/benchmark/patch.py gives those): the
tests count the work whose repetition per operation made a patch
quadratic, the copies of the whole document and the masking of whole
fields.
"""

import copy

from oslo_utils import strutils
import pytest

from tests.unit.api import utils


def _adds(count):
    return [{'op': 'add', 'path': '/extra/k%d' % i, 'value': i}
            for i in range(count)]


def _size(value):
    """How many JSON values ``value`` holds."""
    if isinstance(value, dict):
        return 1 + sum(_size(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return 1 + sum(_size(v) for v in value)
    return 1


@pytest.fixture
def copied(monkeypatch):
    """How many JSON values the deep copies made copy in all."""
    total, depth, real = [0], [0], copy.deepcopy

    def deepcopy(value, memo=None, _nil=[]):
        if depth[0] == 0:
            total[0] += _size(value)
        depth[0] += 1
        try:
            return real(value, memo)
        finally:
            depth[0] -= 1
    monkeypatch.setattr(copy, 'deepcopy', deepcopy)
    return total


def test_document_copied_once_whatever_the_length(client, node, copied):
    ops = _adds(300)
    resp = client.patch_json('/v1/nodes/node-0', ops)
    assert resp.status_int == 200, resp.text
    assert len(resp.json['extra']) == 300
    # The document and the patch about once each (and each value added):
    # not the growing document once per operation (some 45,000 values).
    assert copied[0] <= 10 * _size(ops)


def test_masking_reads_only_what_an_operation_reads(client, node,
                                                    monkeypatch):
    masked = [0]
    real = strutils.mask_dict_password

    def mask(value, secret='***'):
        masked[0] += len(value)
        return real(value, secret)
    client.patch_json('/v1/nodes/node-0', [{
        'op': 'add', 'path': '/driver_info',
        'value': {'ipmi_password': 'pw', 'ipmi_address': 'a'}}])
    monkeypatch.setattr(strutils, 'mask_dict_password', mask)
    ops = [{'op': 'copy', 'from': '/driver_info/ipmi_address',
            'path': '/driver_info/a%d' % i} for i in range(300)]
    resp = client.patch_json('/v1/nodes/node-0', ops)
    assert resp.status_int == 200, resp.text
    masked[0] -= len(resp.json['driver_info'])   # the response's own
    # Each copy masks the member it reads and the one it writes: not the
    # whole field (which grows to 302 members).
    assert masked[0] <= 4 * len(ops)


def test_copies_may_not_blow_the_document_up(client, node):
    ops = [{'op': 'add', 'path': '/extra/a', 'value': list(range(50))}]
    ops += [{'op': 'copy', 'from': '/extra', 'path': '/extra/c%d' % i}
            for i in range(12)]
    resp = client.patch_json('/v1/nodes/node-0', ops)
    assert resp.status_int == 400
    assert 'copies more than' in utils.faultstring(resp)


def test_patch_and_document_not_changed_for_a_retry(client, node):
    from ironic_lite.api import json_patch
    doc = {'extra': {}}
    patch = [{'op': 'add', 'path': '/extra/a', 'value': {}},
             {'op': 'add', 'path': '/extra/a/b', 'value': 1}]
    expected = copy.deepcopy(patch)
    assert json_patch.apply_patch(doc, patch) == {'extra': {'a': {'b': 1}}}
    assert patch == expected and doc == {'extra': {}}
