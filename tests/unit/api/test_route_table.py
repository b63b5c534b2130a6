"""The route table finds the controller modules itself: a new resource's
module joins the table (and GET /v1's links) by declaring its place,
without a line anywhere else."""

import types

import pytest

from ironic_lite.api import route_table
from ironic_lite.api import routes


def _handler():
    return {}


def _module(name, paths, order=None, v1=None):
    module = types.SimpleNamespace(__name__=name, ROUTES=[
        routes.Route('GET', path, _handler, doc='a test route')
        for path in paths])
    if order is not None:
        module.API_REFERENCE_ORDER = order
    if v1 is not None:
        module.V1_RESOURCES = v1
    return module


def test_every_resource_of_v1_is_found_in_the_package():
    found = {m.__name__.rsplit('.', 1)[1]
             for m in route_table.controller_modules()
             if hasattr(m, 'API_REFERENCE_ORDER')}
    assert {'node', 'port', 'portgroup', 'chassis', 'allocation',
            'deploy_template', 'volume_connector', 'bios'} <= found
    assert set(route_table.RESOURCES) == {
        'chassis', 'nodes', 'ports', 'portgroups', 'volume', 'lookup',
        'heartbeat', 'conductors', 'shards', 'drivers', 'allocations',
        'deploy_templates', 'continue_inspection', 'inspection_rules',
        'runbooks'}


def test_modules_are_placed_by_their_order_not_their_name():
    late = _module('x.widgets', ['/v1/widgets'], order=20, v1=('widgets',))
    early = _module('x.gadgets', ['/v1/gadgets'], order=10, v1=('gadgets',))
    table, links = route_table._table([late, early])
    paths = [r.path for r in table]
    assert paths.index('/v1/gadgets') < paths.index('/v1/widgets')
    assert links == ('gadgets', 'widgets')


def test_routes_another_module_includes_need_no_place():
    part = _module('x.widget_states', ['/v1/widgets/states'])
    whole = _module('x.widgets', ['/v1/widgets'], order=10)
    whole.ROUTES = whole.ROUTES + part.ROUTES
    table, _links = route_table._table([part, whole])
    assert [r.path for r in table].count('/v1/widgets/states') == 1


def test_a_module_with_routes_and_no_place_is_refused():
    lost = _module('x.widgets', ['/v1/widgets'])
    with pytest.raises(RuntimeError, match='x.widgets'):
        route_table._table([lost])


def test_two_modules_in_one_place_are_refused():
    with pytest.raises(RuntimeError, match='share a place'):
        route_table._table([_module('x.a', ['/v1/a'], order=10),
                            _module('x.b', ['/v1/b'], order=10)])
