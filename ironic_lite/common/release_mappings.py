"""The release mapping: what each release speaks, newest first.

For every release this records the API maximum microversion, the RPC API
version and the version of every object.  ``[DEFAULT]/pin_release_version``
takes its choices from here: while a service is pinned to a release, it
caps its RPC messages, the objects it writes and sends, and its API
microversion to that release's entry.

Rules (enforced by tests/unit/common/test_release_mappings.py):

* ``master`` describes the code as it is now: its RPC version is
  ``RPC_API_VERSION`` (``conductor/rpcapi.py``) and every registered
  object is present at its current ``VERSION``, written here as data, not
  imported (``common/`` is the ground floor and imports no layer above
  it); the tests check that each equals its definition.  ``master`` has
  no ``api``: unpinned, the API serves its newest microversion
  (``api/microversions.py``), so that adding one touches one file.
* A release entry is added when that release is cut -- a copy of
  ``master`` at that moment, with ``api`` set to the newest microversion
  -- and never edited afterwards (a test compares the released entries
  with a checked-in snapshot).
* Entries are ordered newest first; versions never go down from an older
  release to a newer one.
* Each release has a semver name and a series alias; aliases are kept
  apart in ``RELEASE_ALIASES`` and are accepted wherever a name is.
"""

from oslo_utils import versionutils

from ironic_lite import version

# Newest first.  Each value: {'api': str, 'rpc': str,
#                             'objects': {name: [versions, newest first]}}
# ('api' in released entries only, see above).
# An object maps to a list so that a release that introduced a new object
# version while still reading an older one can say so; the first version
# in the list is the one the release writes.
RELEASE_MAPPING = {
    'master': {
        'rpc': '1.9',
        'objects': {
            'Node': ['1.2'],
            'Port': ['1.0'],
            'Portgroup': ['1.0'],
            'Chassis': ['1.0'],
            'Conductor': ['1.0'],
            'Service': ['1.1'],
            'Trait': ['1.0'],
            'TraitList': ['1.0'],
            # Allocations (RPC 1.5).
            'Allocation': ['1.0'],
            # Release 4.0: volume connectors and targets (RPC 1.4).
            'VolumeConnector': ['1.0'],
            'VolumeTarget': ['1.0'],
            # Deploy templates (release 4.0): DB only, never sent.
            'DeployTemplate': ['1.0'],
        },
    },
    # Cut 2026-11-26: what Nova, metalsmith and the peer suites call
    # (volume, allocations, deploy templates and steps, rescue, manual
    # cleaning, NMI, console); pin_release_version = auto.  Frozen.
    '4.0': {
        'api': '1.82',
        'rpc': '1.7',
        'objects': {
            'Node': ['1.2'],
            'Port': ['1.0'],
            'Portgroup': ['1.0'],
            'Chassis': ['1.0'],
            'Conductor': ['1.0'],
            'Service': ['1.1'],
            'Trait': ['1.0'],
            'TraitList': ['1.0'],
            'Allocation': ['1.0'],
            'VolumeConnector': ['1.0'],
            'VolumeTarget': ['1.0'],
            'DeployTemplate': ['1.0'],
        },
    },
    # Cut 2026-11-25: what the shard consumers call (drivers, traits, VIFs,
    # validate, boot device); port writes through the conductor.  Frozen.
    '3.0': {
        'api': '1.82',
        'rpc': '1.3',
        'objects': {
            'Node': ['1.2'],
            'Port': ['1.0'],
            'Portgroup': ['1.0'],
            'Chassis': ['1.0'],
            'Conductor': ['1.0'],
            'Service': ['1.0'],
            'Trait': ['1.0'],
            'TraitList': ['1.0'],
        },
    },
    # Cut 2026-11-22: shard keys, the first rolling upgrade.  Frozen.
    '2.0': {
        'api': '1.82',
        'rpc': '1.1',
        'objects': {
            'Node': ['1.1'],
            'Port': ['1.0'],
            'Portgroup': ['1.0'],
            'Chassis': ['1.0'],
            'Conductor': ['1.0'],
        },
    },
    # Cut 2026-11-22: the versioned core.  Frozen (see the module doc).
    '1.0': {
        'api': '1.81',
        'rpc': '1.0',
        'objects': {
            'Node': ['1.0'],
            'Port': ['1.0'],
            'Portgroup': ['1.0'],
            'Chassis': ['1.0'],
            'Conductor': ['1.0'],
        },
    },
}

# Series aliases of released semver names (a blacksmith's tools, in
# alphabetical order: anvil, bellows, chisel, ...).
RELEASE_ALIASES = {
    'anvil': '1.0',
    'bellows': '2.0',
    'chisel': '3.0',
    'drift': '4.0',
}


def resolve(name):
    """Return the semver release name for a release name or alias."""
    return RELEASE_ALIASES.get(name, name)


def released_names():
    """The released (semver) names, newest first, ``master`` excluded."""
    names = [n for n in RELEASE_MAPPING if n != 'master']
    return sorted(names, key=versionutils.convert_version_to_tuple,
                  reverse=True)


# The pin value that follows the oldest live service (common/release_pin.py).
AUTO = 'auto'


def pin_choices():
    """Values accepted by ``[DEFAULT]/pin_release_version``: the released
    names, each followed by its aliases, newest first, then ``auto``."""
    choices = []
    for name in released_names():
        choices.append(name)
        choices.extend(sorted(a for a, n in RELEASE_ALIASES.items()
                              if n == name))
    return choices + [AUTO]


def get_release(name):
    """The mapping entry of a release name or alias; None when unknown."""
    if not name:
        return None
    return RELEASE_MAPPING.get(resolve(name))


def current_entry(pin):
    """The entry a service uses: the pinned release's, else ``master``."""
    return get_release(pin) or RELEASE_MAPPING['master']


def get_object_versions(releases=None, objects=None):
    """Every version of each object named in the given releases.

    :param releases: release names to look at; all of them by default.
    :param objects: object names to look at; all of them by default.
    :returns: a dict of object name -> set of versions.
    """
    found = {}
    for rel in (releases or RELEASE_MAPPING):
        entry = RELEASE_MAPPING[resolve(rel)]
        for obj, versions in entry['objects'].items():
            if objects is None or obj in objects:
                found.setdefault(obj, set()).update(versions)
    return found


def supported_object_versions(own_release=None):
    """Object versions this code can read from the database.

    That is every version that ``master`` and the release before this
    code's own release know: rows at any older version must be migrated
    with the previous release's ``ironic-dbsync online_data_migrations``
    before this code is installed.
    """
    own = versionutils.convert_version_to_tuple(
        own_release or version.RELEASE)
    older = [n for n in released_names()
             if versionutils.convert_version_to_tuple(n) < own]
    return get_object_versions(['master'] + older[:1])
