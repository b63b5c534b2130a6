"""20 clients at once on one node, through both APIs: every acknowledged
write is in the final row.

Depends on issue 9's fixes (branch h-faults): PATCH applied to the current
row under the node lock (no lost update), and no traceback in the errors
returned over RPC.
"""

from concurrent import futures

import pytest

pytestmark = pytest.mark.backend

WAYS = 20


def _all_at_once(func, count=WAYS):
    with futures.ThreadPoolExecutor(count) as pool:
        return list(pool.map(func, range(count)))


def _create(cluster, **fields):
    status, body = cluster.request('POST', '/v1/nodes',
                                   dict(driver='fake-hardware', **fields))
    assert status == 201, body
    return body['uuid']


def test_concurrent_patches_keep_every_acknowledged_key(scanned):
    cluster = scanned
    uuid = _create(cluster)

    def patch(i):
        return cluster.request('PATCH', '/v1/nodes/%s' % uuid, [
            {'op': 'add', 'path': '/extra/k%d' % i, 'value': i}])[0]
    statuses = _all_at_once(patch)
    assert set(statuses) <= {200, 409}, statuses
    assert 200 in statuses, statuses
    extra = cluster.request('GET', '/v1/nodes/%s' % uuid)[1]['extra']
    lost = ['k%d' % i for i, s in enumerate(statuses)
            if s == 200 and extra.get('k%d' % i) != i]
    assert not lost, ('acknowledged and lost: %s (statuses %s)'
                      % (lost, statuses))


def test_concurrent_creates_of_one_name_make_one_row(scanned):
    cluster = scanned

    def create(i):
        return cluster.request('POST', '/v1/nodes', {
            'driver': 'fake-hardware', 'name': 'same-name',
            'extra': {'writer': i}})
    answers = _all_at_once(create)
    statuses = [status for status, _ in answers]
    assert statuses.count(201) == 1, statuses
    assert set(statuses) <= {201, 409}, statuses
    winner = next(body for status, body in answers if status == 201)
    rows = cluster.sql("SELECT uuid FROM nodes WHERE name = 'same-name'")
    assert [r[0] for r in rows] == [winner['uuid']]
    node = cluster.request('GET', '/v1/nodes/same-name')[1]
    assert node['extra'] == winner['extra']


def test_concurrent_provision_actions_on_one_node(scanned):
    cluster = scanned
    uuid = _create(cluster)

    def manage(i):
        return cluster.request('PUT', '/v1/nodes/%s/states/provision'
                               % uuid, {'target': 'manage'})[0]
    statuses = _all_at_once(manage)
    assert 202 in statuses, statuses
    assert set(statuses) <= {202, 400, 409}, statuses
    cluster.wait_state(uuid, lambda n: n['provision_state'] == 'manageable'
                       and not n['reservation'], what='manageable')
