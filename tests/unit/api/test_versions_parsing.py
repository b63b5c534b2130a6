"""Issue 20, item 4: the microversion header is parsed as Ironic parses
it, value for value.

Ironic (``ironic/api/controllers/base.py``, ``Version.parse_headers``)
splits the value on ``.`` and converts each part with ``int()``: exactly
two parts are needed, and ``int()`` takes surrounding blanks and leading
zeros.  So Ironic serves ``" 1.82 "``, ``"01.82"`` and ``"1.082"`` as
1.82, and answers anything else that is not two integers with ``406
Invalid value for X-OpenStack-Ironic-API-Version header``.  ironic-lite
does the same: a stricter parser would refuse requests Ironic serves.
"""

import pytest

from ironic_lite.api import microversions as mv
from tests.unit.api import utils

VER_H = 'X-OpenStack-Ironic-API-Version'


@pytest.mark.parametrize('value,served', [
    ('1.82', '1.82'), (' 1.82 ', '1.82'), ('01.82', '1.82'),
    ('1.082', '1.82'), ('1. 31', '1.31'), ('latest', mv.MAX_VERSION_STRING),
    ('LATEST', mv.MAX_VERSION_STRING), ('Latest', mv.MAX_VERSION_STRING),
])
def test_values_ironic_accepts(client, value, served):
    resp = client.get('/v1/nodes', version=value)
    assert resp.status_int == 200, resp.text
    assert resp.headers[VER_H] == served


@pytest.mark.parametrize('value', [
    '1', '1.82.0', '1..82', '.82', '1.', 'v1.82', '1.82a', '1,82',
    '1.8 2', 'baremetal 1.82', 'lat est', '1.0x52',
])
def test_values_ironic_refuses(client, value):
    resp = client.get('/v1/nodes', version=value)
    assert resp.status_int == 406, resp.text
    assert utils.faultstring(resp) == (
        'Invalid value for X-OpenStack-Ironic-API-Version header')
    assert resp.headers['X-OpenStack-Ironic-API-Minimum-Version'] == '1.1'
