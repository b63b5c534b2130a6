"""ironic-status: how the details of a check are laid out in its table."""

from oslo_upgradecheck import upgradecheck

from ironic_lite.cmd import status


def _details(text):
    return status.Checks()._get_details(
        upgradecheck.Result(upgradecheck.Code.SUCCESS, text))


def test_each_line_of_the_details_keeps_its_own_line():
    text = ('Step: 2.\nNext safe step: upgrade the APIs.\n'
            'Services alive (2):\n  api api-1 (release 3.0)\n'
            '  conductor conductor-1 (release 2.0, pin 2.0)')
    assert _details(text).splitlines() == text.splitlines()


def test_long_lines_wrap_under_their_own_indent():
    line = '  conductor ' + ', '.join('conductor-%d' % i for i in range(12))
    lines = _details('Services alive (12):\n' + line).splitlines()
    assert lines[0] == 'Services alive (12):'
    assert all(len(text) <= status.DETAILS_WIDTH for text in lines)
    assert lines[1].startswith('  conductor conductor-0')
    assert all(text.startswith('      ') for text in lines[2:])
    # Nothing lost, nothing cut inside a name.
    assert ' '.join(t.strip() for t in lines[1:]) == line.strip()


def test_no_details():
    assert _details(None) is None
