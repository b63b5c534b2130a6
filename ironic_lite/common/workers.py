"""Several API processes on one listening socket, supervised.

One Python process runs its requests under one lock (the GIL): at 50
compute services and 10 agents the API sat at 95 % of one core on a
two-core machine.  ``[api]api_workers`` processes (Ironic's meaning of
the option) share the work instead.  The parent process:

* binds the listening socket once (``listen_socket``) -- the workers
  accept from it, and the kernel hands each connection to one of them;
* starts the workers with ``fork`` before it has opened anything else:
  no database engine, RPC transport or thread exists in the parent, so
  none crosses a fork -- each worker builds its application, its
  database pool and its RPC client itself;
* starts a worker again when one is killed (a signal: not faster than
  once per RESTART_DELAY seconds for each worker); a worker that exits
  with an error code could not start (its services refused or failed to
  start: the database is out of reach, an older release is alive and the
  API is not pinned, ...) -- the parent then stops the others and exits
  with that code, as one ironic-api that cannot start does, and the
  service manager decides what comes next;
* on SIGTERM or SIGINT, closes its copy of the socket and passes the
  signal to every worker: each drains as a single ironic-api does (stops
  accepting, answers what it accepted, exits 0), and the parent exits
  once they have: 0 when every worker stopped cleanly, 1 otherwise,
  ``launcher.EXIT_STOP_TIMED_OUT`` if a worker outlived
  ``[DEFAULT]graceful_shutdown_timeout`` (and was killed);
* on SIGHUP, passes the signal to every worker, each of which reloads
  its configuration as one ironic-api does;
* if it is killed (SIGKILL), its workers get SIGTERM from the kernel
  (Linux's parent-death signal) and drain as above.
"""

import ctypes
import ctypes.util
import os
import signal
import socket
import threading
import time

from oslo_log import log as logging

from ironic_lite.common import launcher
from ironic_lite import conf

CONF = conf.CONF
LOG = logging.getLogger(__name__)

# Seconds between two starts of one worker.
RESTART_DELAY = 1.0
# How often the parent looks for workers that ended.
_POLL = 0.2
# Beyond graceful_shutdown_timeout, how long the parent waits for its
# workers' own watchdogs (common/launcher.py) before it kills them.
_STOP_MARGIN = 5.0
BACKLOG = 128
# prctl(2): the signal a process gets when its parent ends.
_PR_SET_PDEATHSIG = 1


def listen_socket(host, port):
    """A TCP socket listening on host:port (to share with the workers)."""
    family, kind, proto, _name, address = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(BACKLOG)
    except OSError:
        sock.close()
        raise
    return sock


class Supervisor(object):
    """Runs ``run_worker(index)`` in ``count`` child processes."""

    def __init__(self, count, run_worker, sock=None):
        self.count = count
        self.run_worker = run_worker
        self.sock = sock
        self.pids = {}          # pid -> worker index
        self._started = {}      # worker index -> time.monotonic()
        self._stopping = False
        self._hup = False
        self._codes = []        # exit codes of workers during the stop
        self._failed = None     # the exit code of a worker that failed

    def _on_stop(self, signum, frame):
        self._stopping = True

    def _on_hup(self, signum, frame):
        self._hup = True

    def run(self):
        """Start the workers, supervise them until SIGTERM/SIGINT, then
        drain them; the exit code."""
        if threading.active_count() > 1:
            LOG.warning('Starting API workers from a process with %d '
                        'threads', threading.active_count())
        previous = {sig: signal.signal(sig, self._on_stop)
                    for sig in (signal.SIGTERM, signal.SIGINT)}
        previous[signal.SIGHUP] = signal.signal(signal.SIGHUP, self._on_hup)
        try:
            for index in range(self.count):
                self._spawn(index)
            while not self._stopping:
                self._supervise()
                time.sleep(_POLL)
            return self._stop()
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)

    def _spawn(self, index):
        """Fork worker ``index``."""
        self._started[index] = time.monotonic()
        parent = os.getpid()
        pid = os.fork()
        if pid == 0:   # the worker: never returns into the parent's code
            code = 1
            try:
                for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
                    signal.signal(sig, signal.SIG_DFL)
                _stop_with_parent(parent)
                code = self.run_worker(index)
            except BaseException:
                LOG.exception('API worker %s failed', index)
            finally:
                launcher.flush_logs()
                os._exit(code if isinstance(code, int) else 1)
        self.pids[pid] = index
        LOG.info('Started API worker %s (pid %s)', index, pid)

    def _supervise(self):
        if self._hup:
            self._hup = False
            LOG.info('Caught SIGHUP: the API workers reload their '
                     'configuration')
            self._signal_all(signal.SIGHUP)
        for pid, status in self._reap():
            index = self.pids.pop(pid)
            code = os.waitstatus_to_exitcode(status)
            if code > 0:
                LOG.error('API worker %s (pid %s) could not start (%s): '
                          'stopping the others', index, pid,
                          _describe(status))
                self._failed = code
                self._stopping = True
            else:
                LOG.warning('API worker %s (pid %s) ended (%s); starting '
                            'another', index, pid, _describe(status))
        if self._stopping:
            return
        due = {index for index in range(self.count)
               if index not in self.pids.values()}
        now = time.monotonic()
        for index in sorted(due):
            if now - self._started.get(index, 0) >= RESTART_DELAY:
                self._spawn(index)

    def _reap(self):
        """The workers that ended: [(pid, wait status)]."""
        ended = []
        while self.pids:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:   # none left (reaped elsewhere)
                known = {pid for pid, _status in ended}
                ended.extend((pid, 0) for pid in self.pids
                             if pid not in known)
                break
            if pid == 0:
                break
            if pid in self.pids:
                ended.append((pid, status))
        return ended

    def _signal_all(self, signum):
        for pid in list(self.pids):
            try:
                os.kill(pid, signum)
            except ProcessLookupError:
                pass

    def _stop(self):
        LOG.info('Stopping %d API workers: each finishes the requests in '
                 'flight', len(self.pids))
        if self.sock is not None:
            self.sock.close()
        self._signal_all(signal.SIGTERM)
        timeout = CONF.graceful_shutdown_timeout
        deadline = (time.monotonic() + timeout + _STOP_MARGIN
                    if timeout > 0 else None)
        while self.pids:
            for pid, status in self._reap():
                del self.pids[pid]
                self._codes.append(os.waitstatus_to_exitcode(status))
            if self.pids and deadline and time.monotonic() > deadline:
                LOG.error('API workers %s did not stop within [DEFAULT]'
                          'graceful_shutdown_timeout; killing them',
                          sorted(self.pids))
                self._signal_all(signal.SIGKILL)
                self._codes.append(launcher.EXIT_STOP_TIMED_OUT)
                deadline = None
            time.sleep(_POLL / 4)
        if launcher.EXIT_STOP_TIMED_OUT in self._codes:
            return launcher.EXIT_STOP_TIMED_OUT
        if self._failed is not None:
            return self._failed
        return 0 if all(code == 0 for code in self._codes) else 1


def _stop_with_parent(parent):
    """A worker is sent SIGTERM when its parent dies (Linux), so that a
    parent killed with SIGKILL leaves no worker holding the port."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library('c'), use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):
        LOG.debug('No prctl: a worker outlives a killed parent')
    if os.getppid() != parent:   # died before the prctl
        os.kill(os.getpid(), signal.SIGTERM)


def _describe(status):
    code = os.waitstatus_to_exitcode(status)
    if code < 0:
        return 'signal %s' % signal.Signals(-code).name
    return 'exit code %s' % code
