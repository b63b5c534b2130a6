"""Fixtures of the upgrade tests: the old release (built from this
repository's history, cached per commit) and the working tree's release."""

import pytest

from ironic_lite.common import release_mappings
from tests.upgrade import releases

# The release a rolling upgrade starts from: the newest cut release.
OLD_RELEASE = release_mappings.released_names()[0]


@pytest.fixture(scope='session')
def old_release():
    """The newest cut release's real code in a virtualenv of its own."""
    return releases.install(OLD_RELEASE)


@pytest.fixture(scope='session')
def new_release():
    """The working tree's code (the venv running pytest)."""
    return releases.new_release()
