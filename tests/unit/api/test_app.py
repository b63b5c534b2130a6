"""ironic_lite.api.app: pecan's application, as ironic-lite builds it."""

from unittest import mock

import pecan.routing


def test_the_root_route_table_is_called_without_inspecting_it(client):
    """Application.route hands the path to the root's _route itself:
    pecan's lookup would inspect _route's signature on every request."""
    with mock.patch.object(pecan.routing, 'getargspec',
                           side_effect=AssertionError('inspected')):
        assert client.get('/v1/nodes').status_int == 200
        assert client.get('/').status_int == 200
        assert client.get('/v1/no-such-thing').status_int == 404
