"""Issue 20, item 3: a number no JSON document can hold back (it
overflows to infinity) is a 400 in any request body, never stored."""

import pytest

from tests.unit.api import utils

NOT_FINITE = ('1e999', '-1e999', '1.5e400', '123456789e999999')


@pytest.mark.parametrize('number', NOT_FINITE)
def test_create_with_overflowing_number_is_400(client, number):
    body = ('{"driver": "fake-hardware", "name": "n1", '
            '"properties": {"cpus": %s}}' % number)
    resp = client.post('/v1/nodes', body, content_type='application/json')
    assert resp.status_int == 400, resp.text
    assert utils.faultstring(resp).startswith(
        'Invalid JSON in the request body: a number is too large to be '
        'stored')
    assert client.get('/v1/nodes/n1').status_int == 404


@pytest.mark.parametrize('number', NOT_FINITE)
def test_patch_with_overflowing_number_is_400(client, node, number):
    for url in ('/v1/nodes/node-0', '/v1/chassis'):
        body = '[{"op": "add", "path": "/extra/x", "value": [%s]}]' % number
        resp = client.patch(url, body, content_type='application/json')
        assert resp.status_int == 400, resp.text
        assert 'too large' in utils.faultstring(resp)
    got = client.get('/v1/nodes/node-0')
    assert got.json['extra'] == {}
    assert 'Infinity' not in got.text


@pytest.mark.parametrize('literal', ['NaN', 'Infinity', '-Infinity'])
def test_non_json_constants_are_400(client, node, literal):
    body = '[{"op": "add", "path": "/properties/cpus", "value": %s}]' % (
        literal)
    resp = client.patch('/v1/nodes/node-0', body,
                        content_type='application/json')
    assert resp.status_int == 400, resp.text
    assert '%s is not valid JSON' % literal in utils.faultstring(resp)


def test_integer_of_too_many_digits_is_400(client, node):
    body = '[{"op": "add", "path": "/properties/n", "value": %s}]' % (
        '9' * 5000)
    resp = client.patch('/v1/nodes/node-0', body,
                        content_type='application/json')
    assert resp.status_int == 400, resp.text
    assert 'more than 4000 digits' in utils.faultstring(resp)


def test_large_finite_numbers_are_kept(client, node):
    body = ('[{"op": "add", "path": "/properties/cpus", "value": 1e300},'
            ' {"op": "add", "path": "/properties/n", "value": %s}]'
            % ('9' * 40))
    resp = client.patch('/v1/nodes/node-0', body,
                        content_type='application/json')
    assert resp.status_int == 200, resp.text
    props = client.get('/v1/nodes/node-0').json['properties']
    assert props == {'cpus': 1e300, 'n': int('9' * 40)}
