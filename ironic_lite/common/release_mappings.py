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
* ``master`` has ``rolls_from``: the releases whose running deployment can
  be upgraded to this code one process at a time (newest first, no gap:
  the newest cut release, and possibly older ones -- a skip-level
  upgrade).  Everything that decides what this code reads and runs
  beside follows it: ``supported_object_versions`` (the rows
  ``ironic-dbsync upgrade`` accepts and the online data migrations
  move), the pin choices, the ``auto`` pin's starting value and
  ``ironic-status upgrade check``.  A release may only roll from
  releases whose object versions and RPC version it still reads
  (tests/unit/common/test_release_mappings_rolls_from.py).  A cut copies
  ``master``, ``rolls_from`` included, so the released entry records what
  it rolled from; then ``master``'s list becomes the new release
  followed by the releases of the old list that the next code still
  reads, newest first (the same test says which it no longer may).  A
  released entry without ``rolls_from`` (those cut before it existed)
  rolled from the release just before it only.
* ``master`` has ``hardware_types``: the hardware types this code
  provides (``drivers/factory.HARDWARE_TYPES``).  A released entry
  without it had ``fake-hardware`` only.  A conductor registers only the
  enabled types that the release in force has, and a pinned API refuses
  a node of a type the pinned release lacks.
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
        'rpc': '1.13',
        # Skip-level: 5.0 rolls to this code directly.
        'rolls_from': ['6.0', '5.0'],
        'hardware_types': ['fake-hardware', 'redfish'],
        'objects': {
            'Node': ['1.5'],
            'Port': ['1.1'],
            'Portgroup': ['1.1'],
            'Chassis': ['1.0'],
            # Release 7.0: hardware_interfaces (DB only).
            'Conductor': ['1.1'],
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
            # Release 5.0: BIOS settings and node history, DB only.
            'BIOSSetting': ['1.0'],
            'BIOSSettingList': ['1.0'],
            # Release 6.0: project, state, target and duration (API
            # 1.113, 1.115).
            'NodeHistory': ['1.1'],
            # Release 5.0: inspection data (API 1.81): DB only.
            'NodeInventory': ['1.0'],
            # Inspection rules (API 1.96): DB only.
            'InspectionRule': ['1.0'],
            # Release 6.0: firmware components (API 1.86): DB only.
            'FirmwareComponent': ['1.0'],
            'FirmwareComponentList': ['1.0'],
            # Release 6.0: runbooks (API 1.92, traits 1.112): DB only.
            'Runbook': ['1.0'],
        },
    },
    # Cut 2026-11-29: Ironic 39's API (microversions 1.83 to 1.115: child
    # nodes, agent inspection and inspection rules, servicing, firmware,
    # virtual media, runbooks, ...), JSON-RPC, API worker processes and
    # the import of an Ironic database; skip-level upgrades from 4.0.
    # Frozen.
    '6.0': {
        'api': '1.115',
        'rpc': '1.13',
        'rolls_from': ['5.0', '4.0'],
        'hardware_types': ['fake-hardware', 'redfish'],
        'objects': {
            'Node': ['1.5'],
            'Port': ['1.1'],
            'Portgroup': ['1.1'],
            'Chassis': ['1.0'],
            'Conductor': ['1.0'],
            'Service': ['1.1'],
            'Trait': ['1.0'],
            'TraitList': ['1.0'],
            'Allocation': ['1.0'],
            'VolumeConnector': ['1.0'],
            'VolumeTarget': ['1.0'],
            'DeployTemplate': ['1.0'],
            'BIOSSetting': ['1.0'],
            'BIOSSettingList': ['1.0'],
            'NodeHistory': ['1.1'],
            'NodeInventory': ['1.0'],
            'InspectionRule': ['1.0'],
            'FirmwareComponent': ['1.0'],
            'FirmwareComponentList': ['1.0'],
            'Runbook': ['1.0'],
        },
    },
    # Cut 2026-11-27: real hardware (the redfish hardware type, the
    # agent API, BIOS, history, inventory, RAID, vendor passthru, boot
    # mode and indicators); skip-level upgrades from 3.0.  Frozen.
    '5.0': {
        'api': '1.82',
        'rpc': '1.10',
        'rolls_from': ['4.0', '3.0'],
        'hardware_types': ['fake-hardware', 'redfish'],
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
            'BIOSSetting': ['1.0'],
            'BIOSSettingList': ['1.0'],
            'NodeHistory': ['1.0'],
            'NodeInventory': ['1.0'],
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
    'emery': '5.0',
    'fuller': '6.0',
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
    """Values ``[DEFAULT]/pin_release_version`` parses: the released
    names, each followed by its aliases, newest first, then ``auto``.
    (A service starts only pinned to one of ``rolls_from``: see
    ``common/config.pin_problem``; the older entries stay parseable for
    their conversions and for a clear refusal.)"""
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


def _vt(name):
    return versionutils.convert_version_to_tuple(name)


def _own_entry(own_release):
    """The entry of a release's own code: its released entry once cut,
    else ``master``."""
    return RELEASE_MAPPING.get(resolve(own_release),
                               RELEASE_MAPPING['master'])


def rolls_from(own_release=None):
    """The releases a deployment can be rolled from to release
    ``own_release``'s code (this code's by default), newest first.

    The entry's ``rolls_from``; an entry without one (cut before it
    existed) rolled from the release just before it only.
    """
    own = own_release or version.RELEASE
    declared = _own_entry(own).get('rolls_from')
    if declared is not None:
        return list(declared)
    older = [n for n in released_names() if _vt(n) < _vt(own)]
    return older[:1]


def oldest_roll_from(own_release=None):
    """The oldest release this code runs beside (None: the first one)."""
    names = rolls_from(own_release)
    return names[-1] if names else None


def can_roll_from(release, own_release=None):
    """Whether a service of ``release`` may run beside this code."""
    return resolve(release) in rolls_from(own_release)


def supported_object_versions(own_release=None):
    """Object versions this code can read from the database.

    That is every version that ``master`` and the releases this code's
    own release rolls from (``rolls_from``) know: rows at any older
    version must be migrated with an older release's ``ironic-dbsync
    online_data_migrations`` before this code is installed.
    """
    return get_object_versions(['master'] + rolls_from(own_release))


def hardware_types(name=None):
    """The hardware types a release's code has (``master``: this code's).

    :param name: a release name or alias; None for this code.
    """
    entry = get_release(name) if name else RELEASE_MAPPING['master']
    return list((entry or {}).get('hardware_types', [FIRST_HARDWARE_TYPE]))


# What every release before hardware types were recorded had.
FIRST_HARDWARE_TYPE = 'fake-hardware'
