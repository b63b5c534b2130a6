"""The two procedures test_rolling_upgrade.py walks: the manual one (new
code pinned, then unpinned, one process at a time) and
``pin_release_version = auto`` (each process restarted once; the caps
rise by themselves once the last old service is gone)."""

import re

import sqlalchemy as sa

from tests.upgrade import conftest

AUTO = conftest.AUTO
MANUAL = conftest.MANUAL

# (step, process, pin): True is the old release's name.
STEPS = {
    MANUAL: [('4.1', 'conductor-1', True), ('4.2', 'conductor-2', True),
             ('5.1', 'api-1', True), ('5.2', 'api-2', True),
             ('6.1', 'conductor-1', None), ('6.2', 'conductor-2', None),
             ('6.3', 'api-1', None), ('6.4', 'api-2', None)],
    AUTO: [('4.1', 'conductor-1', AUTO), ('4.2', 'conductor-2', AUTO),
           ('5.1', 'api-1', AUTO), ('5.2', 'api-2', AUTO)],
}


def runs():
    """(old, new, backend, procedure) of each run: see
    ``conftest.rolling_upgrades``."""
    return conftest.rolling_upgrades()


def auto_expected(migrations_to_run, settled):
    """Step -> (exit code, step label) of ironic-status with ``auto``:
    pinned (auto) from 4.1 to 5.1, risen at 5.2."""
    return {'0': (1, '0') if migrations_to_run else (1, '2'),
            'schema': (1, '2'), '4.1': (1, '4'), '4.2': (1, '5'),
            '5.1': (1, '5'), '5.2': settled, 'migrate': (0, 'done')}


def pinned_rows(db_url):
    """[(name, pin)] of the live services that run pinned."""
    engine = sa.create_engine(db_url)
    try:
        with engine.connect() as conn:
            return list(conn.execute(sa.text(
                'SELECT name, pin FROM services WHERE online = :on AND pin '
                'IS NOT NULL'), {'on': True}))
    finally:
        engine.dispose()


def auto_reported(log, old):
    """ironic-status names the auto services and the caps in force: the
    old release's at 4.1, the new code's once they rose (5.2)."""
    from ironic_lite import version
    at_4_1, at_5_2 = log[2], log[-1]
    assert 'release %s, RPC' % old in at_4_1, at_4_1
    assert 'pin_release_version = auto: conductor conductor-1.' in at_4_1
    assert 'release %s, RPC' % version.RELEASE in at_5_2, at_5_2
    assert re.search(r'auto: api api-1:\d+, api api-2', at_5_2), at_5_2
