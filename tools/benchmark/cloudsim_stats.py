"""The arithmetic of the cloud simulator (no sockets, no clocks read).

* latency summaries: p50 / p99 / p999 of a list of seconds;
* lag accounting: each consumer's cycles against its period;
* the ramp: the next number of computes, and where the knee is;
* the table printed per service.
"""

import math

from tools.benchmark import measure

PERCENTILES = (50, 99, 99.9)
# More interactive requests failing than this fraction: past the knee.
MAX_FAILED = 0.01


def latency_summary(seconds):
    """{'samples', 'p50_ms', 'p99_ms', 'p999_ms', 'max_ms'} of ``seconds``.

    Nearest rank (measure.percentile): with fewer than 1,000 samples the
    p999 is the maximum, and with fewer than 100 so is the p99 -- the
    sample count is reported beside them for that reason."""
    if not seconds:
        return {'samples': 0, 'p50_ms': None, 'p99_ms': None,
                'p999_ms': None, 'max_ms': None}
    row = {'samples': len(seconds)}
    for pct, key in zip(PERCENTILES, ('p50_ms', 'p99_ms', 'p999_ms')):
        row[key] = measure.percentile(seconds, pct) * 1000
    row['max_ms'] = max(seconds) * 1000
    return row


class CycleLog(object):
    """The cycles of one periodic consumer, measured against its period.

    A cycle is due at ``first_due + k * period``.  It starts late when the
    previous cycle overran (or the client could not get to it); it
    overruns when it takes longer than the period.  The consumer *falls
    behind* when a cycle overruns or starts later than ``max_late``
    seconds after it was due, when the cycle still running at the end
    has already lasted longer than the period, or when a cycle failed
    (an error answer after the client's retries): its work was not
    done."""

    def __init__(self, name, period, max_late):
        self.name = name
        self.period = period
        self.max_late = max_late
        self.durations = []
        self.lateness = []
        self.errors = 0
        # 409 and 503 answers, retried or not (the SDK retries them).
        self.refused = 0
        # What the first failed cycle got (the same cause usually fails
        # them all): reported beside the count.
        self.first_error = None
        self.running_since = None

    def started(self, due, now):
        self.lateness.append(max(0.0, now - due))
        self.running_since = now

    def finished(self, now, error=None):
        """The cycle ended; ``error``: why it failed (a text), if it did."""
        self.durations.append(now - self.running_since)
        self.running_since = None
        if error:
            self.errors += 1
            if self.first_error is None:
                self.first_error = str(error)

    def next_due(self, due, now):
        """When the next cycle is due: one period after the last was due,
        or, if that moment has passed already, now (a consumer does not
        run twice in a row to catch up, as a periodic task does not)."""
        return max(due + self.period, now)

    def overruns(self, now=None):
        count = sum(1 for d in self.durations if d > self.period)
        if (now is not None and self.running_since is not None
                and now - self.running_since > self.period):
            count += 1
        return count

    def late_starts(self):
        return sum(1 for late in self.lateness if late > self.max_late)

    def behind(self, now=None):
        return bool(self.overruns(now) or self.late_starts()
                    or self.errors)

    def summary(self, now=None):
        return {'consumer': self.name, 'period_s': self.period,
                'cycles': len(self.durations), 'errors': self.errors,
                'refused': self.refused,
                'max_cycle_s': max(self.durations, default=0.0),
                'max_late_s': max(self.lateness, default=0.0),
                'overruns': self.overruns(now),
                'late_starts': self.late_starts(),
                'behind': self.behind(now), 'first_error': self.first_error}


def lag_by_kind(summaries):
    """Per kind of consumer (the name before ``#``): how many there are,
    how many fell behind, the longest cycle and the latest start."""
    kinds = {}
    for s in summaries:
        kind = s['consumer'].split('#')[0]
        row = kinds.setdefault(kind, {
            'consumers': 0, 'behind': 0, 'cycles': 0, 'errors': 0,
            'refused': 0,
            'period_s': s['period_s'], 'max_cycle_s': 0.0,
            'max_late_s': 0.0, 'first_error': None})
        row['consumers'] += 1
        row['behind'] += int(s['behind'])
        row['cycles'] += s['cycles']
        row['errors'] += s['errors']
        row['refused'] += s.get('refused', 0)
        row['max_cycle_s'] = max(row['max_cycle_s'], s['max_cycle_s'])
        row['max_late_s'] = max(row['max_late_s'], s['max_late_s'])
        row['first_error'] = row['first_error'] or s.get('first_error')
    return kinds


def next_computes(current, growth, step, maximum):
    """The next N of the ramp (x ``growth``, at least + ``step``, the last
    one ``maximum`` itself), or None once ``maximum`` was run."""
    if current >= maximum:
        return None
    return min(maximum, max(current + step,
                            int(math.ceil(current * growth))))


def agents_for(computes, per_compute):
    """M networking-baremetal agents for N computes: N x ratio, at least 1
    -- none for a ratio of 0 (a ramp of computes alone)."""
    if per_compute <= 0:
        return 0
    return max(1, int(round(computes * per_compute)))


def step_verdict(step, p99_limit_ms):
    """Why this step is past the knee: a list of reasons (empty: fine)."""
    reasons = []
    for op, row in sorted(step['interactive'].items()):
        if row['p99_ms'] is not None and row['p99_ms'] > p99_limit_ms:
            reasons.append('%s p99 %.0f ms > %.0f ms' % (
                op, row['p99_ms'], p99_limit_ms))
        if row['samples'] == 0:
            reasons.append('%s: no answer in the step' % op)
        elif row.get('errors', 0) > MAX_FAILED * (row['samples']
                                                  + row['errors']):
            reasons.append('%s: %d of %d failed%s' % (
                op, row['errors'], row['samples'] + row['errors'],
                ' (the first: %s)' % row['first_error']
                if row.get('first_error') else ''))
    for kind, row in sorted(step['lag'].items()):
        if row['behind']:
            reason = '%d/%d %s behind their %.0f s period' % (
                row['behind'], row['consumers'], kind, row['period_s'])
            if row.get('first_error'):
                reason += ' (%d failed cycle(s), the first: %s)' % (
                    row['errors'], row['first_error'])
            reasons.append(reason)
    return reasons


def knee(steps, p99_limit_ms):
    """{'last_ok': N or None, 'first_over': N or None, 'reasons': [...]}:
    the first step of the ramp past the knee, and the one before it."""
    last_ok = None
    for step in steps:
        reasons = step_verdict(step, p99_limit_ms)
        if reasons:
            return {'last_ok': last_ok, 'first_over': step['computes'],
                    'reasons': reasons}
        last_ok = step['computes']
    return {'last_ok': last_ok, 'first_over': None, 'reasons': []}


def describe_knee(result, period_scale=1.0):
    """The knee in words; with compressed periods, what N means then."""
    if result['first_over'] is None:
        text = ('no knee: every step held (last N = %s); raise '
                '--max-computes' % result['last_ok'])
    else:
        text = 'knee: N = %s holds, N = %s does not (%s)' % (
            result['last_ok'] if result['last_ok'] is not None else 'none',
            result['first_over'], '; '.join(result['reasons']))
    if period_scale != 1.0:
        text += ('.  Periods x %g: each consumer asks %g times as often as '
                 'at its real period' % (period_scale, 1.0 / period_scale))
    return text


def _ms(value):
    return '-' if value is None else '%.0f' % value


def _proc_cell(procs):
    """``api 646MB/81%``; a service of several processes (API workers)
    adds its largest one: ``api 646MB (one 251MB)/81%``."""
    cells = []
    for name, p in sorted(procs.items()):
        one = (' (one %.0fMB)' % p['rss_max_process_mb']
               if 'rss_max_process_mb' in p else '')
        cells.append('%s %.0fMB%s/%.0f%%' % (
            name.replace('ironic-', ''), p['rss_max_mb'], one, p['cpu_pct']))
    return ' '.join(cells)


def format_table(steps, ops):
    """One line per step: N, M, each op's p50/p99/p999 (ms, samples),
    consumers behind, each process's peak RSS / CPU (% of one core) and
    the machine's load average at the end of the step."""
    head = ['N', 'M'] + ['%s p50/p99/p999 (n)' % op for op in ops] + [
        'behind', 'RSS peak / CPU', 'load']
    lines = [' | '.join(head)]
    for step in steps:
        cells = [str(step['computes']), str(step['agents'])]
        for op in ops:
            row = step['interactive'][op]
            cells.append('%s/%s/%s (%d%s)' % (
                _ms(row['p50_ms']), _ms(row['p99_ms']), _ms(row['p999_ms']),
                row['samples'], ', %d failed' % row['errors']
                if row.get('errors') else ''))
        behind = ['%s %d/%d' % (kind, row['behind'], row['consumers'])
                  for kind, row in sorted(step['lag'].items())
                  if row['behind']]
        refused = ['%s refused %d' % (kind, row['refused'])
                   for kind, row in sorted(step['lag'].items())
                   if row.get('refused')]
        cells.append(', '.join(behind + refused) or 'none')
        cells.append(_proc_cell(step['processes']))
        cells.append('%.1f' % step.get('loadavg', 0.0))
        lines.append(' | '.join(cells))
    return '\n'.join(lines)
