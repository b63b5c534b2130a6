"""A metalsmith-style consumer of release 4.0's API, beside the computes.

metalsmith (and Bifrost, and every tool on ``openstack baremetal
allocation``) deploys by allocation: it asks for a node of a resource
class, waits for the allocation, writes the instance's ``instance_info``
(with the traits that pick deploy templates), deploys, and later
undeploys, which releases the allocation.  This consumer owns one node
and loops on that life, and, around it, registers and removes the node's
volume connectors (boot from volume) and keeps one deploy template.

It runs in the hops whose new side has allocations (``applies``).  While
the old release or a pinned API answers, its requests get the documented
refusals (``is_refusal``): a 3.0 API has none of these paths (404 "The
resource could not be found."), a 4.0 API pinned to 3.0 answers 409
"... pinned to release 3.0 ...".  Once everything is unpinned every call
must be served.  Acknowledged connectors and the template are remembered,
so that ``verify`` proves none was lost and no deleted one came back.
"""

import time

from tests import timeouts
from tests.upgrade import consumers

RESOURCE_CLASS = 'upgrade-metalsmith'
# Seconds between two cycles whose allocation was refused.
REFUSED_PAUSE = 1
# Microversions of the calls, as a client of each feature sends them.
VOLUME = '1.32'
ALLOCATION = '1.52'
TEMPLATE = '1.55'
NODE = '1.82'
# The deploy template's steps: what fake-hardware offers as deploy steps.
TEMPLATE_STEPS = [
    {'interface': 'bios', 'step': 'apply_configuration', 'priority': 150,
     'args': {'settings': [{'name': 'LogicalProc', 'value': 'Enabled'}]}},
    {'interface': 'raid', 'step': 'create_configuration', 'priority': 120,
     'args': {}},
]


def applies(entry):
    """Whether the new side of a hop (its release mapping ``entry``)
    serves allocations, volume connectors and deploy templates."""
    return {'Allocation', 'VolumeConnector',
            'DeployTemplate'} <= set(entry['objects'])


def is_refusal(status, body):
    """A documented refusal of a 4.0 request while the upgrade runs."""
    text = str(body)
    if status == 404:   # the old API has no such path
        return 'The resource could not be found' in text
    return status == 409 and 'pinned to release' in text


class Metalsmith(object):
    def __init__(self, client, index=1):
        self.client, self.index = client, index
        self.node = None
        self.connectors = {}    # uuid -> True (acknowledged) / False (gone)
        self.template = None    # acknowledged template name
        self.template_name = 'CUSTOM_UPGRADE_MS_%d' % index
        self.fake_steps = False  # the node's bios/raid interfaces are fake
        self.cycles = []        # (step at start, every 4.0 call served)
        self.refusals = {}      # step -> count
        self.errors = []

    def req(self, method, path, body=None, version=NODE):
        return self.client.request(method, path, body, version=version)

    def _served(self, status, body, ok, what):
        """True when served; a refusal is counted, anything else is an
        error."""
        if status in ok:
            return True
        if is_refusal(status, body):
            step = self.client.step
            self.refusals[step] = self.refusals.get(step, 0) + 1
        else:
            self.errors.append('%s -> %s %s' % (what, status, body))
        return False

    def _call(self, method, path, body, version, ok, what):
        """A request retried while a conductor holds the node (409 not a
        refusal), for a hang's time; (served, response body)."""
        deadline = time.monotonic() + timeouts.HANG
        while True:
            status, resp = self.req(method, path, body, version=version)
            if status != 409 or is_refusal(status, resp) or \
                    time.monotonic() > deadline:
                break
            time.sleep(consumers.POLL)
        return self._served(status, resp, ok, what), resp

    def _until(self, what, probe, timeout=timeouts.HANG):
        """Poll ``probe`` (returns True when done) for a hang's time."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if probe():
                return True
            time.sleep(consumers.POLL)
        self.errors.append('%s: not done in %ss' % (what, timeout))
        return False

    def _node_state(self, state):
        status, body = self.req('GET', '/v1/nodes/%s' % self.node)
        return (status == 200 and body['provision_state'] == state
                and not body['target_provision_state'])

    def _provision(self, target, state, **extra):
        path = '/v1/nodes/%s/states/provision' % self.node
        deadline = time.monotonic() + timeouts.HANG
        while True:
            status, body = self.req('PUT', path, dict(extra, target=target))
            # 409: a conductor holds the node for a moment.
            if status != 409 or time.monotonic() > deadline:
                break
            time.sleep(consumers.POLL)
        if status != 202:
            self.errors.append('%s %s -> %s %s'
                               % (target, self.node, status, body))
            return False
        return self._until('node %s to %s' % (self.node, state),
                           lambda: self._node_state(state))

    def setup(self):
        status, body = self.req('POST', '/v1/nodes', {
            'driver': 'fake-hardware', 'resource_class': RESOURCE_CLASS,
            'name': 'metalsmith-node-%d' % self.index})
        assert status == 201, (status, body)
        self.node = body['uuid']
        # The trait the deploy template is named after: the allocation asks
        # for it, and a deploy may only name traits the node has.
        status, body = self.req('PUT', '/v1/nodes/%s/traits' % self.node,
                                {'traits': [self.template_name]})
        assert status == 204, (status, body)
        assert self._provision('manage', 'manageable'), self.errors
        assert self._provision('provide', 'available'), self.errors

    # -- the parts of a cycle ----------------------------------------------

    def _connector(self, n):
        """Register a connector, find it as Nova does, drop an older one."""
        served, body = self._call('POST', '/v1/volume/connectors', {
            'node_uuid': self.node, 'type': 'iqn',
            'connector_id': 'iqn.2026-11.org.lite:ms-%d-%d'
                            % (self.index, n)}, VOLUME, (201,),
            'connector create')
        if not served:
            return False
        newest = body['uuid']
        self.connectors[newest] = True
        served, body = self._call(
            'GET', '/v1/volume/connectors?node=%s&detail=True' % self.node,
            None, VOLUME, (200,), 'connector list')
        if not served:
            return False
        listed = {c['uuid'] for c in body['connectors']}
        mine = {u for u, alive in self.connectors.items() if alive}
        if listed != mine:
            self.errors.append('connectors of %s: %s, acknowledged %s'
                               % (self.node, sorted(listed), sorted(mine)))
        for older in sorted(mine - {newest})[:1]:
            served, _ = self._call('DELETE', '/v1/volume/connectors/%s'
                                   % older, None, VOLUME, (204,),
                                   'connector delete')
            if served:
                self.connectors[older] = False
        return served

    def _ensure_template(self):
        if self.template:
            return True
        name = self.template_name
        served, _ = self._call('POST', '/v1/deploy_templates', {
            'name': name, 'steps': TEMPLATE_STEPS}, TEMPLATE, (201,),
            'template create')
        if not served:
            return False
        self.template = name
        return True

    def _allocate(self, n):
        """An allocation of this node; its UUID, or None."""
        served, body = self._call('POST', '/v1/allocations', {
            'resource_class': RESOURCE_CLASS, 'candidate_nodes': [self.node],
            'traits': [self.template_name],
            'name': 'ms-%d-%d' % (self.index, n)}, ALLOCATION, (201,),
            'allocation create')
        if not served:
            return None
        allocation = body['uuid']
        found = {}

        def settled():
            status, body = self.req('GET', '/v1/allocations/%s'
                                    % allocation, version=ALLOCATION)
            found.update(body if status == 200 else {})
            return status == 200 and body['state'] != 'allocating'
        if not self._until('allocation %s' % allocation, settled):
            return None
        if found['state'] != 'active' or found['node_uuid'] != self.node:
            self.errors.append('allocation %s: %s' % (allocation, found))
            return None
        return allocation

    def cycle(self, n):
        """One instance's life; True when every 4.0 call was served."""
        served = self._connector(n)
        served &= self._ensure_template()
        allocation = self._allocate(n)
        if allocation is None:
            # Refused (old or pinned APIs): wait before the next try, or
            # the consumers' 500 cycles would be spent in one step.
            time.sleep(REFUSED_PAUSE)
            return False
        node = '/v1/nodes/%s' % self.node
        if not self.fake_steps:
            # The template's steps are those of fake-hardware's fake bios
            # and raid interfaces (4.0's: a 3.0 API would refuse them).
            done, _ = self._call('PATCH', node, [
                {'op': 'replace', 'path': '/bios_interface', 'value': 'fake'},
                {'op': 'replace', 'path': '/raid_interface', 'value': 'fake'}],
                NODE, (200,), 'fake bios/raid interfaces')
            if not done:
                return False
            self.fake_steps = True
        done, _ = self._call('PATCH', node, [
            {'op': 'add', 'path': '/instance_info', 'value': {
                'image_source': 'http://images/ms-%d' % n,
                'traits': [self.template] if self.template else []}}],
            NODE, (200,), 'instance_info')
        if not done:
            return False
        if not self._provision('active', 'active', configdrive='H4sI'):
            return False
        if self.template:
            served &= self._template_ran()
        if not self._provision('deleted', 'available'):
            return False
        # Undeploying released the allocation, as in Ironic.
        status, body = self.req('GET', '/v1/allocations/%s' % allocation,
                                version=ALLOCATION)
        if status != 404:
            self.errors.append('allocation %s after undeploy: %s %s'
                               % (allocation, status, body))
            return False
        status, body = self.req('GET', node)
        if status != 200 or body['allocation_uuid'] or body['instance_uuid']:
            self.errors.append('node %s after undeploy: %s %s'
                               % (self.node, status, body))
            return False
        return served

    def _template_ran(self):
        """The template's steps ran, in priority order (fake-hardware
        records the steps of a deploy in ``fake_deploy_steps``)."""
        status, body = self.req('GET', '/v1/nodes/%s' % self.node)
        ran = [(s['interface'], s['step']) for s in
               body.get('driver_internal_info', {}).get(
                   'fake_deploy_steps', [])
               if s['interface'] != 'deploy']
        expected = [(s['interface'], s['step']) for s in TEMPLATE_STEPS]
        if ran[-len(expected):] != expected:
            self.errors.append('deploy of %s ran %s, expected %s last'
                               % (self.node, ran, expected))
            return False
        return True

    def verify(self):
        """Acknowledged connectors and the template are there; deleted
        connectors are gone."""
        problems = []
        for uuid, alive in sorted(self.connectors.items()):
            status, body = self.req('GET', '/v1/volume/connectors/%s' % uuid,
                                    version=VOLUME)
            if alive and (status != 200 or body['node_uuid'] != self.node):
                problems.append('connector %s: %s %s' % (uuid, status, body))
            if not alive and status != 404:
                problems.append('deleted connector %s: %s %s'
                                % (uuid, status, body))
        if self.template:
            status, body = self.req('GET', '/v1/deploy_templates/%s'
                                    % self.template, version=TEMPLATE)
            if status != 200 or body['steps'] != TEMPLATE_STEPS:
                problems.append('template %s: %s %s'
                                % (self.template, status, body))
        return problems
