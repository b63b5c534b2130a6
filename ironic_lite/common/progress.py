"""Progress of long work: done/total and a rate, as it goes.

On a terminal (the stream is a tty) one line redrawn in place, at most
every DRAW_INTERVAL seconds::

    fill ports [##########----------] 51200/102400  50%  8530 rows/s  6 s left

Anywhere else (a log file, a pipe, a deployment tool reading the output)
plain lines, one every ``interval`` seconds and one at the end::

    fill ports: 51200/102400 rows (50%), 8530 rows/s, about 6 s left

Work that ends within the first interval tells nothing.  Thread safe:
``add`` may be called from several threads.  The total may be unknown
(None): then only what is done and the rate are told.
"""

import sys
import threading
import time

# Seconds between two plain lines (not on a terminal).
LOG_INTERVAL = 10.0
# Seconds between two redraws of the bar (on a terminal).
DRAW_INTERVAL = 0.2
BAR_WIDTH = 20


class Progress(object):
    """Counts work done towards ``total`` and tells it on ``stream``
    (standard error by default)."""

    def __init__(self, what, total=None, unit='rows', stream=None,
                 interval=LOG_INTERVAL, clock=time.monotonic):
        self.what, self.total, self.unit = what, total, unit
        self.stream = stream if stream is not None else sys.stderr
        self.tty = is_terminal(self.stream)
        self.interval = DRAW_INTERVAL if self.tty else interval
        self.clock = clock
        self.done = 0
        self.started = clock()
        self._told = self.started
        self._shown = False
        self._lock = threading.Lock()

    def add(self, count=1):
        """``count`` more done; told if it is time."""
        with self._lock:
            self.done += count
            now = self.clock()
            if now - self._told >= self.interval:
                self._told = now
                self._tell(now)

    def finish(self):
        """Tell where it ended (a last line, the bar's line ended), if
        anything was told: work done within the first interval is
        quiet."""
        with self._lock:
            if self._shown:
                self._tell(self.clock(), final=True)

    def rate(self, now):
        return self.done / max(now - self.started, 1e-6)

    def _left(self, now):
        """Seconds left at the rate so far (None: unknown)."""
        rate = self.rate(now)
        if not self.total or not rate or self.done >= self.total:
            return None
        return (self.total - self.done) / rate

    def _tell(self, now, final=False):
        self._shown = True
        if self.tty:
            end = '\n' if final else ''
            self.stream.write('\r' + self.bar(now) + '\x1b[K' + end)
        else:
            self.stream.write(self.line(now) + '\n')
        self.stream.flush()

    def line(self, now):
        """The plain line."""
        text = '%s: %d' % (self.what, self.done)
        if self.total is not None:
            text += '/%d %s (%.0f%%)' % (self.total, self.unit,
                                         _percent(self.done, self.total))
        else:
            text += ' %s' % self.unit
        text += ', %s %s/s' % (_rate(self.rate(now)), self.unit)
        left = self._left(now)
        if left is not None:
            text += ', about %s left' % _duration(left)
        return text

    def bar(self, now):
        """The terminal's line."""
        if self.total:
            filled = int(BAR_WIDTH * min(self.done, self.total) / self.total)
            text = '%s [%s%s] %d/%d %3.0f%%' % (
                self.what, '#' * filled, '-' * (BAR_WIDTH - filled),
                self.done, self.total, _percent(self.done, self.total))
        else:
            text = '%s %d' % (self.what, self.done)
        text += '  %s %s/s' % (_rate(self.rate(now)), self.unit)
        left = self._left(now)
        if left is not None:
            text += '  %s left' % _duration(left)
        return text


def is_terminal(stream):
    """Whether ``stream`` is a terminal (a bar, not plain lines)."""
    try:
        return stream.isatty()
    except (AttributeError, ValueError):   # no such method, or closed
        return False


def _rate(per_second):
    """A rate to a unit above 10, to a tenth below (1.4 packages/s)."""
    return '%.0f' % per_second if per_second >= 10 else '%.1f' % per_second


def _percent(done, total):
    return 100.0 * done / total if total else 100.0


def _duration(seconds):
    if seconds < 90:
        return '%d s' % round(seconds)
    if seconds < 5400:
        return '%d min' % round(seconds / 60)
    return '%.1f h' % (seconds / 3600)
