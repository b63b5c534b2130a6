"""``ironic_lite.api.wsgi:application`` under a WSGI server of its own.

Operators run the API under uwsgi, gunicorn or mod_wsgi; here the runner
is ``waitress-serve`` (installed with ironic-lite), started as an operator
would, with the configuration file named by ``IRONIC_LITE_CONFIG``.
"""

import json
import os
import subprocess

from tests.functional import procs
from tests import timeouts


def _access_lines(path, request_id):
    with open(str(path), errors='replace') as f:
        return [line for line in f
                if 'ironic_lite.api.access' in line and request_id in line]


def test_entry_point_serves_with_config_from_env(tmp_path):
    port = procs.free_port()
    db = 'sqlite:///%s' % (tmp_path / 'ironic.sqlite')
    base_conf = procs.write_config(str(tmp_path / 'ironic.conf'), {
        'DEFAULT': {'state_path': str(tmp_path), 'host': 'wsgi-test'},
        'database': {'connection': db},
    })
    # A second file, read after the first (later files win).
    limit_conf = procs.write_config(str(tmp_path / 'limit.conf'), {
        'oslo_middleware': {'max_request_body_size': 2048},
    })
    procs.run('ironic-dbsync', '--config-file', base_conf, 'upgrade')
    log = open(str(tmp_path / 'wsgi.log'), 'wb')
    proc = subprocess.Popen(
        [procs.command('waitress-serve'), '--listen=127.0.0.1:%d' % port,
         'ironic_lite.api.wsgi:application'],
        stdout=log, stderr=subprocess.STDOUT, cwd=str(tmp_path),
        env=dict(os.environ,
                 IRONIC_LITE_CONFIG='%s,%s' % (base_conf, limit_conf)))
    base = 'http://127.0.0.1:%d' % port
    try:
        procs.wait_for(lambda: proc.poll() is None and procs.http(
            'GET', base + '/v1', version=None)[0] == 200,
            what='the WSGI application')
        status, headers, body = procs.http('GET', base + '/v1/nodes')
        assert status == 200 and body == {'nodes': []}, body
        names = {name.lower(): value for name, value in headers.items()}
        assert 'x-openstack-ironic-api-maximum-version' in names, headers
        # The application logs its access line under any server: once,
        # with the request id the client received.
        request_id = names['x-openstack-request-id']
        line = procs.wait_for(
            lambda: _access_lines(tmp_path / 'wsgi.log', request_id),
            what='the access line')
        assert len(line) == 1 and ' INFO ' in line[0], line
        assert '"GET /v1/nodes" status: 200' in line[0], line
        # The second file's limit is in force: a 413 in Ironic's shape.
        status, _, body = procs.http('POST', base + '/v1/nodes', {
            'driver': 'fake-hardware', 'extra': {'b': 'x' * 4096}})
        assert status == 413, body
        assert 'too large' in json.loads(
            body['error_message'])['faultstring'].lower()
    finally:
        proc.terminate()
        proc.wait(timeouts.HANG)
        log.close()
    assert proc.returncode is not None
    # The application imports alembic once logging is set up: its plugin
    # set-up lines are not logged.
    with open(str(tmp_path / 'wsgi.log'), errors='replace') as f:
        started = f.read()
    assert 'alembic.runtime.plugins' not in started, started
