"""What an operator reads in the log of a real ``ironic-lite`` while a
fake-hardware node goes round manage, provide, deploy and undeploy: no
ERROR and no traceback (a node without a bios interface is one warning,
as in Ironic), and every conductor line about the node carries the
request id the client sent (``X-OpenStack-Request-Id``), the lines the
conductor's worker threads log included."""

import re
import uuid

from tests.functional import conftest
from tests.functional import procs

# oslo.log's context prefix: [global_request_id request_id user ...].
LINE = re.compile(r'^\S+ \S+ \d+ (?P<level>[A-Z]+) (?P<logger>\S+) '
                  r'\[(?P<context>[^\]]*)\] (?P<message>.*)$')

CYCLE = (('manage', 'manageable'), ('provide', 'available'),
         ('active', 'active'), ('deleted', 'available'))


def _act(service, node, target, request_id):
    status, body = procs.while_locked(lambda: procs.api(
        service, 'PUT', '/v1/nodes/%s/states/provision' % node,
        {'target': target},
        headers={'X-OpenStack-Request-Id': request_id})[:3:2])
    assert status == 202, body


def _conductor_lines(log, node):
    for text in log.splitlines():
        match = LINE.match(text)
        if (match and match['logger'].startswith('ironic_lite.conductor.')
                and node in match['message']):
            yield match


def test_a_cycle_logs_no_error_and_the_clients_request_id(tmp_path):
    service = conftest.start_lite(str(tmp_path))
    try:
        status, _, body = procs.api(service, 'POST', '/v1/nodes',
                                    {'driver': 'fake-hardware'})
        assert status == 201, body
        node = body['uuid']
        sent = {}
        for target, state in CYCLE:
            sent[target] = 'req-%s' % uuid.uuid4()
            _act(service, node, target, sent[target])
            procs.wait_provision_state(service.base, node, state)
    finally:
        conftest.stop_lite(service)
    log = service.log()
    assert ' ERROR ' not in log and 'Traceback' not in log, log
    lines = list(_conductor_lines(log, node))
    # Each action's lines, its outcome among them, in order.
    outcomes = ('Successfully verified', 'cleaning complete',
                'Successfully deployed', 'Successfully unprovisioned')
    for outcome in outcomes:
        assert any(outcome in m['message'] for m in lines), log
    for match in lines:
        global_id = match['context'].split()[0]
        assert global_id in sent.values(), match.group(0)
    # The request ids in the order the client sent them.
    order = []
    for match in lines:
        global_id = match['context'].split()[0]
        if not order or order[-1] != global_id:
            order.append(global_id)
    assert order == [sent[target] for target, _ in CYCLE], log
