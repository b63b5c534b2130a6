"""cProfile of one API request, served by the WSGI app in this process.

No service code changes: the same application ``ironic-api`` serves is
built here (``ironic_lite.api.app.setup_app``) and called directly, so
the profile shows where a request's time goes (DB, objects, rendering).
"""

import cProfile
import io
import pstats
import time

import webob


def profile_request(path, reps=5, top=30):
    """Run GET ``path`` ``reps`` times under cProfile; the report text."""
    from ironic_lite.api import app as api_app
    from tools.benchmark import measure
    wsgi = api_app.setup_app()

    def call():
        req = webob.Request.blank(path, headers={
            'X-OpenStack-Ironic-API-Version': measure.MICROVERSION})
        resp = req.get_response(wsgi)
        assert resp.status_int == 200, resp.text[:500]
    call()  # warm-up: imports, engine, caches
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(reps):
        call()
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats('cumulative').print_stats(top)
    stats.sort_stats('tottime').print_stats(top)
    return out.getvalue()


def _report(profiler, top):
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats('cumulative').print_stats(top)
    stats.sort_stats('tottime').print_stats(top)
    return out.getvalue()


def profile_operations(config_file, info, reps=20, top=25):
    """cProfile reads and writes of ironic-lite, API and conductor in this
    process (as ``ironic-lite`` runs them), on the database of
    ``config_file``; ``info`` names the shard and nodes
    (compare_ops.fleet_facts).  The report text, one section each."""
    import json

    from ironic_lite.common import config
    from ironic_lite.common import rpc
    from ironic_lite.conductor import rpc_service
    from ironic_lite.conductor import manager
    from ironic_lite.api import app as api_app
    from tools.benchmark import measure

    rpc.set_default_transport_url('fake://')
    config.parse_args(['--config-file', config_file], prog='benchmark')
    conductor = rpc_service.RPCService(manager.ConductorManager())
    conductor.start()
    wsgi = api_app.setup_app()
    counter = iter(range(10 ** 6))

    def call(method, path, body=None):
        req = webob.Request.blank(path, method=method, headers={
            'X-OpenStack-Ironic-API-Version': measure.MICROVERSION,
            'Content-Type': 'application/json'})
        if body is not None:
            req.body = json.dumps(body).encode()
        resp = req.get_response(wsgi)
        assert resp.status_int < 300, resp.text[:500]

    node = '/v1/nodes/%s' % info['patch_node']
    operations = [
        ('GET /v1/nodes?shard=S', lambda: call(
            'GET', '/v1/nodes?shard=%s' % info['shard'])),
        ('GET /v1/nodes?shard=S&detail=True', lambda: call(
            'GET', '/v1/nodes?shard=%s&detail=True' % info['shard'])),
        ('GET /v1/nodes/<uuid>', lambda: call('GET', node)),
        ('PATCH /v1/nodes/<uuid>', lambda: call('PATCH', node, [
            {'op': 'replace', 'path': '/shard',
             'value': 'profile-%d' % next(counter)}])),
        ('POST /v1/nodes', lambda: call('POST', '/v1/nodes', {
            'driver': 'fake-hardware',
            'name': 'profile-%d' % next(counter)})),
    ]
    sections = []
    try:
        for name, operation in operations:
            operation()  # warm-up
            profiler = cProfile.Profile()
            start = time.perf_counter()
            profiler.enable()
            for _ in range(reps):
                operation()
            profiler.disable()
            per_call = (time.perf_counter() - start) / reps * 1000
            sections.append('=== %s: %.1f ms per call under the profiler '
                            '(%d calls)\n%s' % (name, per_call, reps,
                                                _report(profiler, top)))
    finally:
        conductor.stop()
    return '\n'.join(sections)
