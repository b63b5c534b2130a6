"""ironic-status: how the details of a check are laid out in its table."""

from oslo_upgradecheck import upgradecheck

from ironic_lite.cmd import status


def test_each_line_of_the_details_keeps_its_own_line():
    text = ('Step: 2.\nNext safe step: upgrade the APIs.\n'
            'Services alive (2):\n  api api-1 (release 3.0)\n'
            '  conductor conductor-1 (release 2.0, pin 2.0)')
    assert status.wrap_details(text).splitlines() == text.splitlines()


def test_long_lines_wrap_under_their_own_indent():
    line = '  conductor ' + ', '.join('conductor-%d' % i for i in range(12))
    lines = status.wrap_details(
        'Services alive (12):\n' + line).splitlines()
    assert lines[0] == 'Services alive (12):'
    assert all(len(text) <= status.DETAILS_WIDTH for text in lines)
    assert lines[1].startswith('  conductor conductor-0')
    assert all(text.startswith('      ') for text in lines[2:])
    # Nothing lost, nothing cut inside a name.
    assert ' '.join(t.strip() for t in lines[1:]) == line.strip()


def test_no_details():
    assert status.wrap_details(None) is None


class _Two(status.Checks):

    def _listing(self):
        return upgradecheck.Result(
            upgradecheck.Code.WARNING,
            'Services alive (2):\n  api api-1\n  conductor conductor-1')

    def _fine(self):
        return upgradecheck.Result(upgradecheck.Code.SUCCESS)

    _upgrade_checks = (('Listing', _listing), ('Fine', (_fine, {})))


def test_the_table_keeps_one_line_per_detail_and_the_worst_code(capsys):
    assert _Two().check() == upgradecheck.Code.WARNING
    # "| text |" lines: the text, with its own indentation.
    rows = [line[2:-1].rstrip() for line in
            capsys.readouterr().out.splitlines()]
    assert rows[1] == 'Upgrade Check Results'
    listing = rows.index('Check: Listing')
    assert rows[listing:listing + 5] == [
        'Check: Listing', 'Result: Warning', 'Details: Services alive (2):',
        '  api api-1', '  conductor conductor-1']
    fine = rows.index('Check: Fine')
    assert rows[fine:fine + 3] == [
        'Check: Fine', 'Result: Success', 'Details: None']


class _Broken(status.Checks):

    def _unreachable(self):
        raise RuntimeError('(pymysql.err.OperationalError) cannot connect '
                           '[SQL: SELECT secret FROM t]\nsecond line')

    def _fine(self):
        return upgradecheck.Result(upgradecheck.Code.SUCCESS)

    _upgrade_checks = (('Unreachable', _unreachable), ('Fine', _fine))


def test_a_check_that_cannot_run_is_a_row_not_a_traceback(capsys):
    """The other checks still run; the exit code is oslo's 255; the row
    says why in one line, without the SQL a database error carries."""
    assert _Broken().check() == status.CHECK_FAILED == 255
    out = capsys.readouterr().out
    assert 'Traceback' not in out and 'SELECT' not in out
    assert 'second line' not in out
    rows = [line[2:-1].rstrip() for line in out.splitlines()]
    broken = rows.index('Check: Unreachable')
    assert rows[broken + 1] == 'Result: Failure'
    assert rows[broken + 2].startswith(
        'Details: The check could not run: RuntimeError:')
    assert 'Check: Fine' in rows


# -- what the deployment speaks (pin_release_version = auto) ------------------

def _rec(kind, name, release, pin=None, auto=False):
    from ironic_lite.common import upgrade_state
    return upgrade_state.Record(kind, name, release, pin, auto)


def test_the_caps_in_force_are_the_oldest_services():
    from ironic_lite.common import release_mappings
    from ironic_lite import version
    old = release_mappings.released_names()[0]
    entry = release_mappings.RELEASE_MAPPING[old]
    lines = status.caps_lines([
        _rec('conductor', 'c1', version.RELEASE, pin=old, auto=True),
        _rec('api', 'a1:6385', version.RELEASE)])
    assert lines[0].startswith(
        "In force (the oldest live service's): release %s, RPC %s, API up "
        "to %s; objects: " % (old, entry['rpc'], entry['api']))
    assert 'Node %s' % entry['objects']['Node'][0] in lines[0]
    assert lines[1] == 'pin_release_version = auto: conductor c1.'


def test_unpinned_everywhere_the_newest_is_in_force():
    from ironic_lite.api import microversions
    from ironic_lite import version
    lines = status.caps_lines([_rec('api', 'a1:6385', version.RELEASE)])
    assert ('release %s, RPC' % version.RELEASE) in lines[0]
    assert ('API up to %s;' % microversions.MAX_VERSION_STRING) in lines[0]
    assert lines[1] == 'pin_release_version = auto: none.'
    assert status.caps_lines([]) == []
