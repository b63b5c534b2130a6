"""ironic-dbsync online_data_migrations next to another run of itself
(issue 9, defect 8): rows the other run migrated are not "left"."""

from ironic_lite.cmd import dbsync
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
