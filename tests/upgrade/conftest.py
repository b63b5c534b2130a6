"""Fixtures of the upgrade tests: the old release (built from this
repository's history, cached per commit) and the working tree's release."""

import os

import pytest

from ironic_lite.common import release_mappings
from ironic_lite.common import upgrade_state
from tests.upgrade import releases

# The release a rolling upgrade starts from: the newest cut release.
OLD_RELEASE = release_mappings.released_names()[0]


def old_reports(old=OLD_RELEASE):
    """Whether release ``old`` records its services (3.0 and later)."""
    return not upgrade_state.is_older(
        upgrade_state.Record('conductor', 'x', old, None),
        upgrade_state.FIRST_REPORTING_RELEASE)


def old_conductor_named(label, old=OLD_RELEASE):
    """How the new code names a running conductor of release ``old``."""
    return upgrade_state.describe(upgrade_state.Record(
        'conductor', label, old if old_reports(old) else None, None))


# IRONIC_LITE_UPGRADE_HOPS=all (tox -e upgrade sets it): every run below.
ALL_HOPS = 'all'


MANUAL = 'manual'
AUTO = 'auto'


def rolling_upgrades():
    """(old release, new release, backend, procedure) of each run.

    The default command (the README's) walks each hop this tree makes
    once, and covers each backend and each procedure once between them:

    * the newest cut release to this tree ('master'): the manual
      procedure on PostgreSQL;
    * every older release this tree rolls from (``rolls_from``, a
      skip-level upgrade, 5.0 today) to this tree:
      ``pin_release_version = auto`` on MariaDB.  (While the tree rolls
      from one release only, the newest one takes this run too.)

    With ``IRONIC_LITE_UPGRADE_HOPS=all`` (``tox -e upgrade``) every hop
    into the tree with both procedures on both backends, and, on
    MariaDB, the hop into the newest cut release from the one before it,
    both built from this repository's history: the upgrade a deployment
    of the previous release makes today.  Both sides of that one are
    frozen code, proven when the newer release was cut; it needs a new
    side whose ironic-status names the upgrade steps (3.0 and later).
    """
    names = release_mappings.released_names()
    skips = release_mappings.rolls_from()[1:]
    runs = [(names[0], 'master', 'postgresql', MANUAL)]
    runs += [(old, 'master', 'mysql', AUTO) for old in skips or names[:1]]
    if os.environ.get('IRONIC_LITE_UPGRADE_HOPS') == ALL_HOPS:
        for old in [names[0]] + skips:
            runs += [(old, 'master', backend, procedure)
                     for backend in ('postgresql', 'mysql')
                     for procedure in (MANUAL, AUTO)
                     if (old, 'master', backend, procedure) not in runs]
        if len(names) > 1 and old_reports(names[0]):
            runs.append((names[1], names[0], 'mysql', MANUAL))
    return runs


def release(name):
    """A release to run: the working tree for 'master', else one built
    from history."""
    if name == 'master':
        return releases.new_release()
    return releases.install(name)


@pytest.fixture(scope='session')
def old_release():
    """The newest cut release's real code in a virtualenv of its own."""
    return releases.install(OLD_RELEASE)


@pytest.fixture(scope='session')
def new_release():
    """The working tree's code (the venv running pytest)."""
    return releases.new_release()
