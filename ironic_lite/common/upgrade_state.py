"""Where a rolling upgrade stands, from what the services report.

Pure functions over ``Record``s (one per live ``ironic-api`` or
``ironic-conductor``): ``assess`` names the step of the rolling-upgrade
table the deployment is in, the next safe step, and the unsafe states
(``ironic-status upgrade check`` fails on them); ``unpin_blockers`` is
what stops a service from starting unpinned.

The steps are those of doc/source/admin/upgrade-guide.rst: the schema
upgrade (2), conductors upgraded pinned to the old release (4), APIs
upgraded pinned (5), conductors unpinned (6.1-6.2), APIs unpinned
(6.3-6.4), online data migrations (7).
"""

import collections

from oslo_utils import versionutils

from ironic_lite.common import release_mappings

# Releases before this one do not record themselves in the services table:
# their conductors are seen through the conductors table (release unknown),
# their API services not at all.
FIRST_REPORTING_RELEASE = '3.0'

API = 'api'
CONDUCTOR = 'conductor'

# release None: a conductor of a release that did not report itself.
Record = collections.namedtuple('Record',
                                ['service_type', 'name', 'release', 'pin'])

Assessment = collections.namedtuple(
    'Assessment', ['step', 'target', 'next_step', 'problems', 'notes',
                   'in_progress'])


def _vt(release):
    return versionutils.convert_version_to_tuple(release)


def effective_pin(record):
    """The pin that caps anything: None when unset or the own release."""
    if record.pin and record.release and record.pin != record.release:
        return record.pin
    return None


def describe(record):
    if record.release is None:
        what = 'release before %s, not reporting' % FIRST_REPORTING_RELEASE
    elif effective_pin(record):
        what = 'release %s, pinned to %s' % (record.release, record.pin)
    else:
        what = 'release %s, unpinned' % record.release
    return '%s %s (%s)' % (record.service_type, record.name, what)


def _names(records):
    return ', '.join(describe(r) for r in records)


def is_older(record, release):
    return record.release is None or _vt(record.release) < _vt(release)


def unpin_blockers(records, own_release, own=None):
    """Live services older than ``own_release``, other than ``own``.

    A service of ``own_release`` must not run unpinned while any of these
    is alive: they cannot read what it would write and send.
    """
    return [r for r in records
            if is_older(r, own_release)
            and (own is None or (r.service_type, r.name) != own)]


def previous_release(release):
    """The newest released name older than ``release`` (None if none)."""
    older = [n for n in release_mappings.released_names()
             if _vt(n) < _vt(release)]
    return older[0] if older else None


def _pin_to_use(old, target):
    known = sorted({r.release for r in old if r.release}, key=_vt)
    return known[0] if known else previous_release(target)


def assess(records, own_release, schema_current=True, pending_rows=0):
    """The state of the deployment.

    :param records: a ``Record`` per live service.
    :param own_release: the release of the code assessing (ironic-status).
    :param schema_current: whether the schema is at this code's head.
    :param pending_rows: object rows not at their latest version.
    :returns: an ``Assessment``; ``problems`` lists the unsafe states.
    """
    target = max([own_release] + [r.release for r in records if r.release],
                 key=_vt)
    old = [r for r in records if is_older(r, target)]
    new = [r for r in records if not is_older(r, target)]
    pinned = [r for r in new if effective_pin(r)]
    unpinned = [r for r in new if not effective_pin(r)]
    pin = _pin_to_use(old, target)
    problems, notes = [], []

    def of(kind, rs):
        return [r for r in rs if r.service_type == kind]

    if old and unpinned:
        problems.append(
            'Unpinned while services of an older release are alive: %s. '
            'Older services: %s. Set [DEFAULT]/pin_release_version = %s on '
            'the unpinned ones and restart them, and unpin only once '
            'every service runs %s.' % (_names(unpinned), _names(old), pin,
                                        target))
    if not old and of(API, unpinned) and of(CONDUCTOR, pinned):
        problems.append(
            'API services unpinned before every conductor: %s, while %s '
            'are pinned. Unpin every conductor first (steps 6.1-6.2), '
            'then the API services (6.3-6.4).'
            % (_names(of(API, unpinned)), _names(of(CONDUCTOR, pinned))))
    legacy_pins = sorted({r.pin for r in pinned
                          if _vt(r.pin) < _vt(FIRST_REPORTING_RELEASE)})
    newest_rpc = release_mappings.RELEASE_MAPPING['master']['rpc']
    short_pins = sorted({r.pin for r in of(API, pinned)
                         if _vt((release_mappings.get_release(r.pin)
                                 or {'rpc': newest_rpc})['rpc'])
                         < _vt(newest_rpc)})
    if short_pins:
        notes.append('API services pinned to %s answer 409 (nothing done) '
                     'to the requests that need RPC %s: node trait changes, '
                     'VIFs, node validate and boot device. They work once '
                     'every conductor and then the API services are '
                     'unpinned (steps 6.1-6.4).'
                     % (', '.join(short_pins), newest_rpc))
    if legacy_pins and not old:
        notes.append('ironic-api services of release %s do not report '
                     'themselves: make sure none is still running.'
                     % ', '.join(legacy_pins))

    if not records:
        step, next_step, busy = ('no service alive', 'Start the services.',
                                 False)
    elif old and not new:
        if not schema_current:
            step = '0: every service runs an older release'
            next_step = ('Step 2: run "ironic-dbsync upgrade" with release '
                         '%s while the services keep running.' % target)
        else:
            step = '2: the schema is upgraded; every service runs an older ' \
                   'release'
            next_step = ('Step 4.1: restart one conductor on release %s '
                         'with [DEFAULT]/pin_release_version = %s.'
                         % (target, pin))
        busy = True
    elif of(CONDUCTOR, old):
        step = '4: conductors being upgraded'
        next_step = ('Upgrade conductor(s) %s to release %s with '
                     '[DEFAULT]/pin_release_version = %s, one at a time.'
                     % (', '.join(r.name for r in of(CONDUCTOR, old)),
                        target, pin))
        busy = True
    elif old:
        step = '5: API services being upgraded'
        next_step = ('Upgrade ironic-api %s to release %s with '
                     '[DEFAULT]/pin_release_version = %s, one at a time.'
                     % (', '.join(r.name for r in old), target, pin))
        busy = True
    elif of(CONDUCTOR, pinned) and legacy_pins and not of(
            CONDUCTOR, unpinned):
        # 4.2 to 5.2 look the same: old API services are not seen.
        step = ('5: every conductor runs %s, pinned; API services of '
                'release %s cannot be seen' % (target,
                                               ', '.join(legacy_pins)))
        next_step = ('Upgrade every ironic-api still on release %s to %s '
                     'with [DEFAULT]/pin_release_version = %s, one at a '
                     'time; once none is left, unpin conductor(s) %s one '
                     'at a time.' % (', '.join(legacy_pins), target,
                                     legacy_pins[0], ', '.join(
                                         r.name for r in
                                         of(CONDUCTOR, pinned))))
        busy = True
    elif of(CONDUCTOR, pinned):
        step = ('5.2: every service runs %s, pinned' % target
                if not of(CONDUCTOR, unpinned) else
                '6.1: conductors being unpinned')
        next_step = ('Unpin conductor(s) %s one at a time: remove '
                     '[DEFAULT]/pin_release_version and restart.'
                     % ', '.join(r.name for r in of(CONDUCTOR, pinned)))
        busy = True
    elif pinned:
        step = '6.3: API services being unpinned'
        next_step = ('Unpin ironic-api %s one at a time: remove '
                     '[DEFAULT]/pin_release_version and restart.'
                     % ', '.join(r.name for r in pinned))
        busy = True
    elif pending_rows:
        step = '7: every service runs %s unpinned' % target
        next_step = ('Run "ironic-dbsync online_data_migrations" until it '
                     'exits 0 (%d row(s) are not at their latest object '
                     'version); the next upgrade needs it.' % pending_rows)
        busy = True
    else:
        step = 'done: every service runs %s unpinned' % target
        next_step = 'None: the deployment is ready for the next upgrade.'
        busy = False
    return Assessment(step, target, next_step, problems, notes, busy)
