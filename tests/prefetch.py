"""Build ahead what the tests install once: ``python -m tests.prefetch``.

The functional tests need Keystone (a venv of its own, and a bootstrapped
template database) and OpenStack Ironic 39 (a venv of its own,
``tests/functional/test_ironic_import.py``), and the upgrade tests need
the cut releases they run,
built from this repository's history.  Each is cached (see
``tests/functional/keystone.py`` and ``tests/upgrade/releases.py``), but
on a fresh machine -- every CI run -- the first test that needs one waits
for a pip install of a minute or more, with the other workers of its
level waiting behind the same lock.

``tools/run-tests.sh`` starts this module in the background before the
unit level, so that the downloads and installs overlap with tests that
need none of them.  It builds through the same functions and the same
file locks as the fixtures: a test that needs something still being built
waits for it, and a build that failed here is simply tried again by the
fixture, which reports the failure as the test's own (this module only
logs it).
"""

import sys
import tempfile
import time


def _keystone():
    from tests.functional import keystone
    bindir = keystone.install()
    with tempfile.TemporaryDirectory() as directory:
        keystone.Keystone(bindir, directory).setup()


def _ironic():
    from tests.functional import ironic_fleet
    ironic_fleet.install()


def _release(name):
    from tests.upgrade import releases
    releases.install(name)


def jobs():
    """(what, function) of every cached build the test levels use."""
    from tests.upgrade import conftest
    names = []
    for old, new, _, _ in conftest.rolling_upgrades():
        for name in (old, new):
            if name != 'master' and name not in names:
                names.append(name)
    return ([('Keystone', _keystone), ('Ironic 39', _ironic)] +
            [('release %s' % name, lambda name=name: _release(name))
             for name in names])


def main():
    for what, build in jobs():
        began = time.monotonic()
        try:
            build()
        # pytest.fail() and pytest.skip() raise BaseException subclasses:
        # whatever happens, the fixture tries again and reports it.
        except BaseException as err:    # noqa: B036
            print('prefetch: %s not built (%s: %s); the tests that need it '
                  'will try again' % (what, type(err).__name__, err),
                  file=sys.stderr)
            continue
        print('prefetch: %s ready (%.0f s)' % (what,
                                               time.monotonic() - began))
    return 0


if __name__ == '__main__':
    sys.exit(main())
