"""PostgreSQL 15 primary + standby managed by Patroni, with its own etcd.

A single-member etcd 3.4 (the DCS: Patroni's leader key and member
list) and two Patroni members, ``pg1`` and ``pg2``, each running its
own PostgreSQL on its own port and data directory.  Patroni bootstraps
``pg1`` (initdb), clones ``pg2`` from it (pg_basebackup) and keeps it
streaming; with ``synchronous_mode`` the standby is the primary's
synchronous standby, so a commit is acknowledged only once the standby
has it on disk, and Patroni only promotes a member that was the
synchronous standby: an acknowledged write survives a failover.

Services reach the current primary through HAProxy checking each
member's Patroni REST API (``/primary``; ``start_haproxy``, a config of
this module's own), or through libpq's multi-host connection string
(``host=a:p1&host=b:p2&target_session_attrs=read-write``: ``db_url()``).

Everything lives under one directory (``tmp_path`` of the test; as
root, a directory of its own in the system's temporary directory owned
by the ``postgres`` user, which PostgreSQL needs: pytest's base
directory is private to root) and every process is started in a
session of its own, killed with its whole group at ``stop()``.
"""

import json
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
import uuid

import sqlalchemy as sa

from tests.functional import procs
from tests import timeouts

PG_BIN = '/usr/lib/postgresql/15/bin'
ETCD = '/usr/bin/etcd'
PATRONI = '/usr/bin/patroni'
MEMBERS = ('pg1', 'pg2')

# Patroni's timing (its defaults are ttl 30, loop_wait 10,
# retry_timeout 10; the rule is ttl >= loop_wait + 2 * retry_timeout).
# The leader key lives ``ttl`` seconds without a renewal: a dead
# primary's standby takes over between ttl - loop_wait and ttl seconds
# after the death, plus its promotion.
TTL = 10
LOOP_WAIT = 2
RETRY_TIMEOUT = 4


def missing():
    """What this machine lacks to run the cluster (None: nothing)."""
    for path in (os.path.join(PG_BIN, 'postgres'), ETCD, PATRONI,
                 HAPROXY):
        if not os.path.exists(path):
            return '%s is not installed' % path
    if os.geteuid() == 0:
        try:
            pwd.getpwnam('postgres')
        except KeyError:
            return 'no postgres user to run PostgreSQL as (running as root)'
    return None


def _children(parent):
    """The pids of the processes whose parent is ``parent``."""
    found = []
    for entry in os.listdir('/proc'):
        if not entry.isdigit():
            continue
        try:
            with open('/proc/%s/stat' % entry) as f:
                # pid (comm) state ppid ...: comm may hold spaces.
                ppid = int(f.read().rsplit(')', 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        if ppid == parent:
            found.append(int(entry))
    return found


def _postgres_pids(data_dir):
    """The postmaster of ``data_dir`` and its children."""
    try:
        with open(os.path.join(data_dir, 'postmaster.pid')) as f:
            postmaster = int(f.readline())
    except (OSError, ValueError):
        return []
    return [postmaster] + _children(postmaster)


def _kill(pids):
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def _http_json(url, timeout=5):
    """(status, parsed body) of a GET; (None, error) when unreachable."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as resp:
            return resp.status, json.loads(resp.read() or b'null')
    except urllib.error.HTTPError as err:
        try:
            return err.code, json.loads(err.read() or b'null')
        except ValueError:
            return err.code, None
    except (OSError, ValueError) as err:
        return None, err


class Process(object):
    """A process in a session of its own, logging to a file."""

    def __init__(self, args, log_path, user=None, env=None):
        self.log_path = log_path
        self._log = open(log_path, 'ab')
        if user is not None:
            args = ['runuser', '-u', user, '--'] + list(args)
        self.proc = subprocess.Popen(args, stdout=self._log,
                                     stderr=subprocess.STDOUT,
                                     start_new_session=True, env=env)

    def alive(self):
        return self.proc.poll() is None

    def kill(self):
        """kill -9 of the whole process group (a dead host)."""
        procs.kill_group(self.proc)
        self._log.close()

    def log(self):
        with open(self.log_path, 'rb') as f:
            return f.read().decode(errors='replace')


class PatroniCluster(object):
    """etcd + two Patroni members; ``start()``, then ``stop()``."""

    def __init__(self, workdir, synchronous=True):
        self.workdir = workdir
        self.user = None
        if os.geteuid() == 0:
            # PostgreSQL refuses to run as root: its files belong to
            # postgres, in a directory postgres can reach.
            self.user = 'postgres'
            self.base = tempfile.mkdtemp(prefix='ironic-lite-patroni-')
            entry = pwd.getpwnam(self.user)
            os.chown(self.base, entry.pw_uid, entry.pw_gid)
            with open(os.path.join(workdir, 'patroni-dir'), 'w') as f:
                f.write(self.base + '\n')
        else:
            self.base = os.path.join(workdir, 'patroni')
            os.makedirs(self.base)
        self.synchronous = synchronous
        self.scope = 'ironic-lite-%s' % uuid.uuid4().hex[:8]
        self.etcd_port = procs.free_port()
        self.etcd_peer_port = procs.free_port()
        self.pg_ports = {m: procs.free_port() for m in MEMBERS}
        self.rest_ports = {m: procs.free_port() for m in MEMBERS}
        self.etcd = None
        self.haproxy = None
        self.haproxy_port = None
        self.members = {}       # name -> Process (patroni and its postgres)

    # -- configuration ----------------------------------------------------

    def member_config(self, name):
        """Patroni's YAML (as JSON, a subset of YAML) for ``name``."""
        home = os.path.join(self.base, name)
        trust = ['local all all trust',
                 'host all all 127.0.0.1/32 trust',
                 'host replication all 127.0.0.1/32 trust']
        return {
            'scope': self.scope,
            'name': name,
            'log': {'level': 'INFO'},
            'restapi': {
                'listen': '127.0.0.1:%d' % self.rest_ports[name],
                'connect_address': '127.0.0.1:%d' % self.rest_ports[name]},
            'etcd3': {'hosts': ['127.0.0.1:%d' % self.etcd_port]},
            'bootstrap': {
                'dcs': {
                    'ttl': TTL, 'loop_wait': LOOP_WAIT,
                    'retry_timeout': RETRY_TIMEOUT,
                    'maximum_lag_on_failover': 1048576,
                    # See the module's docstring and the HA guide.
                    'synchronous_mode': self.synchronous,
                    'synchronous_mode_strict': False,
                    'postgresql': {
                        'use_pg_rewind': True,
                        'use_slots': True,
                        'parameters': {
                            'max_connections': 200,
                            'wal_level': 'replica',
                            'hot_standby': 'on',
                            'wal_log_hints': 'on',
                            'max_wal_senders': 10,
                            'max_replication_slots': 10,
                            'synchronous_commit': 'on'}}},
                'initdb': [{'encoding': 'UTF8'}, {'auth': 'trust'}],
            },
            'postgresql': {
                'listen': '127.0.0.1:%d' % self.pg_ports[name],
                'connect_address': '127.0.0.1:%d' % self.pg_ports[name],
                'data_dir': os.path.join(home, 'data'),
                'bin_dir': PG_BIN,
                'pgpass': os.path.join(home, 'pgpass'),
                'authentication': {
                    'superuser': {'username': 'postgres',
                                  'password': 'postgres'},
                    'replication': {'username': 'postgres',
                                    'password': 'postgres'}},
                'pg_hba': trust,
                'parameters': {
                    'unix_socket_directories': home,
                    'fsync': 'on'},
            },
            'tags': {'nofailover': False, 'noloadbalance': False,
                     'clonefrom': False, 'nosync': False},
        }

    def _write_member(self, name):
        home = os.path.join(self.base, name)
        os.makedirs(home, exist_ok=True)
        path = os.path.join(home, 'patroni.yml')
        with open(path, 'w') as f:
            json.dump(self.member_config(name), f, indent=1)
        if self.user:
            entry = pwd.getpwnam(self.user)
            for item in (home, path):
                os.chown(item, entry.pw_uid, entry.pw_gid)
        return path

    # -- processes --------------------------------------------------------

    def start(self):
        """etcd, then both members; returns once pg2 streams from pg1
        as its synchronous standby."""
        data = os.path.join(self.base, 'etcd')
        self.etcd = Process(
            [ETCD, '--name', 'etcd-ha', '--data-dir', data,
             '--listen-client-urls', 'http://127.0.0.1:%d' % self.etcd_port,
             '--advertise-client-urls',
             'http://127.0.0.1:%d' % self.etcd_port,
             '--listen-peer-urls', 'http://127.0.0.1:%d'
             % self.etcd_peer_port,
             '--initial-advertise-peer-urls', 'http://127.0.0.1:%d'
             % self.etcd_peer_port,
             '--initial-cluster', 'etcd-ha=http://127.0.0.1:%d'
             % self.etcd_peer_port],
            os.path.join(self.workdir, 'etcd.log'))
        procs.wait_for(self._etcd_ready, what='etcd on %d' % self.etcd_port)
        self.start_member('pg1')
        procs.wait_for(lambda: self.primary() == 'pg1', interval=0.5,
                       what='pg1 bootstrapped as the primary')
        self.start_member('pg2')
        self.wait_replicated('pg2')

    def _etcd_ready(self):
        if not self.etcd.alive():
            raise AssertionError('etcd died:\n%s' % self.etcd.log())
        status, _ = _http_json('http://127.0.0.1:%d/health'
                               % self.etcd_port)
        return status == 200

    def start_member(self, name):
        path = self._write_member(name)
        env = dict(os.environ, PATH='/usr/sbin:/usr/bin:/sbin:/bin')
        # Patroni's own Python (the system's), not the test venv's.
        env.pop('PYTHONPATH', None)
        env.pop('VIRTUAL_ENV', None)
        self.members[name] = Process(
            [PATRONI, path], os.path.join(self.workdir, '%s.log' % name),
            user=self.user, env=env)
        return self.members[name]

    def kill_member(self, name):
        """kill -9 of Patroni, its PostgreSQL and every backend: the
        member's host dies.  (PostgreSQL's processes each have a session
        of their own: a backend outliving its postmaster would keep its
        client's connection open a little longer than a dead host.)"""
        pids = _postgres_pids(os.path.join(self.base, name, 'data'))
        self.members[name].kill()
        _kill(pids)

    def kill_postgres(self, name):
        """kill -9 of the member's PostgreSQL (postmaster and backends);
        its Patroni lives on."""
        pids = _postgres_pids(os.path.join(self.base, name, 'data'))
        assert pids, 'no PostgreSQL running for %s' % name
        _kill(pids)

    def kill_patroni(self, name):
        """kill -9 of the member's Patroni alone: its PostgreSQL runs on,
        unmanaged (what a watchdog would turn into a dead host)."""
        runner = self.members[name].proc.pid
        # As root, Patroni runs under runuser: kill Patroni itself.
        pids = _children(runner) if self.user else [runner]
        assert pids, 'no Patroni running for %s' % name
        _kill(pids)

    def stop(self):
        """Kill every process; remove the cluster's directory."""
        for name in list(self.members):
            self.kill_member(name)
        for extra in (self.haproxy, self.etcd):
            if extra is not None:
                extra.kill()
        if self.base != os.path.join(self.workdir, 'patroni'):
            # Keep the members' own logs beside the test's.
            shutil.rmtree(self.base, ignore_errors=True)

    # -- state ------------------------------------------------------------

    def rest(self, name, path):
        return _http_json('http://127.0.0.1:%d%s'
                          % (self.rest_ports[name], path))

    def cluster_state(self):
        """Patroni's /cluster, asked of any member that answers."""
        for name in self.members:
            if self.members[name].alive():
                status, body = self.rest(name, '/cluster')
                if status == 200:
                    return body
        return None

    def primary(self):
        """The name of the member that is the running leader, or None."""
        state = self.cluster_state() or {}
        for member in state.get('members', []):
            if member.get('role') == 'leader' and \
                    member.get('state') == 'running':
                return member['name']
        return None

    def sync_standby(self):
        state = self.cluster_state() or {}
        for member in state.get('members', []):
            if member.get('role') == 'sync_standby' and \
                    member.get('state') in ('running', 'streaming'):
                return member['name']
        return None

    def wait_replicated(self, name):
        def streaming():
            if not self.members[name].alive():
                raise AssertionError('%s died:\n%s' % (
                    name, self.members[name].log()[-4000:]))
            state = self.cluster_state() or {}
            for member in state.get('members', []):
                if member['name'] != name:
                    continue
                role = member.get('role')
                wanted = 'sync_standby' if self.synchronous else 'replica'
                return role == wanted and member.get('state') in (
                    'running', 'streaming')
            return False
        procs.wait_for(streaming, interval=0.5,
                       what='%s streaming from the primary' % name)

    # -- URLs -------------------------------------------------------------

    def member_url(self, name, database='postgres'):
        return 'postgresql+psycopg2://postgres@127.0.0.1:%d/%s' % (
            self.pg_ports[name], database)

    def db_url(self, database, connect_timeout=2):
        """libpq's multi-host URL: the first of the members that accepts
        read-write sessions, whichever it is."""
        hosts = '&'.join('host=127.0.0.1:%d' % self.pg_ports[m]
                         for m in MEMBERS)
        return ('postgresql+psycopg2://postgres@/%s?%s'
                '&target_session_attrs=read-write&connect_timeout=%d'
                % (database, hosts, connect_timeout))


# HAProxy in front of the members, as Patroni documents it: a member is
# in service while its Patroni's REST API answers 200 to /primary (it is
# the running leader); the connections to a member taken out of service
# are cut.
HAPROXY_CONFIG = """global
    maxconn 400
defaults
    mode tcp
    timeout connect 2s
    timeout client 30m
    timeout server 30m
    timeout check 1s
listen postgres-primary
    bind 127.0.0.1:%(port)d
    option httpchk OPTIONS /primary
    http-check expect status 200
    default-server inter 1s fall 2 rise 1 on-marked-down shutdown-sessions
%(servers)s
"""
HAPROXY = '/usr/sbin/haproxy'


def _haproxy_servers(cluster):
    return '\n'.join(
        '    server %s 127.0.0.1:%d maxconn 200 check port %d'
        % (m, cluster.pg_ports[m], cluster.rest_ports[m]) for m in MEMBERS)


def start_haproxy(cluster):
    """HAProxy on a port of its own, in front of ``cluster``'s members;
    returns its URL base (``haproxy_url``)."""
    cluster.haproxy_port = procs.free_port()
    path = os.path.join(cluster.workdir, 'haproxy.cfg')
    with open(path, 'w') as f:
        f.write(HAPROXY_CONFIG % {'port': cluster.haproxy_port,
                                  'servers': _haproxy_servers(cluster)})
    cluster.haproxy = Process([HAPROXY, '-db', '-f', path],
                              os.path.join(cluster.workdir, 'haproxy.log'))

    def ready():
        if not cluster.haproxy.alive():
            raise AssertionError('haproxy died:\n%s' % cluster.haproxy.log())
        engine = sa.create_engine(haproxy_url(cluster, 'postgres'))
        try:
            with engine.connect() as conn:
                return conn.execute(sa.text('SELECT 1')).scalar() == 1
        except sa.exc.OperationalError:
            return False
        finally:
            engine.dispose()
    procs.wait_for(ready, interval=0.5, what='HAProxy to the primary')


def haproxy_url(cluster, database):
    return 'postgresql+psycopg2://postgres@127.0.0.1:%d/%s' % (
        cluster.haproxy_port, database)


def wait_until(predicate, bound=timeouts.HANG, interval=0.2,
               what='condition'):
    """Seconds until ``predicate()`` holds (AssertionError after a hang's
    bound)."""
    began = time.monotonic()
    procs.wait_for(predicate, timeout=bound, interval=interval, what=what)
    return time.monotonic() - began
