"""HAProxy in front of a Galera cluster (one writer) and of the APIs.

``HAProxy(workdir)``, then ``single_writer(...)`` and/or
``round_robin(...)`` add a ``listen`` section each and return the port
it binds; ``start()`` writes the file and runs ``haproxy -db`` (its own
process group), ``stop()`` kills it.  ``servers(name)`` reads the
servers' states from the admin socket.

The writer section is what Ironic's and kolla-ansible's documentation
recommend for Galera: every client on one member, the others ``backup``
servers, so that two members never take writes at once (two writers
would turn row locks into certification failures).  The health check
is an HTTP one on the member's clustercheck port (200 only when Synced),
as kolla's ``mariadb_clustercheck``; its timings are the test's
(``inter``/``fall``, kolla's are 2 s and 5) and set how long a dead
writer keeps its clients: ``fall`` checks ``inter`` apart.
"""

import os
import signal
import socket
import subprocess

from tests.functional import procs
from tests import timeouts

HAPROXY = '/usr/sbin/haproxy'

GLOBAL = """\
global
    maxconn 4000
    stats socket {socket} mode 600 level admin
    log stdout format raw local0 info

defaults
    timeout connect 2s
    timeout client 1h
    timeout server 1h
    # A member's check may stall for seconds while the group evicts a
    # dead one: slow is not down.
    timeout check 10s
    retries 3
    option redispatch
    log global
"""

WRITER = """
listen {name}
    bind 127.0.0.1:{port}
    mode tcp
    option tcplog
    option tcpka
    option httpchk GET /
    default-server inter {inter}ms rise 2 fall {fall} on-marked-down \
shutdown-sessions
"""

# The primary comes back: the clients on a backup are cut (they reconnect
# to the primary), or two members would take writes at once.
WRITER_PRIMARY = ('    server {label} {address} check port {check} '
                  'on-marked-up shutdown-backup-sessions\n')
WRITER_BACKUP = '    server {label} {address} check port {check} backup\n'

ROUND_ROBIN = """
listen {name}
    bind 127.0.0.1:{port}
    mode http
    option httplog
    balance roundrobin
    option httpchk GET /
    # A connection refused is retried on another server (safe for any
    # method: the request never reached a server).
    retry-on conn-failure
    default-server inter {inter}ms rise 2 fall {fall}
"""
SERVER = '    server {label} {address} check\n'


def missing():
    return [] if os.path.exists(HAPROXY) else [HAPROXY]


class HAProxy(object):
    def __init__(self, workdir, inter=500, fall=2):
        self.workdir = workdir
        self.inter, self.fall = inter, fall
        self.socket = os.path.join(workdir, 'haproxy.sock')
        self.config_path = os.path.join(workdir, 'haproxy.cfg')
        self.log_path = os.path.join(workdir, 'haproxy.log')
        self._sections = []
        self.proc = None

    def single_writer(self, name, servers):
        """``servers``: [(label, 'host:port', clustercheck port)], the
        first the writer, the others its backups, in that order."""
        port = procs.free_port()
        text = WRITER.format(name=name, port=port, inter=self.inter,
                             fall=self.fall)
        for i, (label, address, check) in enumerate(servers):
            line = WRITER_BACKUP if i else WRITER_PRIMARY
            text += line.format(label=label, address=address, check=check)
        self._sections.append(text)
        return port

    def round_robin(self, name, servers):
        """``servers``: [(label, 'host:port')] of HTTP services."""
        port = procs.free_port()
        text = ROUND_ROBIN.format(name=name, port=port, inter=self.inter,
                                  fall=self.fall)
        for label, address in servers:
            text += SERVER.format(label=label, address=address)
        self._sections.append(text)
        return port

    def start(self):
        with open(self.config_path, 'w') as f:
            f.write(GLOBAL.format(socket=self.socket))
            f.writelines(self._sections)
        procs.run_command(HAPROXY, '-c', '-f', self.config_path)
        with open(self.log_path, 'ab') as log:
            self.proc = subprocess.Popen(
                [HAPROXY, '-db', '-f', self.config_path], stdout=log,
                stderr=subprocess.STDOUT, start_new_session=True)
        procs.wait_for(lambda: self._answers(), what='HAProxy admin socket')

    def _answers(self):
        if self.proc.poll() is not None:
            raise AssertionError('haproxy exited %s' % self.proc.returncode)
        return os.path.exists(self.socket) and self.command('show info')

    def command(self, line):
        """One admin socket command; its answer."""
        with socket.socket(socket.AF_UNIX) as sock:
            sock.settimeout(timeouts.HANG)
            sock.connect(self.socket)
            sock.sendall(line.encode() + b'\n')
            chunks = []
            while True:
                data = sock.recv(65536)
                if not data:
                    break
                chunks.append(data)
        return b''.join(chunks).decode()

    def servers(self, name):
        """{server label: 'UP'/'DOWN'/...} of section ``name``."""
        found = {}
        for line in self.command('show stat').splitlines():
            fields = line.split(',')
            if len(fields) > 17 and fields[0] == name and fields[1] not in (
                    'FRONTEND', 'BACKEND'):
                found[fields[1]] = fields[17]
        return found

    def active(self, name):
        """The label of the server taking ``name``'s clients: the first
        server UP (the writer, else the first backup up)."""
        for label, state in self.servers(name).items():
            if state.startswith('UP'):
                return label
        return None

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeouts.HANG)
