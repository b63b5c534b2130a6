"""Every command answers --version with the installed package's version."""

from importlib import metadata

import pytest

from ironic_lite import version
from tests.functional import procs

COMMANDS = ['ironic-api', 'ironic-conductor', 'ironic-lite',
            'ironic-dbsync', 'ironic-status']


@pytest.mark.parametrize('name', COMMANDS)
def test_version_option_prints_the_package_version(name):
    result = procs.run(name, '--version')
    assert result.stdout.strip() == version.VERSION_STRING, result.stderr


def test_installed_metadata_is_the_tree_version():
    # What "pip show ironic-lite" says: the version setup.cfg reads from
    # ironic_lite/version.py, not setuptools' 0.0.0 placeholder.
    assert metadata.version('ironic-lite') == version.VERSION_STRING
