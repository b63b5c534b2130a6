"""Helpers of the API tests."""

import json


def fault(resp):
    """The inner fault document of an error response (checks the shape)."""
    assert resp.content_type == 'application/json', resp.headers
    outer = resp.json
    assert set(outer) == {'error_message'}, outer
    inner = json.loads(outer['error_message'])
    assert set(inner) == {'faultstring', 'faultcode', 'debuginfo'}, inner
    assert inner['faultcode'] == ('Client' if resp.status_int < 500
                                  else 'Server')
    return inner


def faultstring(resp):
    return fault(resp)['faultstring']
