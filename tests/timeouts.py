"""How long a test waits before it calls something a hang.

The project's rule: no test asserts a wall-clock duration.  CI may run
on a busy machine, where anything can take many times as long as on an
idle one, and only a hang may fail a test on time.  So every bound a test
puts on a wait -- a subprocess, an HTTP request, a poll for a state, a
thread to join, an event to be set -- is one of these, far beyond what
the slowest machine takes: reaching one means the thing never ends.

A test that tells a fast path from a slow one (no retry interval slept,
an idle connection not waited out) does not time the fast path: it makes
the slow path ``NEVER`` long, so that taking it shows as a hang, or it
checks what happened (the order of events, a log line, a counter).  A
duration worth knowing is printed, never asserted.
"""

# Seconds after which a wait is a hang: starting a process, answering a
# request, a command run to completion, a node reaching a state.
HANG = 300

# Installing from PyPI (Keystone, a cut release): minutes on an idle
# machine, with downloads.
INSTALL_HANG = 6 * HANG

# An interval or a timeout that a test must never see run out (a retry
# interval it must not sleep, an idle timeout it must not wait for): well
# beyond HANG, so that waiting it out fails the test as a hang would.
NEVER = 2 * HANG
