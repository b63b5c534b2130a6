"""Two ironic-api and two ironic-conductor on PostgreSQL and RabbitMQ, for
fault tests: processes to kill, a broker to cut, a database to disturb.

Built on the rolling-upgrade harness (tests/upgrade/deployment.py: unique
control exchange and topic, free ports, one config file per process).  The
processes reach RabbitMQ and PostgreSQL through ``TcpProxy``s, so a test
can cut the broker or the database off without touching the shared
servers (the test's own reads, ``sql``, go straight to the database).
``Client`` keeps the raw body of every error answer so that
``scan_error_bodies`` can prove that none carries a traceback, a file
path or SQL.
"""

import http.client
import json
import re
import signal
import socket
import threading

import sqlalchemy as sa

from tests.functional import procs
from tests import timeouts
from tests.upgrade import deployment
from tests.upgrade import workload

# Short fake work, short failure detection: the level stays fast.  What a
# test waits for (recovery after a kill, the reclaim of stale locks) it
# waits for with a hang's bound (tests/timeouts.py), not these.
FAKE_DELAY = 3
# Well above the heartbeat interval (1 s): a loaded CI machine must not
# make a live conductor look dead.
HEARTBEAT_TIMEOUT = 10
# How often each conductor clears its own stale locks (short here).
RECLAIM_INTERVAL = 2

EXTRA = {
    'DEFAULT': {'rpc_response_timeout': 10},
    # A silent client connection is kept for NEVER: a test sees whether
    # it holds a worker, not whether it is closed in time.
    'api': {'client_socket_timeout': timeouts.NEVER},
    'conductor': {'heartbeat_interval': 1,
                  'heartbeat_timeout': HEARTBEAT_TIMEOUT,
                  'check_provision_state_interval': 1,
                  'sync_power_state_interval': 0,
                  'stale_lock_reclaim_interval': RECLAIM_INTERVAL},
    'fake': {'deploy_delay': FAKE_DELAY, 'clean_delay': FAKE_DELAY},
    'database': {'max_retries': 3, 'retry_interval': 1},
    'oslo_messaging_rabbit': {'rabbit_retry_interval': 1,
                              'rabbit_retry_backoff': 0,
                              'rabbit_interval_max': 2},
}

# What no error body may contain: a traceback, a Python file path, SQL.
FORBIDDEN = [
    re.compile(rb'Traceback'),
    re.compile(rb'\.py"'),
    re.compile(rb'\b(SELECT|INSERT|UPDATE|DELETE)\b.{0,200}?'
               rb'\b(FROM|INTO|SET|WHERE)\b', re.S),
    re.compile(rb'\b(sqlalchemy|psycopg2|pymysql)\b', re.I),
]


class TcpProxy(object):
    """A TCP relay to ``target``; ``down()`` closes the listener and cuts
    every connection (as a dead broker would), ``up()`` listens again on
    the same port.  ``blackhole()`` cuts it silently instead, as a
    network partition or a frozen host does: connections stay open and
    new ones are accepted, but nothing goes through either way any more
    (no reset, no refusal: the peers wait for answers that never come).
    """

    def __init__(self, target):
        self.target = target
        self.port = procs.free_port()
        self._conns = []
        self._lock = threading.Lock()
        self._listener = None
        self._silent = False
        self.up()

    def blackhole(self):
        """Relay nothing from now on; ``down()`` ends it."""
        self._silent = True

    def up(self):
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(('127.0.0.1', self.port))
        sock.listen(64)
        self._listener = sock
        threading.Thread(target=self._accept, args=(sock,),
                         daemon=True).start()

    def down(self):
        listener, self._listener = self._listener, None
        if listener is not None:
            # shutdown() wakes the thread blocked in accept(): a close()
            # alone leaves the socket listening until that accept()
            # returns, so one more connection would still get through.
            try:
                listener.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            listener.close()
        self._silent = False
        with self._lock:
            conns, self._conns = self._conns, []
        for sock in conns:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            sock.close()

    def _accept(self, listener):
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            if self._listener is not listener:   # went down meanwhile
                client.close()
                return
            if self._silent:     # held open, never answered
                with self._lock:
                    self._conns.append(client)
                continue
            try:
                server = socket.create_connection(self.target,
                                                  timeout=timeouts.HANG)
            except OSError:
                client.close()
                continue
            server.settimeout(None)
            with self._lock:
                self._conns += [client, server]
            for src, dst in ((client, server), (server, client)):
                threading.Thread(target=self._pipe, args=(src, dst),
                                 daemon=True).start()

    def _pipe(self, src, dst):
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                if not self._silent:    # blackholed: dropped
                    dst.sendall(data)
        except OSError:
            pass
        for sock in (src, dst):
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


class Client(workload.RoundRobinClient):
    """The load balancer of tests/upgrade, keeping every error body."""

    def __init__(self, urls, **kwargs):
        super().__init__(urls, **kwargs)
        self.error_bodies = []

    def _send_once(self, base, method, path, body, version):
        host, port = base.replace('http://', '').split(':')
        conn = http.client.HTTPConnection(host, int(port),
                                          timeout=self.timeout)
        try:
            conn.request(method, path,
                         json.dumps(body) if body is not None else None,
                         {'Content-Type': 'application/json',
                          'X-OpenStack-Ironic-API-Version':
                              version or self.version,
                          'Connection': 'close'})
            resp = conn.getresponse()
            raw = resp.read()
        finally:
            conn.close()
        if resp.status >= 400:
            with self._lock:
                self.error_bodies.append((resp.status, method, path, raw))
        return resp.status, (json.loads(raw) if raw else None)


def faultstring(parsed):
    return json.loads(parsed['error_message'])['faultstring']


def retry_safe(status, parsed):
    """A 503 whose message tells the client it may retry."""
    if status != 503:
        return False
    try:
        text = faultstring(parsed).lower()
    except (KeyError, TypeError, ValueError):
        return False    # not Ironic's error body
    return 'retry' in text or 'try again' in text


def scan_error_bodies(bodies):
    """The error answers that leak a traceback, a file path or SQL."""
    leaks = []
    for status, method, path, raw in bodies:
        for pattern in FORBIDDEN:
            if pattern.search(raw):
                leaks.append('%s %s -> %s: %r' % (method, path, status,
                                                  raw[:300]))
                break
    return leaks


class Cluster(deployment.Deployment):
    """api-1, api-2, conductor-1, conductor-2 of this tree, on PostgreSQL,
    with RabbitMQ behind ``self.broker`` (a TcpProxy)."""

    EXTRA_CONFIG = EXTRA

    def __init__(self, workdir, db_url, rabbit_url):
        self.broker = TcpProxy(('127.0.0.1', 5672))
        user = rabbit_url.split('//', 1)[1].split('@', 1)[0]
        proxied = 'rabbit://%s@127.0.0.1:%d/' % (user, self.broker.port)
        self.database = TcpProxy(('127.0.0.1', 5432))
        self.direct_db_url = db_url
        super().__init__(workdir, db_url.replace(
            '@127.0.0.1:5432/', '@127.0.0.1:%d/' % self.database.port),
            proxied)
        self.release = deployment.Release('this tree', procs.BIN)
        self.client = Client(self.api_urls)

    def start_all(self):
        self.dbsync(self.release, 'upgrade')
        for label in ('conductor-1', 'conductor-2'):
            self.start(label, 'conductor', self.release)
        for label in ('api-1', 'api-2'):
            self.start(label, 'api', self.release)

    def kill(self, label):
        """kill -9."""
        service = self.services[label]
        service.proc.send_signal(signal.SIGKILL)
        service.proc.wait(timeouts.HANG)

    def revive(self, label):
        """Start a killed process again."""
        kind = self.layout[label][0]
        return self.start(label, kind, self.release)

    def request(self, method, path, body=None, version='1.82'):
        return self.client.request(method, path, body, version=version)

    def wait_state(self, uuid, predicate, timeout=timeouts.HANG,
                   what='state'):
        def check():
            status, node = self.request('GET', '/v1/nodes/%s' % uuid)
            return node if status == 200 and predicate(node) else None
        return procs.wait_for(check, timeout=timeout, interval=0.3,
                              what='node %s %s' % (uuid, what))

    def make_available(self, uuid, timeout=timeouts.HANG):
        for verb, state in (('manage', 'manageable'),
                            ('provide', 'available')):
            status, body = self.request(
                'PUT', '/v1/nodes/%s/states/provision' % uuid,
                {'target': verb})
            assert status == 202, body
            self.wait_state(uuid, lambda n, s=state: (
                n['provision_state'] == s and not n['reservation']),
                timeout=timeout, what=state)

    # -- the database, read directly --------------------------------------

    def sql(self, statement, **params):
        engine = sa.create_engine(self.direct_db_url)
        try:
            with engine.connect() as conn:
                return list(conn.execute(sa.text(statement), params))
        finally:
            engine.dispose()

    def locked_nodes(self):
        return self.sql('SELECT uuid, reservation FROM nodes '
                        'WHERE reservation IS NOT NULL')

    def terminate_backends(self):
        """Kill every other session on this test's database; how many."""
        name = self.db_url.rsplit('/', 1)[1].split('?')[0]
        rows = self.sql('SELECT pg_terminate_backend(pid) FROM '
                        'pg_stat_activity WHERE datname = :name AND '
                        'pid <> pg_backend_pid()', name=name)
        return len(rows)

    def stop_all(self):
        # Side by side: each graceful stop waits for its own drain.
        for service in self.services.values():
            service.terminate()
        super().stop_all()
        self.broker.down()
        self.database.down()


def started(tmp_path, postgresql_url, rabbit_url):
    """A started Cluster (its processes' logs in tmp_path)."""
    cluster = Cluster(str(tmp_path), postgresql_url, rabbit_url)
    try:
        cluster.start_all()
    except BaseException:
        cluster.stop_all()
        raise
    return cluster
