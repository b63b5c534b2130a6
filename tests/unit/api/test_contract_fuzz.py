"""Property test: no input gives a 5xx, on every backend.

Hypothesis generates requests for every route and method of the request
contract (tests/unit/api/contract_requests.py), valid and broken ones, and
sends them to the real API application on a real database (SQLite;
PostgreSQL and MariaDB when they are there) with the in-process fake
conductor.  For every answer:

* never a 5xx;
* every 4xx has Ironic's error envelope;
* a 4xx wrote nothing (every row of every table is unchanged).

The example budget is fixed and the run derandomized, so the test is
bounded in time and a failure reproduces.
"""

import webtest

from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
import pytest
import sqlalchemy as sa

from ironic_lite.api import app as api_app
from ironic_lite.api import microversions as mv
from ironic_lite.api import route_table
from ironic_lite.api.schemas import node as node_schema
from ironic_lite.common import policy
from ironic_lite import conf
from ironic_lite.conductor import hash_ring
from ironic_lite.db import api as db_api
from ironic_lite import objects
from ironic_lite.objects import base as objects_base
from tests.unit.api import contract_requests
from tests.unit.api import fakes
from tests.unit.api import utils

CONF = conf.CONF
TABLES = ('nodes', 'ports', 'portgroups', 'chassis', 'volume_connectors',
          'volume_targets', 'deploy_templates', 'deploy_template_steps')
# Example budget per route (derandomized: the same requests every run):
# more for the routes that take a body.
EXAMPLES = 5
BODY_EXAMPLES = 30


def _fields():
    """The fields of each resource, from its declaration's table (the
    controllers are imported once the objects are registered: their
    declarations name the objects classes)."""
    from ironic_lite.api.controllers.v1 import chassis
    from ironic_lite.api.controllers.v1 import deploy_template
    from ironic_lite.api.controllers.v1 import port
    from ironic_lite.api.controllers.v1 import portgroup
    from ironic_lite.api.controllers.v1 import volume_connector
    from ironic_lite.api.controllers.v1 import volume_target
    return {
        'nodes': sorted(mv.NODE_FIELD_MIN_VERSION),
        'ports': sorted(port.FIELD_MIN_VERSION),
        'portgroups': sorted(portgroup.FIELD_MIN_VERSION),
        'chassis': sorted(chassis.FIELD_MIN_VERSION),
        # /v1/volume/connectors and /v1/volume/targets (keyed by the
        # path's second segment).
        'volume': sorted(set(volume_connector.FIELD_MIN_VERSION)
                         | set(volume_target.FIELD_MIN_VERSION)),
        'deploy_templates': sorted(deploy_template.FIELD_MIN_VERSION),
    }


def _snapshot():
    """Every row of every API table (the writes a 4xx must not make)."""
    with db_api.get_engine().connect() as conn:
        return {t: sorted(map(repr, conn.execute(
            sa.text('SELECT * FROM %s ORDER BY id' % t)).fetchall()))
            for t in TABLES}


def _seed_bodies():
    """The items to aim at, in creation order: (path, body)."""
    return [
        ('/v1/chassis', {'uuid': CHASSIS, 'description': 'rack'}),
        ('/v1/nodes', {'uuid': NODE, 'driver': 'fake-hardware',
                       'name': 'node-0', 'chassis_uuid': CHASSIS,
                       'shard': 'A'}),
        ('/v1/portgroups', {'uuid': PG, 'node_uuid': NODE, 'name': 'pg-0',
                            'address': '52:54:00:00:00:00'}),
        ('/v1/ports', {'uuid': PORT, 'node_uuid': NODE,
                       'address': '52:54:00:00:00:01',
                       'portgroup_uuid': PG}),
        ('/v1/volume/connectors', {'uuid': CONNECTOR, 'node_uuid': NODE,
                                   'type': 'iqn', 'connector_id': 'iqn.0'}),
        ('/v1/volume/targets', {'uuid': TARGET, 'node_uuid': NODE,
                                'volume_type': 'iscsi', 'boot_index': 0,
                                'volume_id': 'vol-0'}),
        ('/v1/deploy_templates', {
            'uuid': TEMPLATE, 'name': 'CUSTOM_FUZZ',
            'steps': [{'interface': 'deploy', 'step': 'deploy',
                       'args': {}, 'priority': 0}]}),
    ]


CHASSIS = '11111111-2222-4333-8444-555555555555'
NODE = '21111111-2222-4333-8444-555555555555'
PG = '31111111-2222-4333-8444-555555555555'
PORT = '41111111-2222-4333-8444-555555555555'
CONNECTOR = '51111111-2222-4333-8444-555555555555'
TARGET = '61111111-2222-4333-8444-555555555555'
TEMPLATE = '71111111-2222-4333-8444-555555555555'
IDENTS = {'node_ident': [NODE, 'node-0'], 'port_uuid': [PORT],
          'portgroup_ident': [PG, 'pg-0'], 'chassis_uuid': [CHASSIS],
          'hostname': ['cond-0'], 'driver_name': ['fake-hardware'],
          'trait': ['CUSTOM_A', 'HW_CPU_X86_AVX2'], 'vif_id': ['vif-0'],
          'connector_uuid': [CONNECTOR], 'target_uuid': [TARGET],
          'template_ident': [TEMPLATE, 'CUSTOM_FUZZ'],
          'indicator': ['led@system', 'led-0@chassis'],
          'setting_name': ['ProcTurboMode'],
          'event_ident': ['5f8e8a0c-1111-4222-8333-944445555666']}


def _listed():
    """The routes of the API reference."""
    return [r for r in route_table.ROUTES if r.listed]


def _seed(app):
    """(Re)create the chassis, node, port group and port that a request
    may have deleted, so that later examples still reach them."""
    headers = {'X-OpenStack-Ironic-API-Version': 'latest'}
    for path, body in _seed_bodies():
        if app.get('%s/%s' % (path, body['uuid']), headers=headers,
                   expect_errors=True).status_int == 404:
            resp = app.post_json(path, body, headers=headers,
                                 expect_errors=True)
            assert resp.status_int == 201, resp.text


def _run(db_url, use_db):
    CONF([], project='ironic', default_config_files=[])
    use_db(db_url)
    objects.register_all()
    hash_ring.RING_MANAGER.reset()
    rpcapi = fakes.FakeConductorAPI()
    app = webtest.TestApp(api_app.setup_app(rpcapi_factory=lambda: rpcapi))
    _seed(app)
    fields = _fields()

    def check(request):
        method, url, body, content_type, version = request
        headers = {'X-OpenStack-Ironic-API-Version': version}
        if content_type:
            headers['Content-Type'] = content_type
        before = _snapshot()
        resp = app.request(url, method=method, body=body, headers=headers,
                           expect_errors=True)
        assert resp.status_int < 500, (method, url, body[:300],
                                       resp.status, resp.text[:500])
        if resp.status_int >= 400:
            utils.fault(resp)
            assert _snapshot() == before, (method, url, body[:300],
                                           resp.status, resp.text[:300])
        elif method == 'DELETE':
            _seed(app)

    try:
        for route in _listed():
            budget = BODY_EXAMPLES if route.body else EXAMPLES

            @settings(max_examples=budget, derandomize=True, deadline=None,
                      database=None, suppress_health_check=list(HealthCheck))
            @given(contract_requests.requests(route, IDENTS, fields))
            def one_route(request):
                check(request)
            one_route()
    finally:
        hash_ring.RING_MANAGER.reset()
        policy.reset()
        CONF.reset()


def test_no_5xx_sqlite(sqlite_url, use_db):
    _run(sqlite_url, use_db)


@pytest.mark.parametrize('backend', ['postgresql', 'mysql'])
def test_no_5xx_backend(backend, request, use_db):
    url = request.getfixturevalue(backend + '_url')
    _run(url, use_db)


# -- every length limit, explicitly --------------------------------------

# A minimal valid body per creating route (the field under test is added).
MINIMAL = {
    '/v1/nodes': lambda: {'driver': 'fake-hardware'},
    '/v1/ports': lambda: {'node_uuid': NODE, 'address': '52:54:00:00:01:02'},
    '/v1/portgroups': lambda: {'node_uuid': NODE},
    '/v1/chassis': lambda: {},
    '/v1/volume/connectors': lambda: {'node_uuid': NODE, 'type': 'ip',
                                      'connector_id': '10.0.0.9'},
    '/v1/volume/targets': lambda: {'node_uuid': NODE, 'volume_type': 'x',
                                   'boot_index': 9, 'volume_id': 'v-9'},
}


TABLES_OF = {'/v1/nodes': 'nodes', '/v1/ports': 'ports',
             '/v1/portgroups': 'portgroups', '/v1/chassis': 'chassis',
             '/v1/volume/connectors': 'volume_connectors',
             '/v1/volume/targets': 'volume_targets'}


def _over(prop, kind, limit, extra):
    """A value of the property's type: at its column's limit (extra=0)
    or one over (extra=1)."""
    if kind == 'chars':
        return 'x' * (limit + extra)
    if 'object' in prop['type']:
        return {'k': 'x' * (limit - len('{"k": ""}') + extra)}
    return 'x' * (limit - 2 + extra)


def _limited(schema, table):
    """(field, schema, kind, limit) of the body fields stored in a column
    with a length limit -- the limits read from the model itself, not
    from the schema under test."""
    limits = objects_base.column_limits(table)
    return sorted((n, p) + limits[n]
                  for n, p in schema['properties'].items() if n in limits)


def _check_limits(db_url, use_db):
    CONF([], project='ironic', default_config_files=[])
    use_db(db_url)
    objects.register_all()
    rpcapi = fakes.FakeConductorAPI()
    app = webtest.TestApp(api_app.setup_app(rpcapi_factory=lambda: rpcapi))
    headers = {'X-OpenStack-Ironic-API-Version': 'latest'}
    _seed(app)
    try:
        checked = 0
        for route in _listed():
            if route.method != 'POST' or route.path not in MINIMAL:
                continue
            for name, prop, kind, limit in _limited(
                    route.body_schema(mv.MINOR_MAX_VERSION),
                    TABLES_OF[route.path]):
                for extra in (0, 1):
                    before = _snapshot()
                    body = dict(MINIMAL[route.path](), **{name: _over(
                        prop, kind, limit, extra)})
                    resp = app.post_json(route.path, body, headers=headers,
                                         expect_errors=True)
                    assert resp.status_int < 500, (route.path, name, extra,
                                                   resp.text[:300])
                    if extra:
                        assert resp.status_int == 400, (route.path, name)
                        text = utils.faultstring(resp)
                        assert name in text and str(limit) in text, text
                        assert _snapshot() == before, (route.path, name)
                    elif resp.status_int == 201:
                        app.delete('%s/%s' % (route.path,
                                              resp.json['uuid']),
                                   headers=headers)
                    checked += 1
        # Node fields changed by PATCH, over their limit: 400, no write.
        for name, prop, kind, limit in _limited(node_schema.PATCHED,
                                                'nodes'):
            before = _snapshot()
            resp = app.patch_json('/v1/nodes/%s' % NODE, [
                {'op': 'replace', 'path': '/' + name,
                 'value': _over(prop, kind, limit, 1)}],
                headers=headers, expect_errors=True)
            assert resp.status_int == 400, (name, resp.text[:300])
            utils.fault(resp)
            assert _snapshot() == before, name
            checked += 1
        for path, body in (
                ('/v1/nodes/%s/maintenance' % NODE,
                 {'reason': 'x' * 65535}),
                ('/v1/nodes/%s/states/provision' % NODE,
                 {'target': 'active', 'configdrive': 'x' * 70000})):
            before = _snapshot()
            resp = app.put_json(path, body, headers=headers,
                                expect_errors=True)
            assert resp.status_int == 400, (path, resp.text[:300])
            assert '65535' in utils.faultstring(resp)
            assert _snapshot() == before, path
        assert checked > 100
    finally:
        CONF.reset()


def test_every_length_limit_sqlite(sqlite_url, use_db):
    _check_limits(sqlite_url, use_db)


@pytest.mark.parametrize('backend', ['postgresql', 'mysql'])
def test_every_length_limit_backend(backend, request, use_db):
    _check_limits(request.getfixturevalue(backend + '_url'), use_db)
