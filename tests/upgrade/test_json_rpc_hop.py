"""The rolling upgrade's steps over JSON-RPC, on this tree's code alone.

No released ironic-lite has JSON-RPC (it first ships in 6.0), so no real
release-to-release hop can run over it yet: the first one is 6.0 -> 7.0.
Until then this walks the hop's last steps with the working tree: two
APIs and two conductors over JSON-RPC (no broker) pinned to an older
release, restarted one process at a time unpinned -- the conductors,
then the APIs -- under a load that must see no failure.  While an API is
pinned, a request that needs a newer RPC version (the agent's heartbeat,
RPC 1.10) is refused with 409 and nothing is sent; once every process is
unpinned, the conductor answers it.

The pin is 4.0, the oldest release this code rolls from (skip-level),
not 5.0: 5.0 has this code's RPC version (1.10), so pinned to it no
request needs a newer one.
"""

import pytest
import requests

from tests import agent
from tests.functional import procs
from tests.upgrade import deployment
from tests.upgrade import workload
from tests import timeouts

PIN = '4.0'
LOAD_REQUESTS = 40
CALLBACK = 'http://127.0.0.1:9999'


def _heartbeat(base, node):
    """One heartbeat (not retried on 409, unlike tests/agent.py's: here
    409 is the answer expected while pinned)."""
    return requests.post(
        '%s/v1/heartbeat/%s' % (base, node), headers=agent.HEADERS,
        timeout=timeouts.HANG, json={
            'callback_url': CALLBACK, 'agent_token': 'not-the-token',
            'agent_version': '10.0.0', 'agent_status': 'start'})


@pytest.mark.long(60)
@pytest.mark.backend
def _conductors_reached(dep):
    """The conductors a heartbeat has reached: each logs this line."""
    return [c for c in ('conductor-1', 'conductor-2')
            if 'Invalid or missing agent_token' in dep.services[c].log()]


def test_pinned_json_rpc_deployment_unpinned_one_process_at_a_time(
        tmp_path, postgresql_url):
    release = deployment.Release('this tree', procs.BIN)
    dep = deployment.JsonRpcDeployment(str(tmp_path), postgresql_url)
    dep.dbsync(release, 'upgrade')
    client = workload.RoundRobinClient(dep.api_urls)
    load = workload.Workload(client, threads=2, pace=0.05)
    answers = {}
    try:
        for label in ('conductor-1', 'conductor-2'):
            dep.start(label, 'conductor', release, pin=PIN)
        for label in ('api-1', 'api-2'):
            dep.start(label, 'api', release, pin=PIN)
        node = procs.http('POST', dep.api_url('api-1') + '/v1/nodes',
                          {'driver': 'fake-hardware'})[2]['uuid']
        client.step = 'pinned'
        load.start()
        client.wait_for_results('pinned', LOAD_REQUESTS)
        for label in dep.api_labels():
            answers[('pinned', label)] = _heartbeat(dep.api_url(label),
                                                    node)
        reached = _conductors_reached(dep)
        for label in ('conductor-1', 'conductor-2', 'api-1'):
            client.step = 'restart %s' % label
            dep.restart(label, release)
            client.wait_for_results(client.step, LOAD_REQUESTS)
        # api-2 is still pinned: it refuses still.
        answers[('api-2 pinned', 'api-2')] = _heartbeat(
            dep.api_url('api-2'), node)
        client.step = 'restart api-2'
        dep.restart('api-2', release)
        client.step = 'unpinned'
        client.wait_for_results('unpinned', LOAD_REQUESTS)
        for label in dep.api_labels():
            answers[('unpinned', label)] = _heartbeat(dep.api_url(label),
                                                      node)
        reached_after = _conductors_reached(dep)
        load.pause()
        problems = load.verify()
    finally:
        load.stop()
        dep.stop_all()
    for (step, label), resp in answers.items():
        if step == 'unpinned':
            # The conductor's own answer: the call went out at RPC 1.10.
            assert resp.status_code == 400, (label, resp.text)
            assert 'Invalid or missing agent token' in resp.text
        else:
            assert resp.status_code == 409, (step, label, resp.text)
            assert 'pinned to release %s' % PIN in resp.text
    assert reached == []  # nothing sent while pinned
    assert reached_after
    failures = [r.error for r in client.results if r.failed]
    assert failures == []
    assert problems == []
