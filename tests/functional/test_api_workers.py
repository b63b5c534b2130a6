"""ironic-api with [api]api_workers = 2, beside a conductor over RabbitMQ,
on PostgreSQL: both worker processes serve, a killed one is replaced,
SIGTERM drains a request in flight in every worker, and the per-address
cap holds over the workers together.

A request stays in flight as long as the test wants: the conductor is
stopped (SIGSTOP) while the API waits for its answer to a boot device
read, and continued (SIGCONT) when the test is ready.  Which worker holds
a connection is read from /proc (the worker whose open sockets include
the server's side of it).
"""

import contextlib
import http.client
import os
import re
import signal
import socket
import time

import pytest

from ironic_lite.common import worker_bounds
from tests import conftest
from tests.functional import procs
from tests import sockets
from tests import timeouts

pytestmark = pytest.mark.backend


def _split(tmp_path, postgresql_url, rabbit_url, rabbit_exchange, **api):
    port = procs.free_port()
    options = {'host_ip': '127.0.0.1', 'port': port, 'api_workers': 2}
    options.update(api)
    common = {
        'DEFAULT': {'transport_url': rabbit_url,
                    'control_exchange': rabbit_exchange,
                    'state_path': str(tmp_path),
                    'graceful_shutdown_timeout': timeouts.HANG},
        'database': {'connection': postgresql_url},
        'api': options,
        'conductor': {'heartbeat_interval': 1},
        'oslo_messaging_rabbit': conftest.RABBIT_TEST_OPTIONS,
    }
    topic = '%s.ironic.conductor_manager' % rabbit_exchange
    rabbit_exchange.queues.extend([topic, topic + '.conductor-1'])
    return procs.api_and_conductor(tmp_path, common, 'api-1', 'conductor-1')


def _workers(service):
    """The pids of the API's worker processes."""
    pid = service.proc.pid
    with open('/proc/%d/task/%d/children' % (pid, pid)) as f:
        return {int(p) for p in f.read().split()}


def _serving_pids(service):
    """The pids that logged an access line (oslo.log writes its pid)."""
    return {int(m.group(1)) for m in re.finditer(
        r'^\S+ \S+ (\d+) INFO ironic_lite\.api\.access .*"GET /v1',
        service.log(), re.M)}


def _socket_inodes(pid):
    inodes = set()
    fd_dir = '/proc/%d/fd' % pid
    for fd in os.listdir(fd_dir):
        try:
            target = os.readlink(os.path.join(fd_dir, fd))
        except OSError:
            continue
        if target.startswith('socket:['):
            inodes.add(int(target[8:-1]))
    return inodes


def _holder(client_port, port, pids):
    """The pid (of ``pids``) holding the server's side of the connection
    from ``client_port``."""
    wanted = None
    with open('/proc/net/tcp') as f:
        for line in f.readlines()[1:]:
            fields = line.split()
            local, remote = fields[1], fields[2]
            if (int(local.split(':')[1], 16) == port
                    and int(remote.split(':')[1], 16) == client_port):
                wanted = int(fields[9])
    for pid in pids:
        if wanted is not None and wanted in _socket_inodes(pid):
            return pid
    return None


def _connection_in_each_worker(port, pids):
    """{pid: an open connection it accepted}, one per worker; connections
    that landed in a worker already holding one are closed."""
    held = {}
    while set(held) != set(pids):
        conn = http.client.HTTPConnection('127.0.0.1', port,
                                          timeout=timeouts.HANG)
        conn.connect()
        client_port = conn.sock.getsockname()[1]
        holder = procs.wait_for(lambda: _holder(client_port, port, pids),
                                what='a worker accepting the connection')
        if holder not in held:
            held[holder] = conn
            continue
        conn.close()
        # Gone from the server, and from the count the workers share,
        # before the next one: at max_connections_per_client, a newcomer
        # would otherwise close a held connection (idle: the longest).
        procs.wait_for(lambda: _holder(client_port, port, pids) is None,
                       what='the server closing a second connection')
        time.sleep(2 * worker_bounds.IDLE_PUBLISH)
    return held


def _node(base):
    status, _, node = procs.http('POST', base + '/v1/nodes',
                                 {'driver': 'fake-hardware'})
    assert status == 201, node
    return node['uuid']


def _boot_device_request(conn, uuid):
    conn.putrequest('GET', '/v1/nodes/%s/management/boot_device' % uuid)
    conn.putheader('X-OpenStack-Ironic-API-Version', 'latest')
    conn.endheaders()


@contextlib.contextmanager
def _stopped(service):
    """The process stopped (SIGSTOP) within the block."""
    os.kill(service.proc.pid, signal.SIGSTOP)
    try:
        yield
    finally:
        os.kill(service.proc.pid, signal.SIGCONT)


def test_both_workers_serve_and_a_killed_one_is_replaced(
        tmp_path, postgresql_url, rabbit_url, rabbit_exchange):
    with _split(tmp_path, postgresql_url, rabbit_url,
                rabbit_exchange) as split:
        pids = _workers(split.api)
        assert len(pids) == 2

        def served_by(wanted):
            status, _, body = procs.http(
                'GET', split.base + '/v1/nodes?detail=True')
            assert status == 200, body
            return wanted <= _serving_pids(split.api)
        procs.wait_for(lambda: served_by(pids), what='both workers serving')

        killed = min(pids)
        os.kill(killed, signal.SIGKILL)
        procs.wait_for(lambda: len(_workers(split.api) - {killed}) == 2,
                       what='a new worker')
        new = _workers(split.api) - pids
        assert len(new) == 1
        procs.wait_for(lambda: served_by(new), what='the new worker serving')
        assert 'ended (signal SIGKILL); starting another' in split.api.log()


def test_sigterm_drains_a_request_in_flight_in_every_worker(
        tmp_path, postgresql_url, rabbit_url, rabbit_exchange):
    with _split(tmp_path, postgresql_url, rabbit_url,
                rabbit_exchange) as split:
        uuid = _node(split.base)
        port = int(split.base.rsplit(':', 1)[1])
        held = _connection_in_each_worker(port, _workers(split.api))
        with _stopped(split.conductor):
            for conn in held.values():
                _boot_device_request(conn, uuid)
            split.api.terminate()
            # Both listeners closed: new connections are refused, while
            # the requests in flight wait for the conductor.
            procs.wait_for(lambda: _refused(port),
                           what='connections refused')
            assert split.api.alive(), split.api.log()
        for conn in held.values():
            resp = conn.getresponse()
            body = resp.read()
            assert resp.status == 200, body
            assert b'boot_device' in body
            assert resp.getheader('Connection') == 'close'
        assert split.api.proc.wait(timeouts.HANG) == 0, split.api.log()


def _refused(port):
    try:
        socket.create_connection(('127.0.0.1', port), timeouts.HANG).close()
    except ConnectionRefusedError:
        return True
    return False


def test_the_per_address_cap_holds_over_the_workers(
        tmp_path, postgresql_url, rabbit_url, rabbit_exchange):
    """Two connections of 127.0.0.1, one in each worker, both busy: with
    max_connections_per_client = 2, every further connection is closed,
    whichever worker takes it (a cap per worker would keep one in two)."""
    with _split(tmp_path, postgresql_url, rabbit_url, rabbit_exchange,
                max_connections_per_client=2) as split:
        uuid = _node(split.base)
        port = int(split.base.rsplit(':', 1)[1])
        held = _connection_in_each_worker(port, _workers(split.api))
        with _stopped(split.conductor):
            for conn in held.values():
                _boot_device_request(conn, uuid)
            for _attempt in range(6):
                sock = socket.create_connection(('127.0.0.1', port),
                                                timeouts.HANG)
                with sock:
                    assert sockets.closed_by_server(sock, timeouts.HANG)
        for conn in held.values():
            resp = conn.getresponse()
            assert resp.status == 200, resp.read()
            resp.read()
