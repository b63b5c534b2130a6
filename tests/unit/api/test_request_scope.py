"""ironic_lite.api.request_scope: one object per request, under one key."""

from ironic_lite.api import request_scope


def test_one_scope_per_request_environ():
    environ = {}
    scope = request_scope.of(environ)
    assert request_scope.of(environ) is scope
    assert list(environ) == [request_scope.ENVIRON_KEY]
    assert request_scope.of({}) is not scope


def test_a_new_scope_remembers_nothing():
    scope = request_scope.of({})
    assert (scope.nodes_by_id, scope.node_facts, scope.node_plans,
            scope.large_page) == ({}, None, {}, False)
