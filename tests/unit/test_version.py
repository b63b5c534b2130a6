"""ironic_lite/version.py: the package version follows the release."""

from packaging import version as pep440

from ironic_lite.common import release_mappings
from ironic_lite import version


def test_version_string_is_the_release_and_pep440():
    parsed = pep440.Version(version.VERSION_STRING)
    assert '%d.%d' % parsed.release[:2] == version.RELEASE


def test_dev_until_the_release_is_cut():
    # The cut commit adds RELEASE to the mapping and drops ".dev0"; until
    # then the package is a development version of it.
    cut = version.RELEASE in release_mappings.RELEASE_MAPPING
    assert pep440.Version(version.VERSION_STRING).is_devrelease == (not cut)
