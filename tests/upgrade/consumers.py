"""A "compute" per shard, as nova-compute's ironic driver uses the API,
beside the mixed workload of ``workload.py``.

Each compute owns one node of its shard and loops: list its shard with
Nova's fields, claim the node (``instance_uuid`` and ``instance_info`` in
one PATCH), set its traits, attach a VIF, validate, deploy with a config
drive, reboot, tear down, detach the VIF and unclaim.  Requests go through
the same round-robin client (5xx, timeouts and connection errors are
failures there).  The *documented refusals* of a rolling upgrade are
counted, not failed: a 2.0 API answers 404 to the 3.0 requests (traits,
VIFs, validate, boot device), and a 3.0 API pinned to 2.0 answers 409 "...
pinned to release 2.0 ..." (doc/source/admin/upgrade-guide.rst).  Every
acknowledged trait set and VIF attach/detach is remembered, so that
``verify`` proves none was lost.
"""

import re
import threading
import time
import uuid as uuidlib

from tests import timeouts

# Seconds between two reads of a node waiting for a state, and between two
# tries of a request answered "busy" (Nova's driver waits 2 s).  And
# between two cycles of a consumer: a real one does not deploy a node the
# moment it undeployed it.  Each consumer of the rolling-upgrade and HA
# tests runs for the whole test: at 0.25 s and no pause, five of them kept
# a conductor at half a core and the functional level's machine full.
POLL = 0.5
CYCLE_PAUSE = 2

NOVA_FIELDS = ('uuid,power_state,target_power_state,provision_state,'
               'target_provision_state,last_error,maintenance,properties,'
               'instance_uuid,traits,resource_class')
VERSION = '1.82'


def is_refusal(status, body):
    """A documented refusal of a 3.0 request while the upgrade runs."""
    text = str(body)
    if status == 404:   # not a missing node: a path 2.0 does not have
        return not re.search(r'Node \S+ could not be found', text)
    return status == 409 and 'pinned to release' in text


class Compute(object):
    def __init__(self, client, shard, index, volume=False):
        self.client, self.shard, self.index = client, shard, index
        # Whether the new release serves /v1/volume: Nova's cleanup of an
        # instance then starts with its volume targets.
        self.volume = volume
        self.node = None
        self.traits = None      # acknowledged traits (None: never set)
        self.vif = None         # acknowledged attached VIF
        self.cycles = []        # (step at start, completed with 3.0 calls)
        self.refusals = {}      # step -> count
        self.errors = []

    def req(self, method, path, body=None):
        return self.client.request(method, path, body, version=VERSION)

    def _refused(self, status, body):
        if is_refusal(status, body):
            step = self.client.step
            self.refusals[step] = self.refusals.get(step, 0) + 1
            return True
        return False

    def _retry(self, method, path, body=None, ok=(200, 202, 204),
               timeout=timeouts.HANG):
        """A request retried while the node is locked (409) or busy, for
        up to a hang's time (however long a loaded conductor holds it)."""
        deadline = time.monotonic() + timeout
        while True:
            status, resp = self.req(method, path, body)
            if status in ok or self._refused(status, resp):
                return status, resp
            if status not in (400, 409):
                self.errors.append('%s %s -> %s %s'
                                   % (method, path, status, resp))
                return status, resp
            if time.monotonic() > deadline:
                break
            time.sleep(POLL)
        self.errors.append('%s %s still %s after %ss: %s'
                           % (method, path, status, timeout, resp))
        return status, resp

    def _wait(self, state, timeout=timeouts.HANG):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            status, body = self.req('GET', '/v1/nodes/%s' % self.node)
            if status == 200 and body['provision_state'] == state \
                    and not body['target_provision_state']:
                return True
            if status == 200 and body['provision_state'] == 'deploy failed':
                # Its conductor died mid-deploy (tests/ha): what Nova
                # does then is the cycle's (_undo_failed_deploy).
                self.errors.append('node %s deploy failed: %s' % (
                    self.node, body['last_error']))
                return False
            time.sleep(POLL)
        self.errors.append('node %s not %s in %ss' % (self.node, state,
                                                      timeout))
        return False

    def _provision(self, target, state, **extra):
        status, _ = self._retry('PUT', '/v1/nodes/%s/states/provision'
                                % self.node, dict(extra, target=target))
        return status == 202 and self._wait(state)

    def setup(self):
        status, body = self.req('POST', '/v1/nodes', {
            'driver': 'fake-hardware', 'shard': self.shard,
            'name': 'compute-node-%d' % self.index,
            'resource_class': 'baremetal'})
        assert status == 201, (status, body)
        self.node = body['uuid']
        status, body = self.req('POST', '/v1/ports', {
            'node_uuid': self.node, 'physical_network': 'physnet1',
            'address': '52:54:00:cc:00:%02x' % self.index,
            'local_link_connection': {'switch_id': '0a:1b:2c:3d:4e:5f',
                                      'port_id': 'Eth1/%d' % self.index}})
        assert status == 201, (status, body)
        assert self._provision('manage', 'manageable')
        assert self._provision('provide', 'available')

    def _clean_up(self, found):
        """The node still carries an instance of an earlier cycle that
        failed (its claim, or a step after it, was applied though its
        answer was an error, as when the database fails over): as Nova
        does for an instance it failed to build, undeploy the node when
        it was deployed, and unclaim it.  True when it is free again."""
        node = '/v1/nodes/%s' % self.node
        if found.get('provision_state') in ('active', 'deploy failed') and \
                not self._provision('deleted', 'available'):
            return False
        status, _ = self._retry('PATCH', node, [
            {'op': 'remove', 'path': '/instance_uuid'}])
        return status == 200

    def cycle(self, n):
        """One instance's life; True when every 3.0 call was served."""
        node = '/v1/nodes/%s' % self.node
        served = True
        status, body = self.req(
            'GET', '/v1/nodes?shard=%s&fields=%s' % (self.shard,
                                                     NOVA_FIELDS))
        if status != 200 or [n['uuid'] for n in body['nodes']] != [
                self.node]:
            self.errors.append('shard list %s -> %s %s'
                               % (self.shard, status, body))
            return False
        if body['nodes'][0].get('instance_uuid') and not self._clean_up(
                body['nodes'][0]):
            return False
        instance = str(uuidlib.uuid4())
        status, _ = self._retry('PATCH', node, [
            {'op': 'add', 'path': '/instance_uuid', 'value': instance},
            {'op': 'add', 'path': '/instance_info',
             'value': {'image_source': 'http://images/%d' % n}}])
        if status != 200:
            return False
        traits = ['CUSTOM_CYCLE_%d' % n, 'HW_CPU_X86_AVX2']
        status, body = self._retry('PUT', node + '/traits',
                                   {'traits': traits})
        if status == 204:
            self.traits = sorted(traits)
        served &= status == 204
        if self.vif:
            # The last cycle's detach was refused (a 2.0 API has no
            # /vifs, or a pinned 3.0 API answered 409): the VIF is still
            # on the node's only port, so unplug it first, as Nova does
            # when it cleans up an instance's networks.
            status, _ = self._retry('DELETE', node + '/vifs/' + self.vif)
            if status == 204:
                self.vif = None
        vif = 'vif-%d-%d' % (self.index, n)
        if self.vif:
            # Refused again: the port is still taken, an attach would be
            # 400 (no free port).  This cycle goes without a new VIF.
            served = False
        else:
            status, body = self._retry('POST', node + '/vifs', {'id': vif})
            if status == 204:
                self.vif = vif
            served &= status == 204
        status, body = self._retry('GET', node + '/validate', ok=(200,))
        served &= status == 200
        if not self._provision('active', 'active', configdrive='H4sI'):
            self._undo_failed_deploy(vif)
            return False
        if not (self._retry('PUT', node + '/states/power',
                            {'target': 'rebooting'})[0] == 202
                and self._provision('deleted', 'available')):
            return False
        if self.volume:
            # Nova's _cleanup_deploy: the instance's volume targets first
            # (a 404 there made Nova leak the node before release 4.0).
            status, _ = self._retry(
                'GET', '/v1/volume/targets?node=%s&detail=True' % self.node,
                ok=(200,))
            served &= status == 200
        if self.vif == vif:
            status, _ = self._retry('DELETE', node + '/vifs/' + vif)
            if status == 204:
                self.vif = None
        status, _ = self._retry('PATCH', node, [
            {'op': 'remove', 'path': '/instance_uuid'},
            {'op': 'remove', 'path': '/instance_info'}])
        return status == 200 and served

    def _undo_failed_deploy(self, vif):
        """As Nova after a failed build: the node torn down (once its
        deploy, if it began, has ended), the VIF unplugged, the node
        unclaimed; the next cycle claims it again."""
        status, body = self.req('GET', '/v1/nodes/%s' % self.node)
        if status != 200:
            return
        if body['provision_state'] != 'available' or \
                body['target_provision_state']:
            self._wait('active')    # or deploy failed
            self._provision('deleted', 'available')
        if self.vif == vif:
            status, _ = self._retry('DELETE', '/v1/nodes/%s/vifs/%s'
                                    % (self.node, vif))
            if status == 204:
                self.vif = None
        self._retry('PATCH', '/v1/nodes/%s' % self.node, [
            {'op': 'remove', 'path': '/instance_uuid'},
            {'op': 'remove', 'path': '/instance_info'}])

    def verify(self):
        problems = []
        status, body = self.req('GET', '/v1/nodes/%s/traits' % self.node)
        if status == 200 and self.traits is not None and \
                sorted(body['traits']) != self.traits:
            problems.append('node %s traits %s, acknowledged %s'
                            % (self.node, body['traits'], self.traits))
        status, body = self.req('GET', '/v1/nodes/%s/vifs' % self.node)
        if status == 200:
            found = [v['id'] for v in body['vifs']]
            if found != ([self.vif] if self.vif else []):
                problems.append('node %s VIFs %s, acknowledged %s'
                                % (self.node, found, self.vif))
        return problems


class Consumers(object):
    """One compute thread per shard, and the ``others`` (consumers with
    the same setup/cycle/verify interface, e.g. ``metalsmith.py``'s)."""

    def __init__(self, client, shards=('compute-a', 'compute-b'),
                 volume=False, others=()):
        self.computes = [Compute(client, shard, i + 1, volume)
                         for i, shard in enumerate(shards)] + list(others)
        self._stop = threading.Event()
        self._threads = []
        self.timings = []       # (consumer class, step, ok, seconds)

    # Bounds of a consumer's loop: MAX_DONE cycles that did their work,
    # and MAX_TRIED in all (a guard against a runaway loop).  Refused
    # cycles (a pinned or old API) do not count towards MAX_DONE: on a busy
    # machine the pinned steps last long, and a consumer that had used up
    # its cycles by then would never show its unpinned ones.
    MAX_DONE = 500
    MAX_TRIED = 20000

    def _run(self, compute):
        n = done = 0
        while (not self._stop.is_set() and done < self.MAX_DONE and
               n < self.MAX_TRIED):
            n += 1
            step = compute.client.step
            began = time.monotonic()
            ok = compute.cycle(n)
            compute.cycles.append((step, ok))
            self.timings.append((type(compute).__name__, step, ok,
                                 time.monotonic() - began))
            done += bool(ok)
            self._stop.wait(CYCLE_PAUSE)

    def start(self):
        for compute in self.computes:
            compute.setup()
        for compute in self.computes:
            thread = threading.Thread(target=self._run, args=(compute,),
                                      daemon=True)
            thread.start()
            self._threads.append(thread)

    def timing_table(self):
        """Per consumer and step: cycles (served/all) and seconds."""
        rows = {}
        for kind, step, ok, seconds in list(self.timings):
            row = rows.setdefault((kind, step), [0, 0, 0.0])
            row[0] += bool(ok)
            row[1] += 1
            row[2] += seconds
        return '\n'.join('%-18s %-9s %3d/%-3d cycles %7.1f s' % (
            kind, step, ok, n, seconds)
            for (kind, step), (ok, n, seconds) in sorted(rows.items()))

    def full_cycles_since(self, steps):
        """Cycles begun at one of ``steps`` that got every 3.0 call."""
        return min(sum(1 for step, ok in c.cycles if step in steps and ok)
                   for c in self.computes)

    def finish(self):
        """Start no new cycle (each ends the one it is in); ``stop``
        then waits for them."""
        self._stop.set()

    def stop(self):
        self._stop.set()
        for thread in self._threads:
            thread.join(timeouts.HANG)

    def errors(self):
        return [e for c in self.computes for e in c.errors]

    def refusals(self):
        found = {}
        for c in self.computes:
            for step, count in c.refusals.items():
                found[step] = found.get(step, 0) + count
        return found

    def verify(self):
        return [p for c in self.computes for p in c.verify()]
