"""Issue 41: progress of long work (common/progress.py): plain lines
every interval when not on a terminal, a bar redrawn on one."""

import io

from ironic_lite.common import progress


class Clock(object):
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_plain_lines_every_interval_and_at_the_end():
    out, clock = io.StringIO(), Clock()
    told = progress.Progress('fill ports', 1000, stream=out, interval=10,
                             clock=clock)
    clock.now += 5
    told.add(100)
    assert out.getvalue() == ''   # not yet: within the interval
    clock.now += 5
    told.add(100)
    clock.now += 10
    told.add(300)
    clock.now += 2
    told.add(500)
    told.finish()
    assert out.getvalue().splitlines() == [
        'fill ports: 200/1000 rows (20%), 20 rows/s, about 40 s left',
        'fill ports: 500/1000 rows (50%), 25 rows/s, about 20 s left',
        'fill ports: 1000/1000 rows (100%), 45 rows/s',
    ]


def test_unknown_total_tells_done_and_rate():
    out, clock = io.StringIO(), Clock()
    told = progress.Progress('installing', stream=out, unit='packages',
                             interval=10, clock=clock)
    clock.now += 20
    told.add(40)
    assert out.getvalue() == 'installing: 40 packages, 2.0 packages/s\n'


def test_quick_work_is_quiet():
    out = io.StringIO()
    told = progress.Progress('fill', 10, stream=out, interval=10,
                             clock=Clock())
    told.add(10)
    told.finish()
    assert out.getvalue() == ''


def test_a_bar_on_a_terminal():
    out, clock = Terminal(), Clock()
    told = progress.Progress('fill', 100, stream=out, clock=clock)
    assert told.tty
    clock.now += 1
    told.add(50)
    clock.now += 1
    told.add(50)
    told.finish()
    text = out.getvalue()
    assert text.startswith('\rfill [##########----------] 50/100  50%')
    assert '\rfill [####################] 100/100 100%' in text
    assert text.endswith('\n') and text.count('\n') == 1


def test_duration_words():
    assert progress._duration(42) == '42 s'
    assert progress._duration(600) == '10 min'
    assert progress._duration(3 * 3600) == '3.0 h'
