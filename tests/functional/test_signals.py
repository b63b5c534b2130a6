"""SIGHUP reloads the configuration; the service keeps serving."""

import signal

from tests.functional import procs


def test_sighup_reloads_and_keeps_serving(lite_service):
    lite_service.proc.send_signal(signal.SIGHUP)
    procs.wait_for(lambda: 'Caught SIGHUP' in lite_service.log(),
                   what='the SIGHUP log line')
    status, _, body = procs.http('GET', lite_service.base + '/v1/nodes')
    assert status == 200, body
    assert lite_service.alive()
