"""A conductor, then an API, of a two-API, two-conductor deployment
restarted one at a time under load, with no failed request and no lost
write.  (The other process of each kind would repeat the same stop and
start; the upgrade tests restart all four, at steps 4 to 6.)

The same harness runs the real 1.0 -> 2.0 upgrade in tests/upgrade; this
test proves the deployment itself (drained conductors, graceful API stops,
round-robin routing) on the working tree's code alone.
"""

import time

import pytest

from tests.functional import procs
from tests.upgrade import deployment
from tests.upgrade import workload

# Requests of the load on the whole deployment before the restarts, and
# after them (a slow machine makes fewer in the same seconds).
LOAD_REQUESTS = 60


@pytest.mark.long(50)
@pytest.mark.backend
def test_restart_a_conductor_then_an_api(tmp_path, postgresql_url,
                                         rabbit_url):
    release = deployment.Release('this tree', procs.BIN)
    dep = deployment.Deployment(str(tmp_path), postgresql_url, rabbit_url)
    dep.dbsync(release, 'upgrade')
    client = workload.RoundRobinClient(dep.api_urls)
    # A paced load, as in tests/upgrade: enough requests to catch one that
    # fails, without taking the CPU from the processes being restarted
    # (or from the tests running beside this one).
    load = workload.Workload(client, threads=2, pace=0.05)
    steps = []
    try:
        for label in ('conductor-1', 'conductor-2'):
            dep.start(label, 'conductor', release)
        for label in ('api-1', 'api-2'):
            dep.start(label, 'api', release)
        client.step = 'start'
        steps.append(('start', dep.describe()))
        load.start()
        time.sleep(3)
        client.wait_for_results('start', LOAD_REQUESTS)
        for label in ('conductor-1', 'api-1'):
            client.step = 'restart %s' % label
            steps.append((client.step, dep.describe()))
            dep.restart(label, release)
        client.step = 'end'
        steps.append(('end', dep.describe()))
        time.sleep(3)
        client.wait_for_results('end', LOAD_REQUESTS)
        load.stop()
        problems = load.verify()
    finally:
        load.stop()
        dep.stop_all()
    table = workload.format_table(workload.step_table(client.results,
                                                      steps))
    print(table)
    failures = [r.error for r in client.results if r.failed]
    assert not failures, '%d failed requests:\n%s\n%s' % (
        len(failures), '\n'.join(failures[:20]), table)
    assert not problems, '\n'.join(problems)
    assert len(client.results) > 100, table
