"""/v1/shards answers a method it does not serve as Ironic does: 405 with
``Allow: GET`` (from 1.82 and below it), naming the method from 1.82."""

import pytest

from tests.unit.api import utils


@pytest.mark.parametrize('method', ['post_json', 'put_json', 'patch_json',
                                    'delete'])
@pytest.mark.parametrize('version', ['1.81', '1.82', None])
def test_405_allows_get(client, method, version):
    args = ({},) if method != 'delete' else ()
    resp = getattr(client, method)('/v1/shards', *args, version=version)
    assert resp.status_int == 405
    assert resp.headers['Allow'] == 'GET'
    verb = method.split('_')[0].upper()
    if version == '1.81':
        assert utils.faultstring(resp) == (
            'The API version does not allow shards')
    else:
        assert utils.faultstring(resp) == (
            'The method %s is not allowed for this resource.' % verb)
