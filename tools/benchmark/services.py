"""The ironic-lite processes the benchmark talks to.

Two layouts:

* ``split`` (default): ``ironic-api`` and ``ironic-conductor`` as separate
  processes over RabbitMQ, as deployed.  The API process is measured on
  its own (no conductor threads share its interpreter lock) and a PATCH
  pays the real RPC round trip.  The topic and control exchange are unique
  to the run, so parallel runs on one broker cannot answer each other.
* ``lite``: ``ironic-lite``, API and conductor in one process with the
  in-process ``fake://`` transport (no broker needed).

The conductor's periodic tasks over all nodes (power sync, stuck
provisioning check) are switched off: they would compete for the two
cores with the requests being timed.
"""

import os
import signal
import socket
import subprocess
import sys
import time
import http.client

BIN = os.path.dirname(sys.executable)
RABBIT = 'rabbit://guest:guest@127.0.0.1:5672/'


def free_port():
    with socket.socket() as sock:
        sock.bind(('127.0.0.1', 0))
        return sock.getsockname()[1]


def write_config(path, db_url, port, mode, api_threads=8, extra=(),
                 api_workers=1):
    """The ironic.conf of the run; returns its path.  ``extra``:
    "section.option=value" settings added to it (--lite-option)."""
    run = 'bench%d%d' % (os.getpid(), port)
    sections = {
        'DEFAULT': {
            'auth_strategy': 'noauth',
            'host': 'bench-%s' % run,
            'transport_url': RABBIT if mode == 'split' else 'fake://',
            'control_exchange': 'ironic_%s' % run,
            'use_stderr': 'true',
        },
        # The API's own defaults otherwise (no per-address cap: every
        # client of a benchmark connects from 127.0.0.1, standing for
        # many hosts).
        # One API process unless asked (``ironic-lite`` is always one).
        'api': {'host_ip': '127.0.0.1', 'port': port,
                'threads': api_threads, 'api_workers': api_workers},
        'conductor': {'topic': 'ironic.conductor_manager.%s' % run,
                      'sync_power_state_interval': 0,
                      'check_provision_state_interval': 0},
        'database': {'connection': db_url},
    }
    for setting in extra:
        name, _, value = setting.partition('=')
        section, _, option = name.rpartition('.')
        sections.setdefault(section or 'DEFAULT', {})[option] = value
    with open(path, 'w') as f:
        for section, values in sections.items():
            f.write('[%s]\n' % section)
            for key, value in values.items():
                f.write('%s = %s\n' % (key, value))
            f.write('\n')
    return path


def json_rpc_settings():
    """The ``extra`` settings (``write_config``) of a split layout over
    ironic-lite's JSON-RPC instead of RabbitMQ: the conductor listens on
    a free loopback port and names itself by it, so that the API's
    client finds it by its host name (as Ironic's does)."""
    rpc_port = free_port()
    return ['rpc_transport=json-rpc', 'json_rpc.auth_strategy=noauth',
            'json_rpc.host_ip=127.0.0.1', 'json_rpc.port=%d' % rpc_port,
            'host=127.0.0.1:%d' % rpc_port]


class Process(object):
    """A console script of this venv, its output in a log file."""

    def __init__(self, name, config_file, log_dir, env=None,
                 executable=None, log_name=None):
        self.name = name
        self.log_path = os.path.join(log_dir, '%s.log' % (log_name or name))
        self._log = open(self.log_path, 'ab')
        self.proc = subprocess.Popen(
            [executable or os.path.join(BIN, name),
             '--config-file', config_file],
            stdout=self._log, stderr=subprocess.STDOUT,
            env=dict(os.environ, **(env or {})))

    def alive(self):
        return self.proc.poll() is None

    def log_tail(self, lines=40):
        with open(self.log_path, 'rb') as f:
            return b'\n'.join(f.read().splitlines()[-lines:]).decode(
                errors='replace')

    def stop(self, timeout=30):
        if self.alive():
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._log.close()


def start(mode, config_file, log_dir, env=None):
    """Start the services of ``mode``, each with ``env`` added to this
    process's environment; returns the processes."""
    if mode == 'lite':
        return [Process('ironic-lite', config_file, log_dir, env)]
    return [Process('ironic-conductor', config_file, log_dir, env),
            Process('ironic-api', config_file, log_dir, env)]


def wait_ready(procs, port, timeout=90):
    """Until the API answers and a conductor is registered (so a PATCH
    can be routed)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for proc in procs:
            if not proc.alive():
                raise RuntimeError('%s exited:\n%s' % (proc.name,
                                                       proc.log_tail()))
        try:
            conn = http.client.HTTPConnection('127.0.0.1', port, timeout=5)
            conn.request('GET', '/v1/conductors',
                         headers={'X-OpenStack-Ironic-API-Version': '1.82'})
            resp = conn.getresponse()
            body = resp.read()
            conn.close()
            if resp.status == 200 and b'"hostname"' in body:
                return
        except OSError:
            pass
        time.sleep(0.3)
    raise RuntimeError('the services did not become ready in %ss' % timeout)


def stop(procs):
    for proc in reversed(procs):
        proc.stop()


def _children(pid):
    """The pids of ``pid``'s child processes (Linux /proc)."""
    kids = []
    for entry in os.listdir('/proc'):
        if not entry.isdigit():
            continue
        try:
            with open('/proc/%s/stat' % entry) as f:
                fields = f.read().rsplit(')', 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            kids.append(int(entry))
    return kids


def _rss_kb(pid):
    try:
        with open('/proc/%d/status' % pid) as f:
            for line in f:
                if line.startswith('VmRSS:'):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def rss_mb(procs):
    """{process name: resident MB}; a process's children (a launcher's
    worker) count with it."""
    return {name: sum(each)
            for name, each in rss_per_process_mb(procs).items()}


def rss_per_process_mb(procs):
    """{process name: [resident MB of the process, then of each of its
    children]}: what one API worker process holds, beside its parent."""
    return {proc.name: [_rss_kb(pid) / 1024.0 for pid in
                        [proc.proc.pid] + sorted(_children(proc.proc.pid))]
            for proc in procs}
