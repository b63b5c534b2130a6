"""get_target_version: the version an object is written and sent at --
the pinned release's, else the latest; an object the pinned release does
not know is written at its latest only if it is never sent (DB_ONLY)."""

import pytest

from ironic_lite.common import exception
from ironic_lite.common import release_mappings
from ironic_lite import objects


@pytest.fixture
def pinned(conf_fixture, monkeypatch):
    """Pin to release 1.0, with the objects the test gives it."""
    objects.register_all()
    entry = release_mappings.RELEASE_MAPPING['1.0']

    def pin(**objs):
        monkeypatch.setitem(entry, 'objects', objs)
        conf_fixture.config(pin_release_version='1.0')
    return pin


def test_unpinned_is_the_latest():
    objects.register_all()
    assert objects.Node.get_target_version() == objects.Node.VERSION
    assert objects.Service.get_target_version() == objects.Service.VERSION


def test_pinned_is_the_first_version_the_release_lists(pinned):
    pinned(Node=['1.0', '0.9'], Service=['0.5'])
    assert objects.Node.get_target_version() == '1.0'
    # A DB_ONLY object the release knows is written at its version too.
    assert objects.Service.DB_ONLY
    assert objects.Service.get_target_version() == '0.5'


def test_unknown_to_the_pinned_release(pinned):
    pinned(Node=['1.0'])
    # Never sent over RPC: written at its latest (the old release never
    # reads its table).
    assert objects.Service.get_target_version() == objects.Service.VERSION
    # Sent over RPC: refused, naming the object and the release.
    with pytest.raises(exception.ObjectVersionNotSupported) as exc:
        objects.Port.get_target_version()
    assert str(exc.value) == (
        'Port version (none in 1.0) is not supported by this release of '
        'ironic-lite.')
