"""A consumer of release 6.0's verbs in the rolling-upgrade workload (hops
into a release whose API serves servicing, 1.87, or newer: ``applies``).

``Release6Consumer`` (the consumers' setup/cycle/verify interface, see
``consumers.py``) owns three fake-hardware nodes, enrolled through the
old release at step 0: one deployed (``active``) and two ``manageable``.
At every step it tries, through the round-robin client and at each
verb's microversion:

* runbooks (1.92): create a runbook named as a ``CUSTOM_`` trait with a
  step, give the node that trait, ``clean`` it with the runbook (the
  step ran), then remove the trait and delete the runbook;
* servicing (1.87): ``service`` the active node with a step; ``active``
  again, the step ran;
* virtual media (1.89, 1.93): attach a CD to a node (fake-hardware's
  fake virtual media), read it back, detach it;
* in-band inspection (1.84, 1.96): an inspection rule that sets
  ``extra/upgrade6_rule``; the node's ``inspect_interface`` set to
  ``agent``; ``inspect``; the test plays the agent (``POST
  /v1/continue_inspection`` with an inventory); ``manageable`` again
  with the inventory stored and the rule's value set; the rule deleted
  and the interface set back to ``fake``.  While the rule is refused by
  an API with the old release in force, the ``agent`` interface is also
  tried at a microversion the old release serves (``_probe``): it must
  be refused too (409 by a pinned API, 400 by the node's old or pinned
  conductor), the interface unchanged.

While the API that answers has an older release in force (the old code,
or the new code pinned or ``auto``-capped: both announce the old
maximum) the first request of each verb must be refused with 406 (the
version is not supported), counted by step and verb, and have left
nothing (no runbook or rule row, the node's state, interface and media
unchanged).  Otherwise the verb must be served end to end; each node it
touched must be handled by a conductor with the new release in force
(``node.conductor``, as ``redfish.py`` checks).  A later request of a
served verb that another, older API refuses (step 6.3: one API
unpinned) is tried again: the round-robin client soon reaches the new
one.  In the ``settled`` steps (everything unpinned) every verb of every
cycle must be served.

The verbs new in a hop are those newer than the old release's API: in a
later hop (old side 6.0 or newer) the verbs are served at every step,
by any conductor.
"""

import time

import sqlalchemy as sa

from tests.functional import procs
from tests import timeouts
from tests.upgrade import consumers
from tests.upgrade import redfish

# The microversion of each verb (and of the requests of its flow).
SERVICE, VMEDIA, RUNBOOK, VMEDIA_GET = '1.87', '1.89', '1.92', '1.93'
INSPECT, RULE = '1.84', '1.96'
# Node reads and writes (node.conductor is shown from 1.49): one every
# release of the hop serves.
NODE = '1.49'
VERBS = {'runbook': RUNBOOK, 'service': SERVICE, 'vmedia': VMEDIA,
         'inspect': RULE}
SERVED, REFUSED = 'served', 'refused'
# Seconds between two cycles that were refused.
REFUSED_PAUSE = 1
STEP = {'interface': 'vendor', 'step': 'log_passthrough', 'args': {}}
RAN = ['vendor.log_passthrough']
MAC = '52:54:00:66:00:01'
INVENTORY = {
    'interfaces': [{'name': 'eth0', 'mac_address': MAC,
                    'ipv4_address': '192.0.2.66'}],
    'boot': {'pxe_interface': MAC},
    'cpu': {'architecture': 'x86_64', 'count': 4},
    'memory': {'physical_mb': 4096},
}
# The inspect interfaces of the new conductors: the defaults and agent.
INSPECT_INTERFACES = 'no-inspect,redfish,fake,agent'


def _vt(version):
    return tuple(int(p) for p in version.split('.'))


def applies(new_api):
    """Whether the new side of a hop (its API microversion) serves the
    6.0 verbs."""
    return _vt(new_api) >= _vt(SERVICE)


def stable(state):
    return lambda n: (n['provision_state'] == state and
                      not n['target_provision_state'] and
                      not n['reservation'])


class Release6Consumer(object):
    def __init__(self, client, dep, old, old_api, settled):
        self.client, self.dep = client, dep
        self.old = old              # the old release's name
        self.old_api = old_api      # its maximum microversion
        self.settled = settled      # steps begun with every cap risen
        # The verbs the old release does not serve.
        self.new_verbs = {v for v, ver in VERBS.items()
                          if _vt(ver) > _vt(old_api)}
        self.nodes = {}             # role -> uuid
        self.node = None            # no sharded node (consumers.py)
        self.cycles = []            # (step at start, every verb served)
        self.refusals = {}          # step -> count
        self.refused = {}           # (step, verb) -> count
        self.served = {}            # (step, verb) -> count
        self.routed = {}            # conductor -> actions seen
        self.runbooks = {}          # name -> alive (acknowledged)
        self.rules = {}             # uuid -> alive (acknowledged)
        self.errors = []
        self._flow = None           # the verb being served, for errors
        self._states = None         # in force at the API of the last gate
        self.probes = {}            # status -> count (``_probe``)

    # -- requests -------------------------------------------------------

    def req(self, method, path, body=None, version=NODE):
        return self.client.request(method, path, body, version=version)

    def _state(self, layout, label, step):
        state = redfish.in_force(layout, label, self.old)
        return redfish.NEW if (state == redfish.RISING and
                               step in self.settled) else state

    def _is_refusal(self, status, body):
        """406: the microversion is newer than the old release's API."""
        return status == 406 and ('not supported by this service' in
                                  str(body)) and (
            ', %s]' % self.old_api in str(body))

    def _locked(self, status, body):
        return status == 409 and 'pinned to release' not in str(body)

    def _call(self, method, path, body=None, version=NODE, ok=(200,)):
        """A request of a verb being served: tried again while the node
        is locked, or while an older API refuses it (one API is still
        pinned, unless the step is settled); the answer, or None (an
        error, recorded)."""
        deadline = time.monotonic() + timeouts.HANG
        while True:
            status, resp = self.req(method, path, body, version)
            if status in ok:
                return {} if resp is None else resp     # 202, 204: {}
            retry = self._locked(status, resp) or (
                self._is_refusal(status, resp) and
                self.client.step not in self.settled)
            if not retry or time.monotonic() > deadline:
                self.errors.append('%s: %s %s -> %s %s' % (
                    self._flow, method, path, status, resp))
                return None
            time.sleep(consumers.POLL)

    def _gate(self, verb, method, path, body, ok, nothing):
        """The first request of ``verb``: (SERVED, its answer); (REFUSED,
        None), counted, ``nothing()`` checking what it left; (None,
        None) on an error (recorded)."""
        step = self.client.step
        before = dict(self.dep.layout)
        deadline = time.monotonic() + timeouts.HANG
        while True:
            status, resp = self.req(method, path, body, VERBS[verb])
            if not self._locked(status, resp) or \
                    time.monotonic() > deadline:
                break
            time.sleep(consumers.POLL)
        base = self.client.answered.base
        if base is None:
            return None, None   # a failed request: the client counts it
        label = {self.dep.api_url(lbl): lbl
                 for lbl in self.dep.api_labels()}[base]
        new = verb in self.new_verbs
        states = {self._state(before, label, step),
                  self._state(self.dep.layout, label, step)}
        self._states = states
        if status in ok:
            if new and states == {redfish.OLD}:
                self.errors.append('%s (%s) served %s at step %s: %s %s'
                                   % (label, before[label], verb, step,
                                      method, path))
            self.served[step, verb] = self.served.get((step, verb), 0) + 1
            return SERVED, resp
        if new and states != {redfish.NEW} and self._is_refusal(status,
                                                                resp):
            self.refusals[step] = self.refusals.get(step, 0) + 1
            self.refused[step, verb] = self.refused.get((step, verb), 0) + 1
            problem = nothing()
            if problem:
                self.errors.append('refused %s left something: %s'
                                   % (verb, problem))
            return REFUSED, None
        self.errors.append('%s via %s (%s, step %s): %s %s -> %s %s'
                           % (verb, label, before[label], step, method,
                              path, status, resp))
        return None, None

    def _node(self, role):
        return self.req('GET', '/v1/nodes/%s' % self.nodes[role])

    def _wait(self, role, done):
        """Poll the node until ``done(node)``; each poll checks which
        conductor handles it.  The node, or None (an error)."""
        deadline = time.monotonic() + timeouts.HANG
        node = None
        while time.monotonic() < deadline:
            status, node = self._node(role)
            if status == 200:
                self._routed(node)
                if done(node):
                    return node
                if node.get('last_error'):
                    break
            time.sleep(consumers.POLL)
        self.errors.append('%s: node %s not done: %s'
                           % (self._flow, role, node))
        return None

    def _routed(self, node):
        """A node a new verb acts on is handled by a conductor with the
        new release in force."""
        host = node.get('conductor')
        if host is None or self._flow not in self.new_verbs:
            return
        self.routed[host] = self.routed.get(host, 0) + 1
        if host not in self.dep.layout or redfish.in_force(
                self.dep.layout, host, self.old) == redfish.OLD:
            self.errors.append('%s: node %s handled by %s (%s)'
                               % (self._flow, node['uuid'], host,
                                  self.dep.describe()))

    def _rows(self, table, column, value):
        """Rows of ``table`` whose ``column`` is ``value`` (plain SQL; 0
        while the schema has no such table)."""
        engine = sa.create_engine(self.dep.db_url)
        try:
            with engine.connect() as conn:
                if table not in sa.inspect(conn).get_table_names():
                    return 0
                return conn.execute(sa.text(
                    'SELECT COUNT(*) FROM %s WHERE %s = :v'
                    % (table, column)), {'v': value}).scalar()
        finally:
            engine.dispose()

    def _unchanged(self, role, **expected):
        """What a refusal must leave: the node as ``expected``."""
        status, node = self._node(role)
        if status != 200:
            return 'node %s: %s %s' % (role, status, node)
        found = {k: node.get(k) for k in expected}
        return None if found == expected else (
            'node %s: %s, expected %s' % (role, found, expected))

    # -- the consumer's interface -------------------------------------------

    def setup(self):
        """Three fake-hardware nodes (with the fake vendor interface, whose
        step the runbook and the servicing run), enrolled by the old
        release: one active, two manageable."""
        for role in ('service', 'clean', 'inspect'):
            status, body = self.req('POST', '/v1/nodes', {
                'driver': 'fake-hardware', 'name': 'upgrade6-%s' % role,
                'vendor_interface': 'fake', 'inspect_interface': 'fake'})
            assert status == 201, (status, body)
            self.nodes[role] = body['uuid']
            self._flow = 'setup'
            assert self._provision(role, {'target': 'manage'},
                                   'manageable'), self.errors
        assert self._call('PATCH', '/v1/nodes/%s' % self.nodes['service'], [
            {'op': 'add', 'path': '/instance_info',
             'value': {'image_source': 'http://images/upgrade6'}}]) \
            is not None, self.errors
        for target, state in (('provide', 'available'), ('active',
                                                         'active')):
            assert self._provision('service', {'target': target}, state), \
                self.errors

    def _provision(self, role, body, state, version=NODE):
        """The node once it reached ``state``, or None (an error)."""
        path = '/v1/nodes/%s/states/provision' % self.nodes[role]
        if self._call('PUT', path, body, version, ok=(202,)) is None:
            return None
        return self._wait(role, stable(state))

    def cycle(self, n):
        """One try of each verb; True when each was served."""
        served = [self._runbook(n), self._service(n), self._vmedia(n),
                  self._inspect(n)]
        self._flow = None
        if not all(served):
            # Refused (or failed): wait before the next try, or the
            # consumers' cycles would be spent in one step.
            time.sleep(REFUSED_PAUSE)
        return all(served)

    def _runbook(self, n):
        self._flow = verb = 'runbook'
        name = 'CUSTOM_UPGRADE6_%d' % n
        node = '/v1/nodes/%s' % self.nodes['clean']
        outcome, _ = self._gate(verb, 'POST', '/v1/runbooks', {
            'name': name, 'steps': [dict(STEP, order=1)]}, (201,),
            lambda: self._rows('runbooks', 'name', name) and
            'runbook %s written' % name)
        if outcome != SERVED:
            return False
        self.runbooks[name] = True
        if self._call('PUT', '%s/traits/%s' % (node, name), None,
                      ok=(204,)) is None:
            return False
        done = self._provision('clean', {'target': 'clean', 'runbook': name},
                               'manageable', RUNBOOK)
        if done is None or done['driver_internal_info'].get(
                'fake_clean_steps_run') != RAN:
            self.errors.append('runbook %s ran %s' % (
                name, done and done['driver_internal_info']))
            return False
        if self._call('DELETE', '%s/traits/%s' % (node, name), None,
                      ok=(204,)) is None:
            return False
        if self._call('DELETE', '/v1/runbooks/%s' % name, None, RUNBOOK,
                      ok=(204,)) is None:
            return False
        self.runbooks[name] = False
        return True

    def _service(self, n):
        self._flow = verb = 'service'
        outcome, _ = self._gate(
            verb, 'PUT', '/v1/nodes/%s/states/provision'
            % self.nodes['service'], {'target': 'service',
                                      'service_steps': [STEP]}, (202,),
            lambda: self._unchanged('service', provision_state='active',
                                    target_provision_state=None))
        if outcome != SERVED:
            return False
        done = self._wait('service', stable('active'))
        if not done or done['driver_internal_info'].get(
                'fake_service_steps_run') != RAN:
            self.errors.append('servicing %d: %s' % (n, done))
            return False
        return True

    def _media(self):
        """{media type: (inserted, image)} of the clean node."""
        answer = self._call('GET', '/v1/nodes/%s/vmedia'
                            % self.nodes['clean'], version=VMEDIA_GET)
        return answer is not None and {
            t: (m['inserted'], m['image']) for m in answer
            for t in m['media_types']}

    def _vmedia(self, n):
        self._flow = verb = 'vmedia'
        image = 'http://images/upgrade6-%d.iso' % n
        path = '/v1/nodes/%s/vmedia' % self.nodes['clean']

        def nothing():
            status, node = self._node('clean')
            found = (node or {}).get('driver_internal_info', {}).get(
                'fake_vmedia')
            return found and 'media attached: %s' % found
        outcome, _ = self._gate(verb, 'POST', path, {
            'device_type': 'cdrom', 'image_url': image}, (204,), nothing)
        if outcome != SERVED:
            return False
        if not self._wait('clean', lambda n: not n['reservation']) or \
                (self._media() or {}).get('CD') != (True, image):
            self.errors.append('vmedia %s not attached' % image)
            return False
        if self._call('DELETE', path + '?device_types=cdrom', None, VMEDIA,
                      ok=(204,)) is None:
            return False
        if not self._wait('clean', lambda n: not n['reservation']) or \
                (self._media() or {}).get('CD') != (False, ''):
            self.errors.append('vmedia %s not detached' % image)
            return False
        return True

    def _inspect(self, n):
        self._flow = verb = 'inspect'
        mark = 'cycle-%d' % n
        description = 'upgrade6 %s' % mark
        outcome, answer = self._gate(verb, 'POST', '/v1/inspection_rules', {
            'description': description, 'priority': 20,
            'conditions': [{'op': 'gt', 'args': {
                'values': ['{inventory[cpu][count]}', '0']}}],
            'actions': [{'op': 'set-attribute', 'args': {
                'path': '/extra/upgrade6_rule', 'value': mark}}]}, (201,),
            lambda: self._rows('inspection_rules', 'description',
                               description) and
            'rule %r written' % description)
        if outcome == REFUSED and self._states == {redfish.OLD}:
            self._probe()
        if outcome != SERVED:
            return False
        rule = answer['uuid']
        self.rules[rule] = True
        node = '/v1/nodes/%s' % self.nodes['inspect']
        if self._call('PATCH', node, [
                {'op': 'replace', 'path': '/inspect_interface',
                 'value': 'agent'}], INSPECT) is None:
            return False
        if not (self._call('PUT', node + '/states/provision',
                           {'target': 'inspect'}, INSPECT, ok=(202,))
                is not None and self._wait(
                    'inspect', lambda n: n['provision_state'] ==
                    'inspect wait')):
            return False
        # The agent: no credentials, found by the UUID it was given.
        if self._call('POST', '/v1/continue_inspection?node_uuid=%s'
                      % self.nodes['inspect'], {'inventory': INVENTORY},
                      INSPECT, ok=(202,)) is None:
            return False
        done = self._wait('inspect', stable('manageable'))
        data = self._call('GET', node + '/inventory', version=INSPECT)
        if not done or not data or data['inventory'] != INVENTORY or \
                done['extra'].get('upgrade6_rule') != mark:
            self.errors.append('inspection %d: node %s, data %s'
                               % (n, done, data))
            return False
        if self._call('DELETE', '/v1/inspection_rules/%s' % rule, None,
                      RULE, ok=(204,)) is None:
            return False
        self.rules[rule] = False
        # As it was: the next refused cycle probes from ``fake``.
        return self._call('PATCH', node, [
            {'op': 'replace', 'path': '/inspect_interface',
             'value': 'fake'}]) is not None

    def _probe(self):
        """The ``agent`` inspect interface (6.0) at a microversion the
        old release serves: when an API with the old release in force
        answers, refused, by that API (409, pinned) or by the node's
        conductor (400: an old one has no such interface, a pinned new
        one refuses it), the interface unchanged."""
        node = '/v1/nodes/%s' % self.nodes['inspect']
        step, before = self.client.step, dict(self.dep.layout)
        status, resp = self.req('PATCH', node, [
            {'op': 'replace', 'path': '/inspect_interface',
             'value': 'agent'}])
        label = {self.dep.api_url(lbl): lbl for lbl in
                 self.dep.api_labels()}.get(self.client.answered.base)
        if label is None or {self._state(before, label, step),
                             self._state(self.dep.layout, label,
                                         step)} != {redfish.OLD}:
            # Another API answered (the round robin; step 6.3: an
            # unpinned one, which may accept it): as it was.
            if status == 200:
                self._call('PATCH', node, [
                    {'op': 'replace', 'path': '/inspect_interface',
                     'value': 'fake'}])
            return
        if self._locked(status, resp):
            return      # a conductor holds the node: no answer to judge
        self.probes[status] = self.probes.get(status, 0) + 1
        if status not in (400, 409) or 'agent' not in str(resp):
            self.errors.append('a pinned deployment answered %s to the '
                               'agent inspect interface: %s (%s)'
                               % (status, resp, self.dep.describe()))
        problem = self._unchanged('inspect', inspect_interface='fake')
        if problem:
            self.errors.append('refused agent interface: %s' % problem)
            self.req('PATCH', node, [{'op': 'replace',
                                      'path': '/inspect_interface',
                                      'value': 'fake'}])

    def verify(self):
        """Acknowledged runbooks and rules are there, deleted ones gone;
        no node left in a transitional state."""
        problems = []
        for kind, table, version in (('runbooks', self.runbooks, RUNBOOK),
                                     ('inspection_rules', self.rules,
                                      RULE)):
            for ident, alive in sorted(table.items()):
                status, _ = self.req('GET', '/v1/%s/%s' % (kind, ident),
                                     version=version)
                if status != (200 if alive else 404):
                    problems.append('%s %s (%s): %s' % (
                        kind, ident, 'alive' if alive else 'deleted',
                        status))
        expected = {'service': 'active', 'clean': 'manageable',
                    'inspect': 'manageable'}
        for role, uuid in sorted(self.nodes.items()):
            status, node = self._node(role)
            if status != 200 or node['provision_state'] != expected[
                    role] or node['target_provision_state']:
                problems.append('node %s %s: %s %s' % (role, uuid, status,
                                                       node))
        return problems


def consumer(dep, up, client, old, old_api, settled):
    """The 6.0 consumer of ``test_rolling_upgrade``'s run ``up``: the new
    conductors enable the ``agent`` inspect interface (beside the test
    interfaces ``procs.write_config`` would add, and the options another
    consumer gave them: call this after ``redfish.consumer``)."""
    # The old release's conductors too, when they have the agent
    # interface (an old side that serves these verbs, 6.0 on): else a
    # node given it while an old conductor holds it is refused.
    sides = [up.new.name] + ([up.old.name] if applies(old_api) else [])
    for side in sides:
        config = {section: dict(options) for section, options in
                  dep.release_config.get(side, {}).items()}
        default = procs._test_interfaces(config)
        default.update(config.get('DEFAULT', {}))
        default['enabled_inspect_interfaces'] = INSPECT_INTERFACES
        config['DEFAULT'] = default
        dep.release_config[side] = config
    return Release6Consumer(client, dep, old.name, old_api, settled)


def check_consumer(consumer):
    """Refused (406) by every API with the old release in force, served
    end to end in the settled steps, by new conductors only."""
    def by_step(counts):
        found = {}
        for (step, verb), count in sorted(counts.items()):
            found.setdefault(step, {})[verb] = count
        return found
    print('6.0 verbs refused by step: %s; served by step: %s; node actions '
          'by conductor: %s; agent inspect interface refused (pinned) '
          'with: %s' % (by_step(consumer.refused), by_step(consumer.served),
                        consumer.routed, consumer.probes))
    if consumer.new_verbs:
        refused = {verb for _, verb in consumer.refused}
        assert refused == consumer.new_verbs, consumer.refused
        assert consumer.probes, 'the agent interface was never probed'
        assert consumer.routed, 'no 6.0 action was seen'
    late = {verb for step, verb in consumer.served
            if step in consumer.settled}
    assert late == set(VERBS), ('6.0 verbs not served once settled: %s'
                                % consumer.served)
    assert any(ok for step, ok in consumer.cycles
               if step in consumer.settled), consumer.cycles
