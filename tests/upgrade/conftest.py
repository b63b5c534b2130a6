"""Fixtures of the upgrade tests: the old release (built from this
repository's history, cached per commit) and the working tree's release."""

import pytest

from ironic_lite.common import release_mappings
from ironic_lite.common import upgrade_state
from tests.upgrade import releases

# The release a rolling upgrade starts from: the newest cut release.
OLD_RELEASE = release_mappings.released_names()[0]


def old_reports():
    """Whether the old release records its services (3.0 and later)."""
    return not upgrade_state.is_older(
        upgrade_state.Record('conductor', 'x', OLD_RELEASE, None),
        upgrade_state.FIRST_REPORTING_RELEASE)


def old_conductor_named(label):
    """How the new code names a running conductor of the old release."""
    return upgrade_state.describe(upgrade_state.Record(
        'conductor', label, OLD_RELEASE if old_reports() else None, None))


@pytest.fixture(scope='session')
def old_release():
    """The newest cut release's real code in a virtualenv of its own."""
    return releases.install(OLD_RELEASE)


@pytest.fixture(scope='session')
def new_release():
    """The working tree's code (the venv running pytest)."""
    return releases.new_release()
