"""ironic-dbsync online_data_migrations (cmd/dbsync.py): next to another
run of itself (issue 9, defect 8), rows the other run migrated are not
"left"; on a terminal it shows one bar of all the migrations on standard
error instead of the batch lines, anywhere else the batch lines stay as
they were (scripts read them)."""

import io

from ironic_lite.cmd import dbsync
from ironic_lite.common import progress as progress_lib
from ironic_lite.objects import migrations as obj_migrations


def _migration(calls):
    """A migration whose 5 rows another run migrates before this one."""
    def migrate(context, max_count):
        calls.append(max_count)
        # First call: counted 5, found them done by the other run.
        return (5, 0) if len(calls) == 1 else (0, 0)
    return migrate


def test_rows_migrated_by_another_run_are_not_left(monkeypatch, capsys):
    calls = []
    monkeypatch.setattr(obj_migrations, 'ONLINE_MIGRATIONS',
                        [('bump_x', _migration(calls))])
    code = dbsync.run_online_data_migrations(None, None, {})
    assert code == dbsync.EXIT_OK, capsys.readouterr().out
    assert 'completed' in capsys.readouterr().out
    assert len(calls) == 2


def test_rows_really_left_still_say_run_again(monkeypatch):
    monkeypatch.setattr(obj_migrations, 'ONLINE_MIGRATIONS',
                        [('bump_x', lambda context, max_count: (5, 0))])
    assert (dbsync.run_online_data_migrations(None, None, {})
            == dbsync.EXIT_RUN_AGAIN)


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_batch_lines_when_not_on_a_terminal():
    out, err = io.StringIO(), io.StringIO()
    progress = dbsync.Progress(out=out, err=err)
    progress.record(1, 'bump_x', 5, 2)
    assert 'batch 1: bump_x: 2/5 migrated' in out.getvalue()
    assert err.getvalue() == ''


def test_a_bar_instead_on_a_terminal():
    term = Terminal()
    progress = dbsync.Progress(out=term, err=term)
    assert progress.bar is not None and not progress.lines
    # The same bar, on a clock of the test's.
    progress.bar = progress_lib.Progress(
        'online_data_migrations', 0, stream=term,
        clock=iter([9.0, 10.0, 11.0, 12.0]).__next__)
    progress.record(1, 'bump_x', 5, 2)
    progress.record(1, 'bump_y', 5, 5)
    progress.print_summary()
    text = term.getvalue()
    assert 'batch 1' not in text
    # The total grows as each migration tells what it needs.
    assert '\ronline_data_migrations [########------------] 2/5  40%' in text
    assert '\ronline_data_migrations [##############------] 7/10  70%' in (
        text)
    assert '| bump_y' in text   # the summary table as before


def test_the_batch_lines_stay_when_only_stderr_is_a_terminal():
    out, err = io.StringIO(), Terminal()
    progress = dbsync.Progress(out=out, err=err)
    progress.record(1, 'bump_x', 5, 2)
    assert 'batch 1: bump_x: 2/5 migrated' in out.getvalue()
