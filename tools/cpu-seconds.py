#!/usr/bin/env python3
"""The CPU-seconds a command burns, its whole process tree included.

The functional level is bound by CPU throughput on a small machine, and
wall time says little while other work loads it: what a test file costs
is the CPU time of pytest and of every process its tests start.  This
runs a command as a child subreaper (Linux prctl PR_SET_CHILD_SUBREAPER),
so that the daemons a test forgets or double-forks are reparented here,
reaps every descendant, and prints user+system seconds from getrusage
(RUSAGE_CHILDREN: every reaped descendant's, through the waits between).

    tools/cpu-seconds.py CMD ARG...          one command
    tools/cpu-seconds.py TEST_FILE...        pytest on each file (tests/...)
                                            in turn with this python, a line
                                            per file and a total

    CPU_SECONDS_TOP=N tools/cpu-seconds.py ...
                            also the N processes of the tree that burnt
                            most (sampled from /proc twice a second, so
                            a process of less than half a second may be
                            missed there; the totals miss nothing)

A descendant still running 30 s after the command ended is killed and
named (its CPU then counts, as a leak's should).
"""

import ctypes
import os
import resource
import signal
import subprocess
import sys
import threading
import time

PR_SET_CHILD_SUBREAPER = 36
LEFTOVER_GRACE = 30


def _children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _reap_all():
    """Reap the descendants reparented here; kill what outlives the grace."""
    deadline = time.monotonic() + LEFTOVER_GRACE
    while True:
        try:
            pid, _status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid:
            continue
        if time.monotonic() > deadline:
            for pid in _our_children():
                sys.stderr.write('cpu-seconds: killing leftover %d\n' % pid)
                os.kill(pid, signal.SIGKILL)
            deadline = float('inf')
        time.sleep(0.2)


def _processes():
    """{pid: (parent pid, user+system seconds)} of every process."""
    found = {}
    for entry in os.listdir('/proc'):
        if not entry.isdigit():
            continue
        try:
            with open('/proc/%s/stat' % entry) as f:
                fields = f.read().rsplit(')', 1)[1].split()
        except (OSError, IndexError):
            continue
        found[int(entry)] = (int(fields[1]), (int(fields[11]) + int(
            fields[12])) / os.sysconf('SC_CLK_TCK'))
    return found


def _our_children():
    return [pid for pid, (parent, _cpu) in _processes().items()
            if parent == os.getpid()]


class Sampler(threading.Thread):
    """The CPU seconds of each process of our tree, as last seen."""

    def __init__(self):
        super(Sampler, self).__init__(daemon=True)
        self.seen, self.stopped = {}, threading.Event()

    def run(self):
        while not self.stopped.wait(0.5):
            procs = _processes()
            tree, grown = {os.getpid()}, True
            while grown:
                found = {pid for pid, (parent, _cpu) in procs.items()
                         if parent in tree}
                grown = not found <= tree
                tree |= found
            for pid in tree - {os.getpid()}:
                # A zombie's cmdline is empty: keep the one seen alive.
                cmd = self.seen.get(pid, (0, ''))[1]
                try:
                    with open('/proc/%d/cmdline' % pid, 'rb') as f:
                        cmd = f.read().replace(b'\0', b' ').decode(
                            errors='replace')[:150] or cmd
                except OSError:
                    pass
                self.seen[pid] = (procs[pid][1], cmd)

    def report(self, top):
        self.stopped.set()
        for pid, (cpu, cmd) in sorted(self.seen.items(),
                                      key=lambda i: -i[1][0])[:top]:
            print('%8.1f cpu-s  pid %d  %s' % (cpu, pid, cmd))


def measure(argv):
    """(exit code, CPU seconds, wall seconds) of argv and its tree."""
    before, start = _children_cpu(), time.monotonic()
    top = int(os.environ.get('CPU_SECONDS_TOP', 0))
    sampler = Sampler()
    if top:
        sampler.start()
    code = subprocess.call(argv)
    _reap_all()
    if top:
        sampler.report(top)
    return code, _children_cpu() - before, time.monotonic() - start


def main(args):
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1)
    if not args:
        sys.exit(__doc__)
    if not all(a.startswith('tests') for a in args):
        code, cpu, wall = measure(args)
        print('cpu-seconds: %.1f (wall %.1f s, exit %d)' % (cpu, wall, code))
        return code
    rows, worst = [], 0
    for path in args:
        code, cpu, wall = measure([sys.executable, '-m', 'pytest', '-q',
                                   '-p', 'no:cacheprovider', path])
        rows.append((path, cpu, wall, code))
        worst = worst or code
    for path, cpu, wall, code in rows:
        print('%8.1f cpu-s %8.1f wall-s  exit %d  %s'
              % (cpu, wall, code, path))
    print('%8.1f cpu-s total' % sum(r[1] for r in rows))
    return worst


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
