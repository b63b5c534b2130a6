"""The HA tests' runner: a steady load, one kill, a ledger checked after.

``run(cluster, kill, name)`` puts the consumer load of the upgrade tests
on ``cluster`` (tests/upgrade/workload.py's operators creating, patching,
deploying and undeploying nodes and walking ports, and, unless
``computes=False``, a "compute" per shard of tests/upgrade/consumers.py),
calls ``kill()`` (which may return notes for the figures line, a
dict) once the load has made ``before`` requests, waits until
a write that needs a conductor (a node create, through RPC) succeeds
again (and ``recovered()`` holds, when given) and the load has made
``after`` more requests.  Each event of ``then`` (``(step, event)``:
the killed member's return, say) is a phase of its own, run and
measured the same way.  Then it settles and checks the ledger:

- *acknowledged writes*: requests that wrote (POST/PUT/PATCH/DELETE) and
  got a 2xx;
- *lost*: acknowledged writes not found afterwards (Workload.verify and
  the computes' verify).  A port or port group whose DELETE was answered
  404 is gone, not lost: only the workload deletes them, so the request
  deleted it, lost its answer with its connection and found nothing
  left when run again (``retry_on_db_errors``); counted as
  ``deleted_answered_404``;
- *duplicated*: a node create carries a token of its own in ``extra``: a
  token found on more than one node was applied twice; a create carried
  out though its answer was an error, and a node holding the value of a
  PATCH sent after its last acknowledged one and answered with a 5xx or
  not at all ("may have been carried out"), are counted
  (``applied_unacknowledged``), neither lost nor duplicated;
- *stranded*: nodes left in a state a conductor must move them out of
  (deploying, cleaning, deleting, ...) with no conductor holding them,
  once the cluster has settled (no node locked or in a transitional
  state, waited for with a hang's bound);
- *errors by status*: every answer >= 400; each 5xx must be a retry-safe
  503 (tests/faults/cluster.py: ``retry_safe``), each 4xx one the
  workload expects (400, 409; 404 to a DELETE), no body may carry a
  traceback, a path or SQL (``scan_error_bodies``), no request may go
  unanswered;
- *recovery seconds*: from the kill (or the phase's event) to the end of
  the last failed request (a 5xx or no answer) begun in its phase, 0
  when none failed; ``first_write_s``: from the kill until the probe's
  node create succeeded.  Printed, never asserted (tests/timeouts.py).

``cluster`` is a tests/faults/cluster.py ``Cluster`` (or alike: a
``client`` wrapped by ``watch``, ``sql`` to the database directly).
Each scenario prints one ``HA figures`` line.  ``start_services``
starts a deployment's processes side by side, ``kill_services`` ends
them once the checks are done.
"""

from concurrent import futures
import json
import threading
import time
import uuid

from ironic_lite.common import states
from tests.faults import cluster as cluster_mod
from tests.functional import procs
from tests import timeouts
from tests.upgrade import consumers as consumers_mod
from tests.upgrade import workload

# Requests of the load before the kill, and after requests succeed again.
BEFORE = 40
AFTER = 40
WRITES = ('POST', 'PUT', 'PATCH', 'DELETE')


def start_services(deployment, release, conductors, apis):
    """dbsync, then every conductor and API of ``deployment`` side by
    side (each start mostly waits for its own process)."""
    deployment.dbsync(release, 'upgrade')
    jobs = [(label, 'conductor') for label in conductors] + [
        (label, 'api') for label in apis]
    with futures.ThreadPoolExecutor(len(jobs)) as pool:
        list(pool.map(lambda job: deployment.start(job[0], job[1], release),
                      jobs))


def kill_services(deployment):
    """kill -9 of every process of ``deployment`` still running: the
    scenario's checks are done, and a graceful stop of each (seconds,
    the conductors' deregistration) proves nothing here; its ``stop_all``
    then closes the logs and cleans the broker."""
    for service in deployment.services.values():
        if service.alive():
            service.proc.kill()
            service.proc.wait(timeouts.HANG)


def watch(client):
    """Record (start, end, method, path, status) of every request of
    ``client`` (a RoundRobinClient) in ``client.timeline``."""
    if hasattr(client, 'timeline'):
        return client
    client.timeline = []
    lock = threading.Lock()
    send = client.request

    def request(method, path, body=None, version=None, first=None):
        began = time.monotonic()
        status, parsed = send(method, path, body, version=version,
                              first=first)
        with lock:
            client.timeline.append((began, time.monotonic(), method, path,
                                    status))
        return status, parsed
    client.request = request
    return client


class TokenWorkload(workload.Workload):
    """The mixed workload, each node create carrying a token of its own
    (``extra.op``): a create applied twice shows as two nodes with one
    token."""

    def __init__(self, client, **kwargs):
        super().__init__(client, **kwargs)
        self.tokens = {}    # token -> uuid once acknowledged (else None)

    def create_node(self, name=None):
        token = uuid.uuid4().hex
        with self._lock:
            self.tokens[token] = None
        status, body = self.client.request(
            'POST', '/v1/nodes', {'driver': 'fake-hardware',
                                  'extra': {'k': 0, 'op': token}})
        if status == 201:
            with self._lock:
                self.nodes[body['uuid']] = {'k': 0}
                self.tokens[token] = body['uuid']
            return body['uuid']
        return None


def _expected_4xx(status, method):
    return status in workload.TOLERATED or (status == 404 and
                                            method == 'DELETE')


class Figures(object):
    FIELDS = ('requests', 'acknowledged', 'lost', 'duplicated', 'stranded',
              'recovery_s', 'errors')

    def __init__(self, name):
        self.name = name
        self.requests = self.acknowledged = 0
        self.lost = []
        self.duplicated = []
        self.stranded = []
        self.recovery_s = None
        self.errors = {}            # status -> count
        self.not_retry_safe = []
        self.unexpected_4xx = []
        self.leaks = []
        self.unanswered = []
        self.notes = {}
        self.phases = []            # (step, monotonic time of its event)

    def count(self, timeline, errors):
        """The figures of ``timeline`` (watch) and ``errors`` (error
        bodies) of a scenario whose phases began as ``self.phases``
        says (the kill's first)."""
        self.requests = len(timeline)
        self.acknowledged = sum(1 for _, _, method, _, status in timeline
                                if method in WRITES and status and
                                200 <= status < 300)
        ends = [t for _, t in self.phases[1:]] + [float('inf')]
        for (step, since), until in zip(self.phases, ends):
            failed = [end for began, end, _, _, status in timeline
                      if (status is None or status >= 500) and
                      end >= since and began < until]
            recovery = max(failed) - since if failed else 0.0
            self.notes['%s_failed' % step] = len(failed)
            if step == 'kill':
                self.recovery_s = recovery
            else:
                self.notes['%s_recovery_s' % step] = round(recovery, 1)
        killed_at = self.phases[0][1]
        self.notes['in_flight_at_kill'] = sum(
            1 for began, end, _, _, _ in timeline
            if began < killed_at < end)
        self.unanswered = [(m, p) for _, _, m, p, s in timeline if s is None]
        for status, method, path, raw in errors:
            self.errors[status] = self.errors.get(status, 0) + 1
            if status >= 500 and not cluster_mod.retry_safe(status,
                                                            _parsed(raw)):
                self.not_retry_safe.append((status, method, path,
                                            raw[:300]))
            if status < 500 and not _expected_4xx(status, method):
                self.unexpected_4xx.append((status, method, path,
                                            raw[:300]))
        self.leaks = cluster_mod.scan_error_bodies(errors)

    def line(self):
        parts = ['requests=%d' % self.requests,
                 'acknowledged=%d' % self.acknowledged,
                 'lost=%d' % len(self.lost),
                 'duplicated=%d' % len(self.duplicated),
                 'stranded=%d' % len(self.stranded),
                 'recovery_s=%.1f' % (self.recovery_s or 0.0),
                 'errors=%s' % json.dumps(self.errors, sort_keys=True)]
        parts += ['%s=%s' % item for item in sorted(self.notes.items())]
        return 'HA figures %s: %s' % (self.name, ' '.join(parts))

    def problems(self):
        found = []
        for label, items in (('lost', self.lost),
                             ('duplicated', self.duplicated),
                             ('stranded', self.stranded),
                             ('5xx not retry-safe', self.not_retry_safe),
                             ('4xx not expected', self.unexpected_4xx),
                             ('leaking bodies', self.leaks),
                             ('unanswered', self.unanswered)):
            if items:
                found.append('%s: %s' % (label, items[:10]))
        return found


def _stranded(cluster):
    stuck = states.STUCK_STATES_TREATED_AS_FAIL
    rows = cluster.sql(
        'SELECT uuid, provision_state, target_power_state FROM nodes '
        'WHERE reservation IS NULL')
    return [tuple(r) for r in rows
            if r[1] in stuck or r[2] is not None]


def _settled(cluster):
    """No node locked or in a state a conductor moves it out of."""
    unstable = states.UNSTABLE_STATES
    rows = cluster.sql('SELECT provision_state, reservation FROM nodes')
    return not any(r[1] or r[0] in unstable for r in rows)


def _tokens_found(cluster):
    """{token: nodes carrying it} of every node in the database."""
    found = {}
    for (extra,) in cluster.sql('SELECT extra FROM nodes'):
        if isinstance(extra, str):
            extra = json.loads(extra or '{}')
        token = (extra or {}).get('op')
        if token:
            found[token] = found.get(token, 0) + 1
    return found


def _deleted_answered_404(problems, timeline):
    """(lost, gone): the problems of ``verify`` but those of a port or
    port group whose DELETE was answered 404 (see the module's
    docstring), and those."""
    deleted = {path.rsplit('/', 1)[1] for _, _, method, path, status
               in timeline if method == 'DELETE' and status == 404}
    gone = [p for p in problems if p.split()[0] in ('ports', 'portgroups')
            and p.split()[1] in deleted]
    return [p for p in problems if p not in gone], gone


def _probe(client):
    """A write through a conductor (a node create is an RPC)."""
    status, body = client.request('POST', '/v1/nodes',
                                  {'driver': 'fake-hardware',
                                   'extra': {'probe': True}})
    return status == 201


def _phase(client, figures, step, event, count, recovered, back=None):
    """``event()`` at the start of phase ``step``, then until a write
    through a conductor succeeds again (``back()`` then, when given) and
    ``count`` more requests."""
    client.step = step
    began = time.monotonic()
    figures.phases.append((step, began))
    figures.notes.update(event() or {})
    figures.notes['%s_s' % step] = round(time.monotonic() - began, 1)
    procs.wait_for(lambda: (recovered is None or recovered()) and
                   _probe(client), interval=0.5,
                   what='a write through a conductor after %s' % step)
    key = 'first_write_s' if step == 'kill' else '%s_first_write_s' % step
    figures.notes[key] = round(time.monotonic() - began, 1)
    if back is not None:
        back()
    client.wait_for_results(step, count)


def run(cluster, kill, name, before=BEFORE, after=AFTER, computes=True,
        threads=3, pace=0.05, look=None, recovered=None, then=()):
    """Load, ``kill()``, recover, ``then``'s events, settle, check;
    returns the Figures (the caller asserts ``not figures.problems()``).
    ``look()``, when given, runs just before the kill, outside the
    recovery clock (e.g. to find the member to kill); the notes it
    returns (a dict) join the figures line, as do those ``kill()`` and
    the events return."""
    client = watch(cluster.client)
    figures = Figures(name)
    seen = len(client.timeline)
    bodies = len(client.error_bodies)
    load = TokenWorkload(client, threads=threads, nodes_per_thread=2,
                         pace=pace)
    computes = consumers_mod.Consumers(client) if computes else None
    client.step = 'before'
    try:
        load.start()
        if computes:
            computes.start()
        client.wait_for_results('before', before)
        figures.notes.update((look or dict)() or {})
        phases = [('kill', kill, recovered)] + [
            (step, event, None) for step, event in then]
        for step, event, until in phases:
            last = step == phases[-1][0]
            _phase(client, figures, step, event, after, until,
                   computes.finish if computes and last else None)
        load.pause()
        if computes:
            # Told to finish once the last phase's requests succeeded
            # again: each ends its cycle while the load runs on.
            computes.stop()
        procs.wait_for(lambda: _settled(cluster), interval=0.5,
                       timeout=timeouts.HANG,
                       what='no node locked or in a transitional state')
        # The load's figures end here: verify's reads (404s of what was
        # deleted) are not the load's.
        ends = len(client.timeline), len(client.error_bodies)
        figures.stranded = _stranded(cluster)
        figures.lost, gone = _deleted_answered_404(
            load.verify() + (computes.verify() if computes else []),
            client.timeline[seen:ends[0]])
        figures.notes['deleted_answered_404'] = len(gone)
        found = _tokens_found(cluster)
        figures.duplicated = sorted(t for t, n in found.items()
                                    if n > 1 and t in load.tokens)
        figures.notes['applied_unacknowledged'] = sum(
            1 for t, node in load.tokens.items()
            if node is None and t in found) + load.applied_unacknowledged
    finally:
        load.stop()
        if computes:
            computes.stop()
        client.step = 'setup'
    figures.count(client.timeline[seen:ends[0]],
                  client.error_bodies[bodies:ends[1]])
    print(figures.line())
    for status, method, path, raw in client.error_bodies[
            bodies:ends[1]][:20]:
        print('  %s %s -> %s %s' % (method, path, status, raw[:160]))
    return figures


def _parsed(raw):
    try:
        return json.loads(raw)
    except ValueError:
        return None
