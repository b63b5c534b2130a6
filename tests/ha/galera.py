"""A MariaDB Galera cluster of three members on this host, for the HA tests.

Each member is a ``mariadbd --no-defaults`` process of its own (its own
data directory under the test's directory, its own SQL, group
communication and IST ports, picked free), run as root with
``--user=root``.  The first member bootstraps the cluster
(``--wsrep-new-cluster``); the others join it.

State transfer (SST) is ``mysqldump``: the ``rsync`` method's receiving
daemon, started by a root ``mariadbd``, switches to the ``nobody`` user,
which cannot write a root-owned data directory (rsync exits 3), and
``mariabackup`` is not installed here.  Every member's data directory is
a copy of one ``mariadb-install-db`` run (its accounts included), so the
joiner's server is up before the dump is loaded into it; a member that
comes back after a kill catches up by IST from the others' GCache.

``ClusterCheck`` answers HTTP 200 for a member that is ``Synced`` and 503
otherwise, as kolla-ansible's ``mariadb_clustercheck`` does for HAProxy:
a member that accepts connections but is still joining (or donating) is
not given clients.
"""

import http.server
import os
import shutil
import subprocess
import threading
import uuid

import pymysql

from tests.functional import procs
from tests import timeouts

MARIADBD = '/usr/sbin/mariadbd'
INSTALL_DB = '/usr/bin/mariadb-install-db'
PROVIDER = '/usr/lib/galera/libgalera_smm.so'
SST_SCRIPT = '/usr/bin/wsrep_sst_mysqldump'

# Small files and caches: a test's data is a few thousand rows.
SERVER_OPTIONS = [
    '--innodb-log-file-size=8M', '--innodb-buffer-pool-size=32M',
    '--skip-name-resolve', '--max-connections=500',
    '--character-set-server=utf8mb4',
    # What Galera requires of every member.
    '--binlog-format=ROW', '--default-storage-engine=InnoDB',
    '--innodb-autoinc-lock-mode=2',
    # As Galera deployments commonly run (kolla-ansible's default):
    # durability comes from the other members' copies, not the fsync.
    '--innodb-flush-log-at-trx-commit=2',
]


def missing():
    """What of the engine this machine lacks; empty when all is there."""
    return [path for path in (MARIADBD, INSTALL_DB, PROVIDER, SST_SCRIPT)
            if not os.path.exists(path)]


class Member(object):
    def __init__(self, workdir, index):
        self.index = index
        self.name = 'galera-%d' % index
        self.datadir = os.path.join(workdir, self.name)
        self.log_path = os.path.join(workdir, '%s.log' % self.name)
        self.port = procs.free_port()
        self.gcomm_port = procs.free_port()
        self.ist_port = procs.free_port()
        self.proc = None

    @property
    def gcomm(self):
        return '127.0.0.1:%d' % self.gcomm_port

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def connect(self, database=None, **kwargs):
        kwargs.setdefault('connect_timeout', 5)
        return pymysql.connect(host='127.0.0.1', port=self.port, user='root',
                               database=database, autocommit=True,
                               charset='utf8mb4', **kwargs)

    def status(self):
        """{wsrep status name: value}; raises when the server is down."""
        conn = self.connect(read_timeout=5)
        try:
            with conn.cursor() as cur:
                cur.execute("SHOW GLOBAL STATUS LIKE 'wsrep_%%'")
                return dict(cur.fetchall())
        finally:
            conn.close()

    def synced(self, size=None):
        try:
            status = self.status()
        except pymysql.MySQLError:
            return False
        return (status.get('wsrep_local_state_comment') == 'Synced'
                and status.get('wsrep_ready') == 'ON'
                and status.get('wsrep_cluster_status') == 'Primary'
                and (size is None
                     or int(status.get('wsrep_cluster_size', 0)) == size))

    def log(self):
        try:
            with open(self.log_path, errors='replace') as f:
                return f.read()
        except OSError:
            return ''


class Galera(object):
    """``Galera(workdir).start()``; ``stop()`` kills every member."""

    def __init__(self, workdir, size=3, name=None):
        self.workdir = workdir
        self.cluster_name = name or 'ironic-lite-%s' % uuid.uuid4().hex[:8]
        self.members = [Member(workdir, i + 1) for i in range(size)]

    # -- configuration ----------------------------------------------------

    def command(self, member, bootstrap=False):
        peers = ','.join(m.gcomm for m in self.members)
        provider_options = ';'.join([
            'gmcast.listen_addr=tcp://%s' % member.gcomm,
            'ist.recv_addr=127.0.0.1:%d' % member.ist_port,
            'gcache.size=64M',
            # A member that stops answering is out of the view in ~3 s
            # (defaults: suspected after 5 s, evicted after 15 s).
            'evs.suspect_timeout=PT3S', 'evs.inactive_timeout=PT6S',
            'evs.inactive_check_period=PT1S',
        ])
        args = [
            MARIADBD, '--no-defaults', '--user=root',
            '--datadir=%s' % member.datadir,
            '--port=%d' % member.port, '--bind-address=127.0.0.1',
            '--socket=%s' % os.path.join(member.datadir, 'mysqld.sock'),
            '--pid-file=%s' % os.path.join(member.datadir, 'mysqld.pid'),
            '--log-error=%s' % member.log_path,
        ] + SERVER_OPTIONS + [
            '--wsrep-on=ON', '--wsrep-provider=%s' % PROVIDER,
            '--wsrep-cluster-name=%s' % self.cluster_name,
            '--wsrep-cluster-address=gcomm://%s' % peers,
            '--wsrep-node-name=%s' % member.name,
            '--wsrep-node-address=%s' % member.gcomm,
            '--wsrep-provider-options=%s' % provider_options,
            '--wsrep-sst-method=mysqldump', '--wsrep-sst-auth=root:',
            '--wsrep-sst-receive-address=127.0.0.1:%d' % member.port,
        ]
        if bootstrap:
            args.append('--wsrep-new-cluster')
        return args

    def _install(self):
        """One ``mariadb-install-db`` run, copied to every member."""
        template = os.path.join(self.workdir, 'galera-template')
        procs.run_command(INSTALL_DB, '--no-defaults', '--user=root',
                          '--datadir=%s' % template, '--skip-test-db',
                          '--auth-root-authentication-method=normal',
                          '--innodb-log-file-size=8M')
        for member in self.members:
            shutil.copytree(template, member.datadir, symlinks=True)
        shutil.rmtree(template)

    # -- processes --------------------------------------------------------

    def _launch(self, member, bootstrap=False):
        log = open(member.log_path + '.out', 'ab')
        try:
            # A session of its own: kill() reaches the SST scripts too.
            member.proc = subprocess.Popen(
                self.command(member, bootstrap), stdout=log,
                stderr=subprocess.STDOUT, start_new_session=True)
        finally:
            log.close()

    def wait_synced(self, members=None, timeout=timeouts.HANG):
        members = members or self.members
        size = len([m for m in self.members if m.alive()])

        def ready():
            for member in members:
                if not member.alive():
                    raise AssertionError('%s died:\n%s' % (
                        member.name, member.log()[-6000:]))
            return all(m.synced(size) for m in members)
        procs.wait_for(ready, timeout=timeout, interval=0.3,
                       what='Galera members synced in a cluster of %d' % size)

    def start(self):
        self._install()
        first = self.members[0]
        self._launch(first, bootstrap=True)
        self.wait_synced([first])
        with first.connect() as conn, conn.cursor() as cur:
            # HAProxy's "option mysql-check" logs in as this user (the
            # HTTP clustercheck below is what the tests use).
            cur.execute("CREATE USER 'haproxy'@'127.0.0.1'")
        for member in self.members[1:]:
            self._launch(member)
        self.wait_synced()

    def kill(self, member):
        """kill -9 of the member's process group."""
        procs.kill_group(member.proc)

    def revive(self, member):
        """Start a killed member again: it rejoins (IST) and syncs."""
        self._launch(member)
        self.wait_synced()

    def stop(self):
        for member in self.members:
            if member.proc is not None and member.proc.poll() is None:
                self.kill(member)

    def create_database(self, name):
        with self.members[0].connect() as conn, conn.cursor() as cur:
            cur.execute('CREATE DATABASE `%s` CHARACTER SET utf8mb4' % name)

    def url(self, port, database):
        return ('mysql+pymysql://root@127.0.0.1:%d/%s?charset=utf8mb4'
                % (port, database))


class ClusterCheck(object):
    """An HTTP health check per member for HAProxy (``check port``): 200
    when the member is Synced in the primary component, 503 otherwise."""

    def __init__(self, members):
        self.ports = {}
        self._servers = []
        for member in members:
            server = http.server.ThreadingHTTPServer(
                ('127.0.0.1', 0), _handler(member))
            server.daemon_threads = True
            self.ports[member.name] = server.server_address[1]
            self._servers.append(server)
            threading.Thread(target=server.serve_forever,
                             daemon=True).start()

    def stop(self):
        for server in self._servers:
            server.shutdown()
            server.server_close()


def _handler(member):
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            ok = member.alive() and member.synced()
            body = b'synced\n' if ok else b'not synced\n'
            try:
                self.send_response(200 if ok else 503)
                self.send_header('Content-Length', str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            except OSError:
                pass    # HAProxy read the status line and hung up

        do_OPTIONS = do_GET

        def log_message(self, *args):
            pass
    return Handler
