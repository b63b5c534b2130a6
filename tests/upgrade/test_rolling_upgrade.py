"""Rolling upgrades between real releases, under load.

Each run (``conftest.rolling_upgrades()``) takes one hop with one
procedure on one backend: the newest cut release to this tree (manual on
PostgreSQL) and, skip-level, each older release the tree rolls from
(``rolls_from``: 4.0 to this tree, ``auto`` on MariaDB); with
``IRONIC_LITE_UPGRADE_HOPS=all`` each of them with both procedures on
both backends, and the hop into the newest cut release from the one
before it (both sides built from this repository's history, see
``releases.py``).
The old release's real code
runs two ``ironic-api`` and two ``ironic-conductor`` processes on RabbitMQ;
while a mixed workload and a "compute" per shard (``consumers.py``) run
through a round-robin "load balancer", the test walks the rolling-upgrade
spec's table one process at a time:

=======  ==========================  ==================================
step     ironic-api                  ironic-conductor
=======  ==========================  ==================================
0        all old                     all old
schema   (new ``ironic-dbsync upgrade`` while the old services run)
4.1      all old                     one new pinned to old, one old
4.2      all old                     all new pinned
5.1      one new pinned, one old     all new pinned
5.2      all new pinned              all new pinned
6.1      all new pinned              one new unpinned, one pinned
6.2      all new pinned              all new unpinned
6.3      one new unpinned, one pin.  all new unpinned
6.4      all new unpinned            all new unpinned
migrate  (new ``ironic-dbsync online_data_migrations --max-count``)
shards   (the shard API, microversion 1.82, through the upgraded API)
=======  ==========================  ==================================

At every step: no failed request (5xx, timeout, a connection error the
client could not route around), no acknowledged write lost, and up to
5.2 no row in an object version the old release cannot read; while any
API is old or pinned it announces the old release's maximum microversion
(and answers 406 to a newer one, when the new code has one); the new
code's ``ironic-status upgrade check`` names the step the deployment is
in.  A new service started unpinned while old ones run refuses to start.
After the online data migrations every row is at the new code's latest
object version and ``ironic-status upgrade check`` is clean.

In the hops into a release that adds the ``redfish`` hardware type
(``redfish.applies``), one sushy-tools emulator runs, the new conductors
enable ``redfish``, and a redfish client tries to enroll a node at every
step (``redfish.py``): refused (400 by an old API, 409 by a pinned or
capped one, nothing written) while the answering API has an older
release in force, else created, managed, powered on and off (and, once
all is unpinned, deployed through the virtual CD, the test playing the
agent) and deleted, each action by a conductor with the new release in
force; after each step the conductors table lists ``redfish`` for
exactly those conductors.

In the hops into a release whose API serves release 6.0's verbs
(``release6.applies``), a consumer tries them at every step
(``release6.py``): runbooks, servicing, virtual media and in-band
inspection with an inspection rule, each refused with 406 and nothing
written while the answering API has an older release in force, else
served end to end by conductors with the new release in force.

The ``auto`` procedure (``procedures.STEPS[AUTO]``): each process
restarted once on the new code with
``pin_release_version = auto``, conductors first; the caps rise by
themselves once the last old service is gone (step 5.2), with the same
checks at every step.
"""

from concurrent import futures
import re
import time

import pytest
import sqlalchemy as sa

from tests.functional import procs
from tests import timeouts
from tests.upgrade import conftest
from tests.upgrade import consumers as consumers_mod
from tests.upgrade import deployment
from tests.upgrade import metalsmith
from tests.upgrade import procedures
from tests.upgrade import redfish
from tests.upgrade import release6
from tests.upgrade.procedures import AUTO
from tests.upgrade import workload

# Seconds of load on each layout before it is checked (the hash rings are
# rebuilt every 2 s: see Deployment(ring_interval=2)), and the fewest
# requests answered on it meanwhile, however slow the machine.
SETTLE = 3
SETTLE_REQUESTS = 20
# Rows per "ironic-dbsync online_data_migrations --max-count" batch: at
# least BATCH, and a BATCHES-th of the rows behind, so that the test shows
# the batching in a few runs of the command (each a process start: a
# hundred runs of ten took a quarter of an hour on a loaded machine).
BATCH = 10
BATCHES = 4
SHARD_VERSION = '1.82'
IDLE_NODES = 12


def entry(name):
    """A release's entry of RELEASE_MAPPING ('master': this tree's).

    The entries of cut releases are frozen, and master's matches the
    tree's objects (tests/unit/common/test_release_mappings.py), so the
    mapping tells what either side of a hop speaks.
    """
    from ironic_lite.common import release_mappings
    return release_mappings.RELEASE_MAPPING[name]


def api_of(name):
    """A release's API microversion ('master': this tree's newest)."""
    from ironic_lite.api import microversions
    return entry(name).get('api', microversions.MAX_VERSION_STRING)


def latest_versions(new):
    """The object versions release ``new`` writes: {name: version}."""
    objects = entry(new)['objects']
    return {name: objects[name][0] for name in deployment.OBJECT_TABLES
            if name in objects}


def old_readable_problems(versions, old):
    """Rows at a version release ``old`` cannot read, as readable lines.

    Tables of objects the old release does not have (e.g. services, new
    in 3.0) are never read by it.
    """
    known = entry(old)['objects']
    problems = []
    for name, counts in sorted(versions.items()):
        if name not in known:
            continue
        for ver, count in counts.items():
            if ver not in known[name]:
                problems.append('%d %s row(s) at version %r; release %s '
                                'reads %s' % (count, name, ver, old,
                                              known[name]))
    return problems


def shard_values(db_url, leave_out=()):
    """{node uuid: shard} of the nodes not in ``leave_out``."""
    engine = sa.create_engine(db_url)
    try:
        with engine.connect() as conn:
            return {uuid: shard for uuid, shard in conn.execute(sa.text(
                'SELECT uuid, shard FROM nodes')) if uuid not in leave_out}
    finally:
        engine.dispose()


class Upgrade(object):
    """The deployment, the workload and the step table, walked together."""

    def __init__(self, dep, client, load, old, new, hop):
        self.dep, self.client, self.load = dep, client, load
        self.old, self.new = old, new
        # The mapping names of the two sides ('master': this tree).
        self.old_name, self.new_name = hop
        self.steps = []
        self.status_log = []
        self.expected = {}      # step -> (exit code, step label)
        self.status_runner = futures.ThreadPoolExecutor(1)
        # Called with the step after each step's checks passed.
        self.hooks = []

    def table(self):
        return workload.format_table(workload.step_table(
            self.client.results, self.steps))

    def begin(self, step):
        """Requests from now on count for ``step``."""
        self.client.step = step
        self.steps.append((step, self.dep.describe(), 0.0))
        self._began = time.monotonic()

    def _record_layout(self):
        step = self.steps[-1][0]
        self.steps[-1] = (step, self.dep.describe(),
                          time.monotonic() - self._began)

    def check(self, old_readable=True):
        """Load for SETTLE s -- and SETTLE_REQUESTS requests at least --
        on the step's layout, then assert it held.

        The new code's ``ironic-status upgrade check`` runs meanwhile: the
        layout it assesses is in place (every process of the step has
        started and registered) and stays so until the next step.
        """
        step = self.client.step
        self._record_layout()
        status = self._status_of(step)
        time.sleep(SETTLE)
        self.client.wait_for_results(step, SETTLE_REQUESTS)
        self.load.pause()
        try:
            problems = self.load.verify()
            failures = [r.error for r in self.client.results
                        if r.step == step and r.failed]
            versions = self.dep.row_versions()
            self.check_apis()
        finally:
            self.load.resume()
        self._record_layout()
        result = status.result() if status is not None else None
        assert not failures, 'step %s: %d failed requests:\n%s\n%s' % (
            step, len(failures), '\n'.join(failures[:20]), self.table())
        assert not problems, 'step %s: lost writes:\n%s' % (
            step, '\n'.join(problems[:20]))
        if old_readable:
            bad = old_readable_problems(versions, self.old_name)
            assert not bad, ('step %s: rows release %s cannot read before '
                             'step 6.1:\n%s' % (step, self.old_name,
                                                '\n'.join(bad)))
        if result is not None:
            self.check_status(step, result)
        for hook in self.hooks:
            hook(step)
        return versions

    def _status_of(self, step):
        """The new ironic-status's run for ``step``, started in the
        background (None when the step expects nothing of it)."""
        if step not in self.expected:
            return None
        return self.status_runner.submit(self.dep.status, self.new)

    def check_status(self, step, result):
        """The new ironic-status names the step; recorded for the log."""
        text = upgrade_state_text(result.stdout)
        self.status_log.append('after step %s: exit %s\n  %s'
                               % (step, result.returncode, text))
        code, label = self.expected[step]
        found = re.match(r'Step: ([^:]+):', text)
        assert found and (result.returncode, found.group(1)) == (
            with_shard_warning(code, result.stdout), label), (
            step, result.stdout, result.stderr)

    def check_apis(self):
        """Old and pinned APIs speak the old API; unpinned ones the new."""
        nodes = sorted(self.load.nodes)
        assert nodes, 'the workload created no node:\n%s' % self.table()
        node = nodes[0]
        for label in self.dep.api_labels():
            _, release, pin = self.dep.layout[label]
            base = self.dep.api_url(label)
            status, headers, body = procs.http('GET', base + '/',
                                               version=None)
            assert status == 200, (label, status, body)
            announced = body['default_version']['version']
            old_api = release == self.old.name or (pin and (
                pin != AUTO or self.old_alive()))
            old_max = api_of(self.old_name)
            new_max = api_of(self.new_name)
            expected = old_max if old_api else new_max
            assert announced == expected, (
                '%s (%s, pin %s) announces API %s, expected %s'
                % (label, release, pin, announced, expected))
            if old_api and old_max != new_max:
                # A request newer than the old API is refused before it
                # reaches anything.
                status, _, body = procs.http(
                    'GET', '%s/v1/nodes/%s' % (base, node),
                    version=new_max)
                assert status == 406, (
                    '%s (%s, pin %s): a %s request got %s, not 406: %s'
                    % (label, release, pin, new_max, status, body))

    def old_alive(self):
        return any(release == self.old.name
                   for _, release, _ in self.dep.layout.values())

    def restart(self, step, label, release, pin=None):
        """Restart one process; an API is drained from the client first.

        Operators take an API out of the load balancer before stopping it
        (release 1.0's graceful stop could reset a connection it had
        accepted; since 2.0 the stop drains the backlog, tested with no
        draining in tests/functional/test_rolling_restart.py).
        """
        self.begin(step)
        api = self.dep.layout[label][0] == 'api'
        if api:
            self.client.drain(self.dep.api_url(label))
        self.dep.restart(label, release, pin)
        if api:
            self.client.undrain(self.dep.api_url(label))
        risen = pin == AUTO and not self.old_alive()
        if risen:
            # No old service left: the auto caps rise by themselves.
            procs.wait_for(lambda: not procedures.pinned_rows(
                self.dep.db_url),
                           what='every auto service uncapped')
        return self.check(old_readable=step < '6.1' and not risen)


# Steps begun with every service on the new release unpinned: no refusal.
UNPINNED_STEPS = {'consumers', 'migrate', 'shards'}


def wait_for_full_cycles(computes, up, timeout=timeouts.HANG):
    """Each compute completes a cycle begun unpinned, with every 3.0 call
    (traits, VIF, validate) served."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if computes.full_cycles_since(UNPINNED_STEPS) >= 1:
            return up.check(old_readable=False)
        assert not computes.errors(), '\n'.join(computes.errors()[:20])
        time.sleep(0.5)
    raise AssertionError('no compute cycle completed unpinned in %ss: %s'
                         '\n%s' % (timeout,
                                   [c.cycles[-5:] for c in computes.computes],
                                   '\n'.join(computes.errors()[:20])))


def migrate_online(dep, release, batch=BATCH):
    """Run online data migrations in --max-count batches until done."""
    runs = []
    for _ in range(500):
        result = dep.dbsync(release, 'online_data_migrations',
                            '--max-count', str(batch), check=False)
        runs.append(result.returncode)
        if result.returncode == 0:
            return runs, result.stdout
        assert result.returncode == 1, (
            'online_data_migrations exited %s:\n%s\n%s'
            % (result.returncode, result.stdout, result.stderr))
    raise AssertionError('online_data_migrations did not finish in %d '
                         'batches' % len(runs))


def use_shards(dep, client, load):
    """The shard API (2.0) through the fully upgraded deployment."""
    node = sorted(load.nodes)[0]
    patch = [{'op': 'add', 'path': '/shard', 'value': 'shard-a'}]
    deadline = time.monotonic() + timeouts.HANG
    while True:
        status, body = client.request('PATCH', '/v1/nodes/%s' % node, patch,
                                      version=SHARD_VERSION)
        # 409: a conductor holds the node; retried for a hang's time.
        if status != 409 or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert status == 200, ('PATCH shard at %s -> %s %s'
                           % (SHARD_VERSION, status, body))
    assert body['shard'] == 'shard-a', body
    status, body = client.request('GET', '/v1/shards', version=SHARD_VERSION)
    assert status == 200, (status, body)
    assert {'name': 'shard-a', 'count': 1} in body['shards'], body
    status, body = client.request('GET', '/v1/nodes?shard=shard-a',
                                  version=SHARD_VERSION)
    assert status == 200, (status, body)
    assert [n['uuid'] for n in body['nodes']] == [node], body
    assert shard_values(dep.db_url)[node] == 'shard-a'
    return node


@pytest.mark.long(220)
@pytest.mark.parametrize('old_name,new_name,backend,procedure',
                         procedures.runs(), ids=lambda value: value)
def test_rolling_upgrade(request, old_name, new_name, backend, procedure,
                         tmp_path, rabbit_url):
    db_url = request.getfixturevalue('%s_url' % backend)
    old, new = conftest.release(old_name), conftest.release(new_name)
    began = time.monotonic()
    dep = deployment.Deployment(str(tmp_path), db_url, rabbit_url)
    if procedure == AUTO:
        # Heartbeats (and so the auto caps' re-reads) every second.
        dep.EXTRA_CONFIG = {'DEFAULT': {'report_interval': 1}}
    client = workload.RoundRobinClient(dep.api_urls)
    # A steady load of a few hundred requests per step rather than all
    # the CPU it can take from the processes being restarted (at 0.05 s,
    # with the consumers, a hop took a core for a quarter of an hour).
    load = workload.Workload(client, threads=2, pace=0.2)
    up = Upgrade(dep, client, load, old, new, (old_name, new_name))
    # From release 4.0: Nova's volume lookups, and a metalsmith-style
    # consumer (allocations, deploy templates, volume connectors).
    fours = metalsmith.applies(entry(new_name))
    others = [metalsmith.Metalsmith(client)] if fours else []
    # From release 5.0: redfish nodes, served by one emulator.
    rf = redfish.applies(old_name, new_name)
    emulator = redfish.start_bmc(str(tmp_path / 'bmc')) if rf else None
    rf_consumer = six = None
    if rf:
        rf_consumer = redfish.consumer(dep, up, client, emulator, old,
                                       UNPINNED_STEPS)
        others.append(rf_consumer)
    # From release 6.0 (API 1.87 and newer): runbooks, servicing, virtual
    # media and in-band inspection (after redfish.consumer: see
    # release6.consumer).
    if release6.applies(api_of(new_name)):
        six = release6.consumer(dep, up, client, old, api_of(old_name),
                                UNPINNED_STEPS)
        others.append(six)
    computes = consumers_mod.Consumers(client, volume=fours, others=others)
    latest = latest_versions(new_name)
    background = futures.ThreadPoolExecutor(1)
    try:
        # -- 0: the old release everywhere ---------------------------------
        dep.dbsync(old, 'upgrade')
        refusal = background.submit(redfish.old_conductor_refuses, dep,
                                    old) if rf else None
        up.expected = expected_status(schema_moves(db_url, new), old_name,
                                      new_name, procedure)
        up.begin('0')
        for label in ('conductor-1', 'conductor-2'):
            dep.start(label, 'conductor', old)
        for label in ('api-1', 'api-2'):
            dep.start(label, 'api', old)
        load.start()
        computes.start()
        # The computes' nodes are sharded; the workload's never are.
        theirs = {c.node for c in computes.computes}
        status, chassis = client.request('POST', '/v1/chassis',
                                         {'description': 'rack 1'})
        assert status == 201, (status, chassis)
        # Nodes nobody touches again: still at the old Node version when
        # the online data migrations run (in --max-count batches).
        for _ in range(IDLE_NODES):
            assert load.create_node(), client.results[-1].error
        up.check()
        if refusal is not None:
            refusal.result()

        # -- 2: the new schema under the running old services -------------
        up.begin('schema')
        dep.dbsync(new, 'upgrade')
        up.check()
        assert set(shard_values(db_url, theirs).values()) <= {None}
        refused_unpinned_start(dep, new, old_name)

        # -- 4, 5: new code, pinned (or auto); conductors first, then
        # APIs.  6: unpin; conductors first (6.1 before 6.3: an unpinned
        # API may send new objects only once every conductor writes them).
        steps = procedures.STEPS[procedure]
        for step, label, pin in steps:
            up.restart(step, label, new, old_name if pin is True else pin)
            if step == '5.2':
                assert set(shard_values(db_url, theirs).values()) <= {None}
        if procedure == AUTO:
            procedures.auto_reported(up.status_log, old_name)
        # -- every compute completes an instance's life, unpinned ---------
        up.begin('consumers')
        wait_for_full_cycles(computes, up)

        # -- 7: online data migrations, in batches, under load ------------
        up.begin('migrate')
        load.pause()
        before = deployment_pending(dep, latest)
        # Before the migrations, rows behind the latest version only warn.
        pre_status = dep.status(new)
        assert pre_status.returncode == with_shard_warning(
            1 if before else 0, pre_status.stdout), (
            pre_status.stdout, pre_status.stderr)
        load.resume()
        behind = sum(before.values())
        batch = max(BATCH, -(-behind // BATCHES))
        runs, report = migrate_online(dep, new, batch)
        print('online_data_migrations: %d rows behind, %d run(s) of '
              '--max-count %d (exit codes %s)\n%s'
              % (behind, len(runs), batch, runs, report))
        if behind > batch:
            assert len(runs) >= 2, (before, runs)
        versions = up.check(old_readable=False)
        behind = {name: {v: c for v, c in counts.items()
                         if v != latest[name]}
                  for name, counts in versions.items()}
        assert not any(behind.values()), (
            'rows not at the latest version after the online data '
            'migrations: %s (latest %s)' % (behind, latest))
        status = dep.status(new)
        assert status.returncode == with_shard_warning(0, status.stdout), (
            'ironic-status upgrade check exited %s:\n%s\n%s'
            % (status.returncode, status.stdout, status.stderr))
        assert set(check_results(status.stdout).values()) <= {
            'Success', 'Warning'}, status.stdout

        # -- the shard API through the upgraded deployment ----------------
        up.begin('shards')
        use_shards(dep, client, load)
        up.check(old_readable=False)
        load.stop()
        computes.stop()
        problems = load.verify() + computes.verify()
    finally:
        load.stop()
        computes.stop()
        up.status_runner.shutdown()
        background.shutdown()
        dep.stop_all()
        if emulator is not None:
            redfish.stop_bmc(emulator)
        print('\nRolling upgrade %s -> %s on %s (%.0f s)\n%s\n\n'
              'Consumers\' cycles by step:\n%s\n\n'
              'ironic-status upgrade check (new code), Upgrade state:\n%s'
              % (old.name, new.name, backend, time.monotonic() - began,
                 up.table(), computes.timing_table(),
                 '\n'.join(up.status_log)))
    # Both together: a consumer's error often explains what it left behind.
    problems += computes.errors()[:20]
    assert not problems, '\n'.join(problems)
    print('Documented refusals by step: %s' % computes.refusals())
    if rf:
        redfish.check_consumer(rf_consumer, up)
    if six is not None:
        release6.check_consumer(six)
    late = set(computes.refusals()) & UNPINNED_STEPS
    assert not late, ('refusals after every API was unpinned: %s'
                      % computes.refusals())
    failures = [r.error for r in client.results if r.failed]
    assert not failures, '%d failed requests:\n%s' % (
        len(failures), '\n'.join(failures[:20]))
    assert len(client.results) > 200, up.table()


def objects_moved(old, new):
    """Whether release ``new`` writes an object version ``old`` does not:
    then the old release's rows wait for online_data_migrations.  (Not
    the services' rows, nor the conductors': each service rewrites its
    own when restarted.)"""
    known = entry(old)['objects']
    return any(versions[0] not in known[name]
               for name, versions in entry(new)['objects'].items()
               if name in known and name not in ('Service', 'Conductor'))


def schema_moves(db_url, new):
    """Whether release ``new`` has migrations the database has not run."""
    head = procs.run_command(
        new.command('python'), '-c',
        'from ironic_lite.db import migration; print(migration.head())'
    ).stdout.strip()
    engine = sa.create_engine(db_url)
    try:
        with engine.connect() as conn:
            revision = conn.execute(sa.text(
                'SELECT version_num FROM alembic_version')).scalar()
    finally:
        engine.dispose()
    return revision != head


def expected_status(migrations_to_run, old, new, procedure='manual'):
    """Step -> (exit code, "Step: ..." label) of the new code's
    "ironic-status upgrade check" after that step.

    A release before 3.0 does not report its services: its conductors are
    seen in the conductors table, its APIs not at all -- so from 4.2 to
    5.2 the new code cannot tell whether an old API still runs ("5":
    upgrade any API still on the old release, then unpin the conductors).
    When the new code writes object versions the old release does not,
    the rows the old release wrote wait for online_data_migrations (step
    7) until the "migrate" step.
    """
    reports = conftest.old_reports(old)
    settled = (1, '7') if objects_moved(old, new) else (0, 'done')
    if procedure == AUTO:
        return procedures.auto_expected(migrations_to_run, settled)
    return {
        # Before "ironic-dbsync upgrade": the schema check warns when
        # there is a migration to run (the expected state, not unsafe).
        '0': (1, '0') if migrations_to_run else (1, '2'),
        'schema': (1, '2'),
        '4.1': (1, '4'),
        '4.2': (1, '5'),
        '5.1': (1, '5'),
        '5.2': (1, '5.2' if reports else '5'),
        '6.1': (1, '6.1'),
        '6.2': (1, '6.3'),
        '6.3': (1, '6.3'),
        '6.4': settled,
        'migrate': (0, 'done'),
    }


# oslo.upgradecheck's results; the exit code is the worst of them.
RESULT_CODES = {'Success': 0, 'Warning': 1, 'Failure': 2}


def check_results(stdout):
    """{check name: result} of an "ironic-status upgrade check" table."""
    text = procs.unwrap_table(stdout)
    return dict(re.findall(r'Check: (.+?) Result: (\w+) Details:', text))


def with_shard_warning(code, stdout):
    """The exit code expected from the upgrade state's ``code``.

    The computes shard their nodes and the workload's nodes have none, so
    the "Node shards" check rightly warns (mixed sharded and unsharded
    nodes): that warning, and only that one, may raise the exit code.
    """
    shards = check_results(stdout).get('Node shards')
    assert shards in ('Success', 'Warning'), stdout
    return max(code, RESULT_CODES[shards])


def upgrade_state_text(stdout):
    """The details of the "Upgrade state" check, unwrapped."""
    text = procs.unwrap_table(stdout)
    found = re.search(r'Check: Upgrade state Result: \w+ Details: (.*?)'
                      r'(?: Check: |$)', text)
    assert found, stdout
    return found.group(1)


def refused_unpinned_start(dep, new, old):
    """A new conductor started unpinned while old ones run refuses."""
    output = dep.start_refused('conductor-unpinned', 'conductor', new)
    assert conftest.old_conductor_named('conductor-1', old) in output, output


def deployment_pending(dep, latest):
    """{object name: rows not at the latest version}."""
    pending = {}
    for name, counts in dep.row_versions().items():
        behind = sum(c for v, c in counts.items() if v != latest[name])
        if behind:
            pending[name] = behind
    return pending
