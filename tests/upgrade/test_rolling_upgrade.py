"""The rolling upgrade from release 1.0 to this tree, under load.

Release 1.0's real code (built from this repository's history, see
``releases.py``) runs two ``ironic-api`` and two ``ironic-conductor``
processes on RabbitMQ and PostgreSQL -- and, in a second run, MariaDB.
While a mixed workload runs through a round-robin "load balancer", the
test walks the rolling-upgrade spec's table one process at a time:

=======  ==========================  ==================================
step     ironic-api                  ironic-conductor
=======  ==========================  ==================================
0        all 1.0                     all 1.0
schema   (new ``ironic-dbsync upgrade`` while 1.0 services run)
4.1      all 1.0                     one new pinned to 1.0, one 1.0
4.2      all 1.0                     all new pinned
5.1      one new pinned, one 1.0     all new pinned
5.2      all new pinned              all new pinned
6.1      all new pinned              one new unpinned, one pinned
6.2      all new pinned              all new unpinned
6.3      one new unpinned, one pin.  all new unpinned
6.4      all new unpinned            all new unpinned
migrate  (new ``ironic-dbsync online_data_migrations --max-count``)
shards   (2.0's shard API, microversion 1.82, through the upgraded API)
=======  ==========================  ==================================

At every step: no failed request (5xx, timeout, a connection error the
client could not route around), no acknowledged write lost, and up to
5.2 no row in an object version release 1.0 cannot read; while any API is
old or pinned it announces 1.0's maximum microversion and answers 406 to
a 2.0 request.  After the online data migrations every row is at the
new code's latest object version and ``ironic-status upgrade check`` is
clean.
"""

import time

import pytest
import sqlalchemy as sa

from tests.functional import procs
from tests.upgrade import deployment
from tests.upgrade import workload

OLD_PIN = '1.0'
# Seconds of load on each layout before it is checked (the hash rings are
# rebuilt every 2 s: see Deployment(ring_interval=2)).
SETTLE = 4
# Rows per "ironic-dbsync online_data_migrations --max-count" batch: small,
# so that the test shows the batching.
BATCH = 5
SHARD_VERSION = '1.82'
IDLE_NODES = 12


def frozen_1_0():
    """Release 1.0's entry of RELEASE_MAPPING (frozen when it was cut)."""
    from ironic_lite.common import release_mappings
    return release_mappings.RELEASE_MAPPING['1.0']


def latest_versions():
    """The new code's object versions: {name: VERSION}."""
    from ironic_lite import objects
    objects.register_all()
    return {name: getattr(objects, name).VERSION
            for name in deployment.OBJECT_TABLES}


def new_api_max():
    from ironic_lite.common import release_mappings
    return release_mappings.RELEASE_MAPPING['master']['api']


def old_readable_problems(versions):
    """Rows at a version release 1.0 cannot read, as readable lines."""
    known = frozen_1_0()['objects']
    problems = []
    for name, counts in sorted(versions.items()):
        for ver, count in counts.items():
            if ver not in known[name]:
                problems.append('%d %s row(s) at version %r; release 1.0 '
                                'reads %s' % (count, name, ver, known[name]))
    return problems


def shard_values(db_url):
    engine = sa.create_engine(db_url)
    try:
        with engine.connect() as conn:
            return {uuid: shard for uuid, shard in conn.execute(sa.text(
                'SELECT uuid, shard FROM nodes'))}
    finally:
        engine.dispose()


class Upgrade(object):
    """The deployment, the workload and the step table, walked together."""

    def __init__(self, dep, client, load, old, new):
        self.dep, self.client, self.load = dep, client, load
        self.old, self.new = old, new
        self.steps = []

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
        """Load for SETTLE s on the step's layout, then assert it held."""
        step = self.client.step
        self._record_layout()
        time.sleep(SETTLE)
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
        assert not failures, 'step %s: %d failed requests:\n%s\n%s' % (
            step, len(failures), '\n'.join(failures[:20]), self.table())
        assert not problems, 'step %s: lost writes:\n%s' % (
            step, '\n'.join(problems[:20]))
        if old_readable:
            bad = old_readable_problems(versions)
            assert not bad, ('step %s: rows release 1.0 cannot read before '
                             'step 6.1:\n%s' % (step, '\n'.join(bad)))
        return versions

    def check_apis(self):
        """Old and pinned APIs speak 1.0's API; unpinned ones the new."""
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
            if release == self.old.name or pin:
                expected = frozen_1_0()['api']
            else:
                expected = new_api_max()
            assert announced == expected, (
                '%s (%s, pin %s) announces API %s, expected %s'
                % (label, release, pin, announced, expected))
            if release == self.old.name or pin:
                # A 2.0 request is refused before it reaches anything.
                status, _, body = procs.http(
                    'PATCH', '%s/v1/nodes/%s' % (base, node),
                    [{'op': 'add', 'path': '/shard', 'value': 'early'}],
                    version=SHARD_VERSION)
                assert status == 406, (
                    '%s (%s, pin %s): a %s request got %s, not 406: %s'
                    % (label, release, pin, SHARD_VERSION, status, body))

    def restart(self, step, label, release, pin=None):
        """Restart one process; an API is drained from the client first.

        Operators take an API out of the load balancer before stopping it.
        Release 1.0's API needs it (its graceful stop can reset a
        connection it already accepted; fixed in 2.0, whose stop is tested
        with no draining in tests/functional/test_rolling_restart.py).
        """
        self.begin(step)
        api = self.dep.layout[label][0] == 'api'
        if api:
            self.client.drain(self.dep.api_url(label))
        self.dep.restart(label, release, pin)
        if api:
            self.client.undrain(self.dep.api_url(label))
        return self.check(old_readable=step < '6.1')


def migrate_online(dep, release):
    """Run online data migrations in --max-count batches until done."""
    runs = []
    for _ in range(500):
        result = dep.dbsync(release, 'online_data_migrations',
                            '--max-count', str(BATCH), check=False)
        runs.append(result.returncode)
        if result.returncode == 0:
            return runs, result.stdout
        assert result.returncode == 1, (
            'online_data_migrations exited %s:\n%s\n%s'
            % (result.returncode, result.stdout, result.stderr))
    raise AssertionError('online_data_migrations did not finish in %d '
                         'batches' % len(runs))


def use_shards(dep, client, load):
    """2.0's shard API through the fully upgraded deployment."""
    node = sorted(load.nodes)[0]
    patch = [{'op': 'add', 'path': '/shard', 'value': 'shard-a'}]
    for _ in range(20):
        status, body = client.request('PATCH', '/v1/nodes/%s' % node, patch,
                                      version=SHARD_VERSION)
        if status != 409:       # a conductor holds the node: retry
            break
        time.sleep(0.5)
    assert status == 200, ('PATCH shard at %s -> %s %s (is the 2.0 shard '
                           'API in this tree?)' % (SHARD_VERSION, status,
                                                   body))
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


@pytest.mark.parametrize('backend', ['postgresql', 'mysql'])
def test_rolling_upgrade_1_0_to_new(request, backend, tmp_path, rabbit_url,
                                    old_release, new_release):
    db_url = request.getfixturevalue('%s_url' % backend)
    began = time.monotonic()
    old, new = old_release, new_release
    dep = deployment.Deployment(str(tmp_path), db_url, rabbit_url)
    client = workload.RoundRobinClient(dep.api_urls)
    load = workload.Workload(client, threads=4)
    up = Upgrade(dep, client, load, old, new)
    latest = latest_versions()
    try:
        # -- 0: release 1.0 everywhere ------------------------------------
        dep.dbsync(old, 'upgrade')
        up.begin('0')
        for label in ('conductor-1', 'conductor-2'):
            dep.start(label, 'conductor', old)
        for label in ('api-1', 'api-2'):
            dep.start(label, 'api', old)
        load.start()
        status, chassis = client.request('POST', '/v1/chassis',
                                         {'description': 'rack 1'})
        assert status == 201, (status, chassis)
        # Nodes nobody touches again: still at 1.0's Node version when the
        # online data migrations run (in several --max-count batches).
        for _ in range(IDLE_NODES):
            assert load.create_node(), client.results[-1].error
        up.check()

        # -- 2: the new schema under the running 1.0 services -------------
        up.begin('schema')
        dep.dbsync(new, 'upgrade')
        up.check()
        assert set(shard_values(db_url).values()) <= {None}

        # -- 4, 5: new code, pinned; conductors first, then APIs ----------
        up.restart('4.1', 'conductor-1', new, OLD_PIN)
        up.restart('4.2', 'conductor-2', new, OLD_PIN)
        up.restart('5.1', 'api-1', new, OLD_PIN)
        up.restart('5.2', 'api-2', new, OLD_PIN)
        assert set(shard_values(db_url).values()) <= {None}

        # -- 6: unpin; conductors first (6.1 before 6.3: an unpinned API
        # may send 2.0 objects only once every conductor reads them) -----
        up.restart('6.1', 'conductor-1', new)
        up.restart('6.2', 'conductor-2', new)
        up.restart('6.3', 'api-1', new)
        up.restart('6.4', 'api-2', new)

        # -- 7: online data migrations, in batches, under load ------------
        up.begin('migrate')
        load.pause()
        before = deployment_pending(dep, latest)
        # Before the migrations, rows behind the latest version only warn.
        pre_status = dep.status(new)
        assert pre_status.returncode == (1 if before else 0), (
            pre_status.stdout, pre_status.stderr)
        load.resume()
        runs, report = migrate_online(dep, new)
        print('online_data_migrations: %d rows behind, %d run(s) of '
              '--max-count %d (exit codes %s)\n%s'
              % (sum(before.values()), len(runs), BATCH, runs, report))
        if sum(before.values()) > BATCH:
            assert len(runs) >= 2, (before, runs)
        versions = up.check(old_readable=False)
        behind = {name: {v: c for v, c in counts.items()
                         if v != latest[name]}
                  for name, counts in versions.items()}
        assert not any(behind.values()), (
            'rows not at the latest version after the online data '
            'migrations: %s (latest %s)' % (behind, latest))
        status = dep.status(new)
        assert status.returncode == 0, (
            'ironic-status upgrade check exited %s:\n%s\n%s'
            % (status.returncode, status.stdout, status.stderr))

        # -- 2.0 features through the upgraded deployment -----------------
        up.begin('shards')
        use_shards(dep, client, load)
        up.check(old_readable=False)
        load.stop()
        problems = load.verify()
    finally:
        load.stop()
        dep.stop_all()
        print('\nRolling upgrade %s -> %s on %s (%.0f s)\n%s'
              % (old.name, new.name, backend, time.monotonic() - began,
                 up.table()))
    assert not problems, '\n'.join(problems)
    failures = [r.error for r in client.results if r.failed]
    assert not failures, '%d failed requests:\n%s' % (
        len(failures), '\n'.join(failures[:20]))
    assert len(client.results) > 200, up.table()
    assert time.monotonic() - began < 600, 'the upgrade took over 10 min'


def deployment_pending(dep, latest):
    """{object name: rows not at the latest version}."""
    pending = {}
    for name, counts in dep.row_versions().items():
        behind = sum(c for v, c in counts.items() if v != latest[name])
        if behind:
            pending[name] = behind
    return pending
