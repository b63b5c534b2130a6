"""A three-node RabbitMQ 3.10 cluster on this host, for the HA tests.

Each member is its own ``rabbitmq-server`` (its own node name, AMQP and
distribution ports, data and log directories, config files), started in
a process group of its own so that ``kill`` can ``kill -9`` the whole
node (beam and its helpers) as a crashed host would lose it.  The members
share an Erlang cookie through ``HOME`` (the work directory), which the
CLI tools (``rabbitmqctl``) run with too.  The shared broker of the other
test levels (127.0.0.1:5672, node ``rabbit@localhost``) is never touched:
only the host's ``epmd`` is shared, under other node names.

``OSLO_OPTIONS`` is the ``[oslo_messaging_rabbit]`` section that kolla-
ansible writes for quorum queues, as this oslo.messaging (18.x) and
RabbitMQ 3.10 support it (doc/source/admin/high-availability.rst).
"""

import json
import os
import subprocess
import uuid

from tests import conftest as shared
from tests.functional import procs
from tests import timeouts

RABBITMQ_BIN = '/usr/lib/rabbitmq/bin'
SERVER = os.path.join(RABBITMQ_BIN, 'rabbitmq-server')
CTL = os.path.join(RABBITMQ_BIN, 'rabbitmqctl')

# kolla-ansible's oslo.messaging settings for a RabbitMQ cluster with
# quorum queues (om_enable_rabbitmq_quorum_queues and the options that
# came after it).  oslo.messaging refuses rabbit_stream_fanout without
# a prefetch count and without transient quorum queues.  Streams are a
# core queue type of RabbitMQ since 3.9: AMQP 0-9-1 clients (kombu) use
# them without the rabbitmq_stream plugin (that plugin serves the
# binary stream protocol only).
OSLO_OPTIONS = {
    'rabbit_quorum_queue': True,
    'rabbit_transient_quorum_queue': True,
    'rabbit_stream_fanout': True,
    'use_queue_manager': True,
    'rabbit_qos_prefetch_count': 50,
}


def missing():
    """Why the cluster cannot run here (None when it can)."""
    for path in (SERVER, CTL):
        if not os.access(path, os.X_OK):
            return '%s is not installed (Debian: rabbitmq-server)' % path
    return None


class Node(object):
    def __init__(self, cluster, index):
        self.index = index
        self.name = 'ha%s-%d@localhost' % (cluster.tag, index)
        self.port = procs.free_port()
        self.dist_port = procs.free_port()
        self.dir = os.path.join(cluster.workdir, 'rabbit-%d' % index)
        self.proc = None
        self._log = None


class RabbitCluster(object):
    """``size`` members joined to the first one; ``start()`` returns once
    every member runs in one cluster."""

    def __init__(self, workdir, size=3):
        self.workdir = workdir
        self.tag = uuid.uuid4().hex[:6]
        self.cookie = 'HACOOKIE%s' % uuid.uuid4().hex.upper()
        self.nodes = [Node(self, i) for i in range(1, size + 1)]
        os.makedirs(workdir, exist_ok=True)
        cookie = os.path.join(workdir, '.erlang.cookie')
        with open(cookie, 'w') as f:
            f.write(self.cookie)
        os.chmod(cookie, 0o400)

    # -- addresses ------------------------------------------------------

    def transport_url(self, user='guest', password='guest'):
        """Every member in one URL: oslo.messaging fails over between
        them (round-robin, kombu_failover_strategy)."""
        return 'rabbit://%s/' % ','.join(
            '%s:%s@127.0.0.1:%d' % (user, password, node.port)
            for node in self.nodes)

    def node(self, name):
        return next(n for n in self.nodes if n.name == name)

    # -- processes ------------------------------------------------------

    def _env(self, node):
        env = dict(os.environ, HOME=self.workdir)
        env.update({
            # Not the host's rabbitmq-env.conf (it names the shared node).
            'RABBITMQ_CONF_ENV_FILE': os.path.join(node.dir, 'env.conf'),
            'RABBITMQ_NODENAME': node.name,
            'RABBITMQ_NODE_IP_ADDRESS': '127.0.0.1',
            'RABBITMQ_NODE_PORT': str(node.port),
            'RABBITMQ_DIST_PORT': str(node.dist_port),
            'RABBITMQ_MNESIA_BASE': os.path.join(node.dir, 'mnesia'),
            'RABBITMQ_LOG_BASE': os.path.join(node.dir, 'log'),
            'RABBITMQ_CONFIG_FILE': os.path.join(node.dir, 'rabbitmq.conf'),
            'RABBITMQ_ENABLED_PLUGINS_FILE': os.path.join(
                node.dir, 'enabled_plugins'),
            'RABBITMQ_PID_FILE': os.path.join(node.dir, 'rabbit.pid'),
            'ERL_FLAGS': '-kernel inet_dist_use_interface {127,0,0,1}',
            # The CLI tools' own distribution port: any free one, not
            # rabbitmq-env's fixed 35672-35682, shared by every CLI call
            # of every parallel run (and open to any process's bind).
            'RABBITMQ_CTL_DIST_PORT_MIN': '0',
            'RABBITMQ_CTL_DIST_PORT_MAX': '0',
        })
        return env

    def _write_files(self, node):
        os.makedirs(node.dir, exist_ok=True)
        with open(os.path.join(node.dir, 'env.conf'), 'w') as f:
            f.write('')
        with open(os.path.join(node.dir, 'enabled_plugins'), 'w') as f:
            f.write('[].\n')
        with open(os.path.join(node.dir, 'rabbitmq.conf'), 'w') as f:
            # kolla's partition handling: the minority side stops
            # serving rather than diverging.
            f.write('listeners.tcp.1 = 127.0.0.1:%d\n'
                    'cluster_partition_handling = pause_minority\n'
                    'log.file.level = info\n' % node.port)

    def _spawn(self, node):
        self._write_files(node)
        node._log = open(os.path.join(node.dir, 'server.out'), 'ab')
        # Not niced (nor the CLI, below): on a machine the other tests
        # load to many times its cores, a member at nice 10 got too little
        # CPU to stop its application within a hang's bound -- and a
        # broker the scheduler starves is not the failure this tests.
        node.proc = subprocess.Popen(
            [SERVER], env=self._env(node),
            stdout=node._log, stderr=subprocess.STDOUT,
            start_new_session=True)

    def ctl(self, node, *args, check=True, timeout=timeouts.HANG):
        """rabbitmqctl against ``node``; returns its stdout."""
        result = subprocess.run(
            [CTL, '-n', node.name, '-q'] + list(args),
            env=self._env(node), capture_output=True, text=True,
            timeout=timeout)
        if check and result.returncode != 0:
            raise AssertionError('rabbitmqctl %s on %s: %s%s' % (
                ' '.join(args), node.name, result.stdout, result.stderr))
        return result.stdout

    def _await_startup(self, node):
        """Wait until the member's RabbitMQ application runs.

        First until its AMQP port accepts (RabbitMQ opens its listeners
        last as it boots), polled from here: each CLI call boots an
        Erlang VM of its own, about half a CPU-second, and a member takes
        minutes to boot on a loaded machine.  Then the CLI's
        ``await_startup``, polled too: a node not yet registered with
        epmd fails it at once."""
        def still_running():
            if not self.alive(node):
                raise AssertionError('%s exited %s: %s' % (
                    node.name, node.proc.returncode, self.server_log(node)))

        def listening():
            still_running()
            return shared.reachable('127.0.0.1', node.port, timeout=1)
        procs.wait_for(listening, interval=0.5,
                       what='%s listening' % node.name)

        def up():
            still_running()
            result = subprocess.run(
                [CTL, '-n', node.name, '-q', 'await_startup', '--timeout',
                 '30'], env=self._env(node), capture_output=True,
                timeout=timeouts.HANG)
            return result.returncode == 0
        procs.wait_for(up, interval=1, what='%s running' % node.name)

    def start(self):
        """Start every member, join them, wait for the cluster whole."""
        for node in self.nodes:
            self._spawn(node)
        for node in self.nodes:
            self._await_startup(node)
        seed = self.nodes[0]
        for node in self.nodes[1:]:
            self.ctl(node, 'stop_app')
            self.ctl(node, 'join_cluster', seed.name)
            self.ctl(node, 'start_app')
        self.wait_whole()

    def running_nodes(self, via=None):
        """Names of the members running, as ``via`` (a live member) sees
        them."""
        via = via or next(n for n in self.nodes if self.alive(n))
        status = json.loads(self.ctl(via, 'cluster_status', '--formatter',
                                     'json'))
        return sorted(status.get('running_nodes', []))

    def wait_whole(self):
        names = sorted(n.name for n in self.nodes)
        procs.wait_for(lambda: self.running_nodes() == names, interval=2,
                       what='all %d RabbitMQ members running' % len(names))

    def alive(self, node):
        return node.proc is not None and node.proc.poll() is None

    def kill(self, node):
        """kill -9 the member's whole process group (its beam, epmd is
        the host's)."""
        procs.kill_group(node.proc)
        node._log.close()

    def restart(self, node):
        """Start a killed member again: it rejoins the cluster from its
        own data directory."""
        self._spawn(node)
        self._await_startup(node)
        self.wait_whole()

    def stop_all(self):
        """Kill every member (the test is over: its data goes with the
        tmp_path)."""
        for node in self.nodes:
            if node.proc is not None and node.proc.poll() is None:
                self.kill(node)
            elif node._log is not None and not node._log.closed:
                node._log.close()

    def server_log(self, node, tail=4000):
        path = os.path.join(node.dir, 'log', '%s.log' % node.name)
        if not os.path.exists(path):
            path = os.path.join(node.dir, 'server.out')
        try:
            with open(path, errors='replace') as f:
                return f.read()[-tail:]
        except OSError:
            return ''

    # -- queues ---------------------------------------------------------

    def queues(self, via=None):
        """[{name, type, leader, members}] of the default vhost."""
        via = via or next(n for n in self.nodes if self.alive(n))
        out = self.ctl(via, 'list_queues', 'name', 'type', 'leader',
                       'members', '--formatter', 'json')
        return json.loads(out or '[]')

    def connections_to(self, node, via=None):
        """How many client connections ``node`` serves."""
        via = via or node
        out = self.ctl(via, 'list_connections', 'port', '--formatter',
                       'json')
        return sum(1 for row in json.loads(out or '[]')
                   if row.get('port') == node.port)

    def leader_of(self, queue, via=None):
        """The member that leads quorum queue ``queue`` (None when there
        is no such queue, or no leader right now)."""
        for row in self.queues(via):
            if row.get('name') == queue:
                leader = row.get('leader')
                return leader if leader and leader != '' else None
        return None


def shm_files(hostnames):
    """oslo.messaging's queue manager counters (/dev/shm/<hostname>_
    <processname>_qmanager) of these hostnames."""
    try:
        names = os.listdir('/dev/shm')
    except OSError:
        return []
    return [os.path.join('/dev/shm', n) for n in names
            if any(n.startswith(h + '_') for h in hostnames)]


def remove_files(paths):
    for path in paths:
        try:
            os.unlink(path)
        except OSError:
            pass
