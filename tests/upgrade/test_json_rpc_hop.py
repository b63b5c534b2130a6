"""The rolling upgrade's steps over JSON-RPC, on this tree's code alone.

No released ironic-lite before 6.0 has JSON-RPC, so this walks a hop's
last steps with the working tree: two APIs and two conductors over
JSON-RPC (no broker) pinned to the oldest release this code rolls from
(skip-level), restarted one process at a time unpinned -- the
conductors, then the APIs -- under a load that must see no failure.
While an API is pinned, a request the pinned release cannot serve is
refused and nothing is sent; once every process is unpinned, the
conductor answers it over JSON-RPC.  Which request, by the pin:

* a pin whose RPC version is below 1.10 (4.0): the agent's heartbeat,
  refused with 409 (it needs RPC 1.10) -- the conductors' logs prove
  that nothing reached them;
* a pin with RPC 1.10 (5.0), whose API serves up to 1.82: the virtual
  media of a node (``GET .../vmedia``, 1.93, RPC 1.13), refused with
  406 (the microversion is above the pin's), then read from the fake
  interface by a conductor.  (The one request at 1.82 or below that
  needs RPC 1.11, the agent's inspection data, needs a node inspected
  through the ``agent`` interface, which a pinned deployment refuses.)
"""
from oslo_utils import versionutils
import pytest
import requests

from ironic_lite.common import release_mappings
from tests import agent
from tests.functional import procs
from tests.upgrade import deployment
from tests.upgrade import workload
from tests import timeouts

PIN = release_mappings.rolls_from()[-1]
# Pinned below the agent's heartbeat (RPC 1.10): the heartbeat is the
# probe; else the virtual media, above the pin's microversions.
HEARTBEAT_PROBE = versionutils.convert_version_to_tuple(
    release_mappings.RELEASE_MAPPING[PIN]['rpc']) < (1, 10)
VMEDIA_VERSION = '1.93'
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


def _vmedia(base, node):
    return requests.get('%s/v1/nodes/%s/vmedia' % (base, node),
                        headers={'X-OpenStack-Ironic-API-Version':
                                 VMEDIA_VERSION},
                        timeout=timeouts.HANG)


def _probe(base, node):
    return (_heartbeat if HEARTBEAT_PROBE else _vmedia)(base, node)


def _conductors_reached(dep):
    """The conductors a heartbeat has reached: each logs this line."""
    return [c for c in ('conductor-1', 'conductor-2')
            if 'Invalid or missing agent_token' in dep.services[c].log()]


@pytest.mark.long(60)
@pytest.mark.backend
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
            answers[('pinned', label)] = _probe(dep.api_url(label), node)
        reached = _conductors_reached(dep)
        for label in ('conductor-1', 'conductor-2', 'api-1'):
            client.step = 'restart %s' % label
            dep.restart(label, release)
            client.wait_for_results(client.step, LOAD_REQUESTS)
        # api-2 is still pinned: it refuses still.
        answers[('api-2 pinned', 'api-2')] = _probe(
            dep.api_url('api-2'), node)
        client.step = 'restart api-2'
        dep.restart('api-2', release)
        client.step = 'unpinned'
        client.wait_for_results('unpinned', LOAD_REQUESTS)
        for label in dep.api_labels():
            answers[('unpinned', label)] = _probe(dep.api_url(label), node)
        reached_after = _conductors_reached(dep)
        load.pause()
        problems = load.verify()
    finally:
        load.stop()
        dep.stop_all()
    for (step, label), resp in answers.items():
        if step == 'unpinned' and HEARTBEAT_PROBE:
            # The conductor's own answer: the call went out at RPC 1.10.
            assert resp.status_code == 400, (label, resp.text)
            assert 'Invalid or missing agent token' in resp.text
        elif step == 'unpinned':
            # A conductor's answer over JSON-RPC 1.13: the fake media.
            assert resp.status_code == 200, (label, resp.text)
            assert isinstance(resp.json(), list), (label, resp.text)
        elif HEARTBEAT_PROBE:
            assert resp.status_code == 409, (step, label, resp.text)
            assert 'pinned to release %s' % PIN in resp.text
        else:
            assert resp.status_code == 406, (step, label, resp.text)
    if HEARTBEAT_PROBE:
        assert reached == []  # nothing sent while pinned
        assert reached_after
    failures = [r.error for r in client.results if r.failed]
    assert failures == []
    assert problems == []
