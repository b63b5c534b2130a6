"""Other requests while requests wait for BMCs that never answer (issue 35).

Starts a "BMC" that accepts TCP connections and never answers, and
``ironic-lite`` (or, with ``--split``, ``ironic-api`` and
``ironic-conductor`` over RabbitMQ); enrolls ``--hung`` redfish nodes
whose ``redfish_address`` is that BMC and one fake-hardware node; sends
one ``GET /v1/nodes/<n>/management/boot_device`` per hung node at once,
and meanwhile asks for the fake node (``GET /v1/nodes/<uuid>``) every
0.2 s.  It prints the slowest of those light answers while the hung
requests were pending, and how each hung request ended (status, seconds).

    .venv/bin/python -m tools.benchmark.hung_bmc --hung 8
    .venv/bin/python -m tools.benchmark.hung_bmc --hung 64 --split
    # an older tree (its venv's commands; tools/run-tests.sh there made it):
    .venv/bin/python -m tools.benchmark.hung_bmc --bin ../before/.venv/bin

``--rpc-timeout`` sets ``[DEFAULT]rpc_response_timeout``; the redfish
options are Ironic's defaults unless ``--read-timeout`` and
``--attempts`` say otherwise.  A tool for people, not a test: it asserts
nothing about timings.
"""

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid as uuid_mod

RABBIT = 'rabbit://guest:guest@127.0.0.1:5672/'


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog='python -m tools.benchmark.hung_bmc', description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--hung', type=int, default=8)
    parser.add_argument('--split', action='store_true')
    parser.add_argument('--bin', default=os.path.dirname(sys.executable),
                        help='directory of the service commands')
    parser.add_argument('--rpc-timeout', type=int)
    parser.add_argument('--read-timeout', type=int)
    parser.add_argument('--attempts', type=int)
    parser.add_argument('--limit', type=float, default=400,
                        help='seconds to wait for the hung requests')
    return parser.parse_args(argv)


class SilentBMC(object):
    """Accepts connections, reads nothing, answers nothing."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(('127.0.0.1', 0))
        self.sock.listen(1024)
        self.port = self.sock.getsockname()[1]
        self.held = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                self.held.append(self.sock.accept()[0])
            except OSError:
                return


def _free_port():
    with socket.socket() as sock:
        sock.bind(('127.0.0.1', 0))
        return sock.getsockname()[1]


def _write(path, sections):
    with open(path, 'w') as f:
        for section, values in sections.items():
            f.write('[%s]\n' % section)
            for key, value in values.items():
                if value is not None:
                    f.write('%s = %s\n' % (key, value))
    return path


def _config(args, workdir, port):
    default = {'state_path': workdir, 'host': 'bench-conductor',
               'rpc_response_timeout': args.rpc_timeout,
               'graceful_shutdown_timeout': 5}
    sections = {
        'DEFAULT': default,
        # Every client comes from one address: no cap per client.
        'api': {'host_ip': '127.0.0.1', 'port': port,
                'max_connections': 200, 'max_connections_per_client': 0},
        'conductor': {'enabled_hardware_types': 'fake-hardware,redfish',
                      'sync_power_state_interval': 0},
        'redfish': {'read_timeout': args.read_timeout,
                    'connection_attempts': args.attempts},
    }
    if args.split:
        default['transport_url'] = RABBIT
        default['control_exchange'] = 'bench-%s' % uuid_mod.uuid4().hex[:8]
        sections['database'] = {'connection': 'sqlite:///%s' % os.path.join(
            workdir, 'ironic.sqlite')}
    return _write(os.path.join(workdir, 'ironic.conf'), sections)


def _start(args, workdir, conf):
    env = {k: v for k, v in os.environ.items() if k != 'PYTHONPATH'}
    log = open(os.path.join(workdir, 'service.log'), 'ab')
    names = ['ironic-lite']
    if args.split:
        subprocess.run([os.path.join(args.bin, 'ironic-dbsync'),
                        '--config-file', conf, 'upgrade'], env=env,
                       check=True, capture_output=True)
        names = ['ironic-conductor', 'ironic-api']
    return [subprocess.Popen([os.path.join(args.bin, name), '--config-file',
                              conf], env=env, stdout=log,
                             stderr=subprocess.STDOUT) for name in names]


def http(base, method, path, body=None, timeout=600):
    req = urllib.request.Request(
        base + path, method=method,
        data=json.dumps(body).encode() if body is not None else None,
        headers={'Content-Type': 'application/json',
                 'X-OpenStack-Ironic-API-Version': 'latest'})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            return resp.status, json.loads(resp.read() or b'null')
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read() or b'null')


def _wait_ready(base):
    for _ in range(600):
        try:
            status, body = http(base, 'GET', '/v1/conductors', timeout=5)
            if status == 200 and body['conductors']:
                return
        except (OSError, ValueError):
            pass
        time.sleep(0.2)
    raise SystemExit('the service did not start')


def _enroll(base, bmc_port, hung):
    status, light = http(base, 'POST', '/v1/nodes',
                         {'driver': 'fake-hardware'})
    assert status == 201, light
    info = {'redfish_address': 'http://127.0.0.1:%d' % bmc_port,
            'redfish_username': 'u', 'redfish_password': 'p'}
    nodes = []
    for _ in range(hung):
        status, node = http(base, 'POST', '/v1/nodes',
                            {'driver': 'redfish', 'driver_info': info})
        assert status == 201, node
        nodes.append(node['uuid'])
    return light['uuid'], nodes


def measure(base, light, nodes, limit):
    """(slowest light answer while hung requests were pending,
    [(status, seconds)] of the hung requests)."""
    results = []

    def hung(uuid):
        started = time.monotonic()
        try:
            status, _ = http(base, 'GET', '/v1/nodes/%s/management/'
                             'boot_device' % uuid, timeout=limit)
        except OSError:   # no answer within --limit: still pending
            return
        results.append((status, round(time.monotonic() - started, 1)))
    threads = [threading.Thread(target=hung, args=(u,), daemon=True)
               for u in nodes]
    for thread in threads:
        thread.start()
    slowest, deadline = 0.0, time.monotonic() + limit
    while len(results) < len(nodes) and time.monotonic() < deadline:
        started = time.monotonic()
        try:
            http(base, 'GET', '/v1/nodes/%s' % light,
                 timeout=deadline - started)
        except OSError:
            pass
        slowest = max(slowest, time.monotonic() - started)
        time.sleep(0.2)
    return slowest, results


def main(argv=None):
    args = parse_args(argv)
    bmc = SilentBMC()
    with tempfile.TemporaryDirectory() as workdir:
        port = _free_port()
        base = 'http://127.0.0.1:%d' % port
        procs = _start(args, workdir, _config(args, workdir, port))
        try:
            _wait_ready(base)
            light, nodes = _enroll(base, bmc.port, args.hung)
            slowest, results = measure(base, light, nodes, args.limit)
        finally:
            for proc in procs:
                proc.terminate()
            for proc in procs:
                proc.wait()
    statuses = {}
    for status, _secs in results:
        statuses[status] = statuses.get(status, 0) + 1
    secs = [s for _status, s in results] or [0]
    print('%s, %d hung requests: slowest other request %.2f s; hung ones '
          'ended: %s in %s-%s s (%d still pending)'
          % ('split' if args.split else 'all-in-one', args.hung, slowest,
             statuses, min(secs), max(secs), args.hung - len(results)))


if __name__ == '__main__':
    main()
