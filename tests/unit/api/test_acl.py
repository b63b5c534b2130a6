"""The RBAC matrix (acl_matrix.yaml) run in-process.

``auth_strategy = keystone`` with keystonemiddleware's ``auth_token``
replaced by a stand-in that gives each request the identity of a persona
of the matrix (the environment keys auth_token sets after validating a
token), so that every route and policy is checked against every persona
in a few seconds.  The same matrix with real tokens:
tests/functional/test_keystone_acl.py.
"""

import collections
import json
import os
import time
import uuid

from keystonemiddleware import auth_token
import pytest
import yaml

from ironic_lite.common import policy
from ironic_lite import conf
from tests import timeouts

CONF = conf.CONF
MATRIX_FILE = os.path.join(os.path.dirname(__file__), 'acl_matrix.yaml')
with open(MATRIX_FILE) as _f:
    MATRIX = yaml.safe_load(_f)
PERSONAS = MATRIX['personas']
ROUTES = MATRIX['routes']
PROJECTS = {'owner': 'proj-owner-id', 'lessee': 'proj-lessee-id',
            'other': 'proj-other-id', 'service': 'proj-service-id'}
PERSONA_HEADER = 'HTTP_X_TEST_PERSONA'


class FakeAuthProtocol(object):
    """Stands for auth_token: the persona's identity, or a 401."""

    def __init__(self, app, conf):
        self.app = app

    def __call__(self, environ, start_response):
        name = environ.pop(PERSONA_HEADER, None)
        if name is None:
            start_response('401 Unauthorized', [
                ('Content-Type', 'application/json'),
                ('WWW-Authenticate', 'Keystone uri="http://keystone"')])
            return [b'{"error": {"code": 401}}']
        persona = PERSONAS[name]
        environ.update({'HTTP_X_IDENTITY_STATUS': 'Confirmed',
                        'HTTP_X_USER_ID': 'user-' + name,
                        'HTTP_X_USER_NAME': name,
                        'HTTP_X_ROLES': ','.join(persona['roles'])})
        if 'system' in persona:
            environ['HTTP_OPENSTACK_SYSTEM_SCOPE'] = persona['system']
        else:
            environ['HTTP_X_PROJECT_ID'] = PROJECTS[persona['project']]
            environ['HTTP_X_PROJECT_NAME'] = persona['project']
        return self.app(environ, start_response)


@pytest.fixture
def keystone_client(make_client, monkeypatch):
    monkeypatch.setattr(auth_token, 'AuthProtocol', FakeAuthProtocol)
    CONF.set_override('auth_strategy', 'keystone')
    return make_client()


def _as(persona):
    return {'X-Test-Persona': persona}


class _MadeOnFirstUse(dict):
    """A World's values: an object is made when a route first names it."""

    def __init__(self, makers, **values):
        super(_MadeOnFirstUse, self).__init__(values)
        self.makers = makers

    def __missing__(self, name):
        if name not in self.makers:
            raise KeyError(name)
        self[name] = self.makers[name]()
        return self[name]


class World(object):
    """The objects the routes act on, made by the system admin.

    A route that changes something gets those it names (``{node}``),
    each made on first use: a World made every kind for each such
    route, an allocated node (two provision state changes and an
    allocation) included, though most name none of them.  A GET gets
    them all (:meth:`make_all`): what a list answers depends on what
    exists (a project's service role reads its project's allocations
    list, a 403, only when one is there).
    """

    def __init__(self, client):
        self.client = client
        self.values = _MadeOnFirstUse({
            'node': self.node, 'chassis': self.chassis,
            'port': lambda: self.child('ports'),
            'portgroup': lambda: self.child('portgroups'),
            'allocation': self.allocation,
            'allocated_node': self.allocated_node,
            'template': self.template, 'rule': self.rule,
            'runbook': self.runbook,
        }, owner_project=PROJECTS['owner'], lessee_project=PROJECTS['lessee'])

    def make_all(self):
        for name in self.values.makers:
            self.values[name]

    def _post(self, path, body):
        resp = self.client.post_json(path, body, headers=_as('system_admin'))
        assert resp.status_int == 201, resp.text
        return resp.json['uuid']

    def node(self):
        return self._post('/v1/nodes', {
            'driver': 'fake-hardware', 'owner': PROJECTS['owner'],
            'lessee': PROJECTS['lessee']})

    def chassis(self):
        return self._post('/v1/chassis', {})

    def template(self):
        # Release 4.0: a deploy template (its name: a custom trait).
        return self._post('/v1/deploy_templates', {
            'name': 'CUSTOM_T%s' % uuid.uuid4().hex.upper(),
            'steps': [{'interface': 'deploy', 'step': 'deploy',
                       'args': {}, 'priority': 0}]})

    def rule(self):
        # An inspection rule (API 1.96).
        return self._post('/v1/inspection_rules', {
            'actions': [{'op': 'log', 'args': {'msg': 'acl'}}]})

    def runbook(self):
        # Release 6.0: a runbook of the owner project (1.92).
        return self._post('/v1/runbooks', {
            'name': 'acl-%s' % uuid.uuid4().hex, 'owner': PROJECTS['owner'],
            'steps': [{'interface': 'deploy', 'step': 'erase_devices',
                       'args': {}, 'order': 0}]})

    def child(self, collection):
        return self._post('/v1/' + collection, self.fill(
            {'node_uuid': '{node}', 'address': '{mac}'}))

    def allocation(self):
        """An allocation of the owner project (no node matches it)."""
        return self._post('/v1/allocations', {
            'resource_class': 'none', 'owner': PROJECTS['owner']})

    def allocated_node(self):
        """A node (of the owner project) with an allocation of the owner
        project."""
        node_uuid = self.node()
        # Through the API (the Keystone test's World is a real service):
        # manage sets a power state, provide makes the node available.
        admin = _as('system_admin')
        path = '/v1/nodes/%s' % node_uuid
        resp = self.client.patch_json(path, [
            {'op': 'add', 'path': '/resource_class', 'value': 'acl'}],
            headers=admin)
        assert resp.status_int == 200, resp.text
        for verb, state in (('manage', 'manageable'),
                            ('provide', 'available')):
            resp = self.client.put_json(path + '/states/provision',
                                        {'target': verb}, headers=admin)
            assert resp.status_int == 202, resp.text
            self._wait_for(path, state)
        allocation = self._post('/v1/allocations', {
            'resource_class': 'acl', 'owner': PROJECTS['owner'],
            'candidate_nodes': [node_uuid]})
        # A real conductor reserves the node a moment later.
        deadline = time.monotonic() + timeouts.HANG
        while True:
            body = self.client.get('/v1/allocations/' + allocation,
                                   headers=admin).json
            if body['state'] != 'allocating':
                break
            assert time.monotonic() < deadline, body
            time.sleep(0.1)
        assert body['state'] == 'active', body
        return node_uuid

    def _wait_for(self, path, state):
        deadline = time.monotonic() + timeouts.HANG
        while True:
            body = self.client.get(path, headers=_as('system_admin')).json
            if body['provision_state'] == state and \
                    not body['target_provision_state']:
                return
            assert time.monotonic() < deadline, (state, body)
            time.sleep(0.1)

    def fill(self, value, fresh=None):
        """The value with its placeholders replaced."""
        if isinstance(value, dict):
            return {k: self.fill(v, fresh) for k, v in value.items()}
        if isinstance(value, list):
            return [self.fill(v, fresh) for v in value]
        if not isinstance(value, str) or '{' not in value:
            return value
        made_here = dict(uuid=str(uuid.uuid4()),
                         mac='52:54:00:%02x:%02x:%02x' % tuple(
                             uuid.uuid4().bytes[:3]))
        made_here.update(fresh or {})
        return value.format_map(collections.ChainMap(made_here, self.values))

    def volume_node(self):
        """The node of the volume rows (made once), powered off: a
        volume connector or target update needs it so."""
        if 'volume_node' not in self.values:
            ident = self.node()
            resp = self.client.put_json(
                '/v1/nodes/%s/states/power' % ident,
                {'target': 'power off'}, headers=_as('system_admin'))
            assert resp.status_int == 202, resp.text
            for _ in range(100):
                node = self.client.get('/v1/nodes/' + ident,
                                       headers=_as('system_admin')).json
                if node['power_state'] == 'power off':
                    break
                time.sleep(0.05)
            self.values['volume_node'] = ident
        return self.values['volume_node']

    def volume_record(self, kind):
        node = self.volume_node()
        self.boot_index = getattr(self, 'boot_index', -1) + 1
        body = ({'node_uuid': node, 'type': 'iqn',
                 'connector_id': 'iqn.%s' % uuid.uuid4()}
                if kind == 'connectors' else
                {'node_uuid': node, 'volume_type': 'iscsi',
                 'volume_id': str(uuid.uuid4()),
                 'boot_index': self.boot_index})
        return self._post('/v1/volume/' + kind, body)

    def fresh_values(self, route):
        text = json.dumps([route['path'], route.get('body')])
        fresh = {}
        if '{volume_node}' in text:
            self.volume_node()
        for kind in ('connector', 'target'):
            if '{fresh_%s}' % kind in text:
                fresh['fresh_' + kind] = self.volume_record(kind + 's')
        if '{fresh_node}' in text:
            fresh['fresh_node'] = self.node()
        if '{fresh_chassis}' in text:
            fresh['fresh_chassis'] = self.chassis()
        if '{fresh_template}' in text:
            fresh['fresh_template'] = self.template()
        if '{fresh_rule}' in text:
            fresh['fresh_rule'] = self.rule()
        if '{fresh_runbook}' in text:
            fresh['fresh_runbook'] = self.runbook()
        for name in ('port', 'portgroup'):
            if '{fresh_%s}' % name in text:
                fresh['fresh_' + name] = self.child(name + 's')
        for name in ('allocation', 'allocated_node'):
            if '{fresh_%s}' % name in text:
                fresh['fresh_' + name] = getattr(self, name)()
        return fresh


def _expected(route):
    expected = {}
    for status, names in route['expect'].items():
        for name in names:
            assert name in PERSONAS, (route['route'], name)
            assert name not in expected, (route['route'], name)
            expected[name] = status
    return {name: expected.get(name, route['otherwise'])
            for name in PERSONAS}


def _call(client, route, persona, world):
    if route['method'] == 'GET':
        world.make_all()
    fresh = world.fresh_values(route)
    path = world.fill(route['path'], fresh)
    method = route['method'].lower()
    headers = _as(persona) if persona else {}
    if 'body' in route:
        return getattr(client, method + '_json')(
            path, world.fill(route['body'], fresh), headers=headers)
    return getattr(client, method)(path, headers=headers)


@pytest.mark.parametrize('route', ROUTES, ids=[r['route'] for r in ROUTES])
def test_route(keystone_client, route):
    world = World(keystone_client)
    # Without a token: 401, but on a public route (``anonymous``).
    assert (_call(keystone_client, route, None, world).status_int
            == route.get('anonymous', 401))
    got = {}
    for persona, spec in PERSONAS.items():
        CONF.set_override('rbac_service_role_elevated_access',
                          bool(spec.get('elevated')))
        got[persona] = _call(keystone_client, route, persona,
                             world).status_int
    CONF.clear_override('rbac_service_role_elevated_access')
    assert got == _expected(route)


def test_every_policy_is_in_the_matrix():
    covered = {name for route in ROUTES for name in route['policies']}
    rules = {rule.name for rule in policy.list_policies()
             if rule.name.startswith('baremetal:')}
    assert sorted(rules - covered) == []
    assert sorted(covered - rules) == []


def test_public_routes_need_no_token(keystone_client):
    for path in ('/', '/v1', '/v1/'):
        assert keystone_client.get(path).status_int == 200, path
    # The ramdisk's agent has no credentials (its answers are the API's,
    # not auth_token's 401).
    resp = keystone_client.get('/v1/lookup?addresses=52:54:00:00:00:99')
    assert resp.status_int == 404
    resp = keystone_client.post_json('/v1/heartbeat/no-such-node',
                                     {'callback_url': 'http://192.0.2.1:9',
                                      'agent_token': 't'})
    assert resp.status_int == 404
    assert 'error_message' in resp.json
    # Only the heartbeat path itself, not what is under it.
    assert keystone_client.post_json('/v1/heartbeat/a/b', {}
                                     ).status_int == 401
    resp = keystone_client.get('/v1/nodes')
    assert resp.status_int == 401
    assert 'error_message' in resp.json
