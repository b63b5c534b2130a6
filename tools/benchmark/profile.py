"""cProfile of one API request, served by the WSGI app in this process.

No service code changes: the same application ``ironic-api`` serves is
built here (``ironic_lite.api.app.setup_app``) and called directly, so
the profile shows where a request's time goes (DB, objects, rendering).
"""

import cProfile
import io
import pstats

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
