"""Where a rolling upgrade stands, from what the services report.

Pure functions over ``Record``s (one per live ``ironic-api`` or
``ironic-conductor``): ``assess`` names the step of the rolling-upgrade
table the deployment is in, the next safe step, and the unsafe states
(``ironic-status upgrade check`` fails on them); ``unpin_blockers`` is
what stops a service from starting unpinned.

``assess`` reads tables: ``STEPS`` is the ordered list of (condition,
step, next step, in progress) rows, the first whose condition holds wins;
``PROBLEMS`` and ``NOTES`` list every unsafe state and note that holds.
The conditions are predicates over a ``View`` of the records (old, new,
pinned, unpinned per service type, legacy pins, the pin to use, the
target) and the texts are templates over ``View.texts()``.

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
# pin: the pin in force (the computed one for ``auto``, True in ``auto``).
Record = collections.namedtuple(
    'Record', ['service_type', 'name', 'release', 'pin', 'auto'],
    defaults=(False,))

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
    if record.auto:
        what += ', pin_release_version = auto'
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


# What a conductor seen only in the conductors table runs at most.
NON_REPORTING = previous_release(FIRST_REPORTING_RELEASE)


def in_force(record):
    """The release a service speaks: its pin, else its release."""
    return effective_pin(record) or record.release or NON_REPORTING


def pin_to_use(old, target):
    """The pin for services of ``target`` beside the ``old`` records: the
    oldest known release alive, else the one before ``target``."""
    known = sorted({r.release for r in old if r.release}, key=_vt)
    return known[0] if known else previous_release(target)


def too_old(records, target):
    """The records of releases that ``target``'s code does not roll from
    (``release_mappings.rolls_from``): they must be upgraded to one it
    does first."""
    return [r for r in records if is_older(r, target)
            and not release_mappings.can_roll_from(
                r.release or NON_REPORTING, target)]


def _of(kind, records):
    return [r for r in records if r.service_type == kind]


class View(object):
    """The deployment as the tables below read it.

    ``target`` is the newest release alive (or the assessing code's own);
    ``old`` are the services older than it, ``new`` the others, split
    into ``pinned`` and ``unpinned`` (``effective_pin``); ``pin`` is the
    pin to use while upgrading (the oldest known release alive, else the
    one before ``target``); ``legacy_pins`` are pins to releases whose
    API services do not report, ``short_pins`` those of pinned API
    services that cannot send the newest RPC version.
    """

    def __init__(self, records, own_release, schema_current, pending_rows):
        self.records = records
        self.schema_current = schema_current
        self.pending_rows = pending_rows
        self.target = max(
            [own_release] + [r.release for r in records if r.release],
            key=_vt)
        self.old = [r for r in records if is_older(r, self.target)]
        self.new = [r for r in records if not is_older(r, self.target)]
        self.pinned = [r for r in self.new if effective_pin(r)]
        self.unpinned = [r for r in self.new if not effective_pin(r)]
        self.pin = pin_to_use(self.old, self.target)
        self.too_old = too_old(self.old, self.target)
        self.old_conductors = _of(CONDUCTOR, self.old)
        self.pinned_conductors = _of(CONDUCTOR, self.pinned)
        self.unpinned_conductors = _of(CONDUCTOR, self.unpinned)
        self.unpinned_apis = _of(API, self.unpinned)
        self.legacy_pins = sorted(
            {r.pin for r in self.pinned
             if _vt(r.pin) < _vt(FIRST_REPORTING_RELEASE)})
        self.newest_rpc = release_mappings.RELEASE_MAPPING['master']['rpc']
        self.short_pins = sorted(
            {r.pin for r in _of(API, self.pinned)
             if _vt((release_mappings.get_release(r.pin)
                     or {'rpc': self.newest_rpc})['rpc'])
             < _vt(self.newest_rpc)})
        oldest = min((_vt((release_mappings.get_release(p) or {'rpc': '0'})
                          ['rpc']) for p in self.short_pins), default=None)
        self.short_requests = '; '.join(
            what for version, what in RPC_REQUESTS
            if oldest is not None and _vt(version) > oldest)

    def texts(self):
        """What the templates name, as ``{name}``."""
        def names(records):
            return ', '.join(r.name for r in records)
        return {
            'target': self.target,
            'pin': self.pin,
            'pending_rows': self.pending_rows,
            'newest_rpc': self.newest_rpc,
            'old_names': names(self.old),
            'old_conductor_names': names(self.old_conductors),
            'pinned_names': names(self.pinned),
            'auto_pinned_names': names([r for r in self.pinned if r.auto]),
            'pinned_conductor_names': names(self.pinned_conductors),
            'old_described': _names(self.old),
            'too_old_described': _names(self.too_old),
            'rolls_from': ', '.join(
                release_mappings.rolls_from(self.target)),
            'unpinned_described': _names(self.unpinned),
            'unpinned_apis_described': _names(self.unpinned_apis),
            'pinned_conductors_described': _names(self.pinned_conductors),
            'legacy_pins': ', '.join(self.legacy_pins),
            'first_legacy_pin': (self.legacy_pins or [None])[0],
            'short_pins': ', '.join(self.short_pins),
            'short_requests': self.short_requests,
        }


# The conditions: predicates over a View.  A step's condition may rely on
# the rows before it not holding (first match wins).

def _unpinned_while_old_alive(v):
    return v.old and v.unpinned


def _apis_unpinned_before_conductors(v):
    return not v.old and v.unpinned_apis and v.pinned_conductors


def _apis_pinned_below_newest_rpc(v):
    return v.short_pins


def _unseen_apis_may_be_alive(v):
    return v.legacy_pins and not v.old


def _auto_pinned(v):
    return any(r.auto for r in v.pinned)


def _no_service(v):
    return not v.records


def _all_old_schema_behind(v):
    return v.old and not v.new and not v.schema_current


def _all_old(v):
    return v.old and not v.new


def _old_conductors(v):
    return v.old_conductors


def _old_apis(v):
    # Every older service is an API service once no conductor is.
    return v.old


def _all_conductors_pinned_to_unseen_apis(v):
    return (v.pinned_conductors and v.legacy_pins
            and not v.unpinned_conductors)


def _all_conductors_pinned(v):
    return v.pinned_conductors and not v.unpinned_conductors


def _pinned_conductors(v):
    return v.pinned_conductors


def _pinned_apis(v):
    # Every pinned service is an API service once no conductor is.
    return v.pinned


def _rows_pending(v):
    return v.pending_rows


def _always(v):
    return True


# The texts below are str.format templates over View.texts().

def _too_old_alive(v):
    return v.too_old


# (condition, text): every state whose condition holds is unsafe.
PROBLEMS = [
    (_too_old_alive,
     'Services of a release that {target} cannot be rolled from are '
     'alive: {too_old_described}. Release {target} rolls from '
     '{rolls_from} only: upgrade those services to one of these first '
     '(with its own rolling upgrade), or stop them.'),
    (_unpinned_while_old_alive,
     'Unpinned while services of an older release are alive: '
     '{unpinned_described}. Older services: {old_described}. Set '
     '[DEFAULT]/pin_release_version = {pin} on the unpinned ones and '
     'restart them, and unpin only once every service runs {target}.'),
    (_apis_unpinned_before_conductors,
     'API services unpinned before every conductor: '
     '{unpinned_apis_described}, while {pinned_conductors_described} '
     'are pinned. Unpin every conductor first (steps 6.1-6.2), then the '
     'API services (6.3-6.4).'),
]

# (RPC version, the requests a pinned API refuses (409) until it can send
# that version), oldest first: the note names those newer than the pins.
RPC_REQUESTS = [
    ('1.2', 'node trait changes, VIFs, node validate and boot device'),
    ('1.4', 'volume connector and target writes'),
    ('1.5', 'allocation writes'),
    ('1.6', 'rescue, manual cleaning, NMI and the console'),
    ('1.7', 'deploy template changes and deploys with deploy_steps'),
    ('1.8', 'boot mode and secure boot changes and the indicators'),
    ('1.9', 'target RAID configurations, RAID logical disk properties '
            'and vendor passthru'),
    ('1.10', "the ramdisk agent's lookup (token) and heartbeats"),
    ('1.11', "the ramdisk agent's inspection data (continue_inspection)"),
    ('1.12', 'servicing'),
    ('1.13', 'virtual media'),
]

# (condition, text): every note whose condition holds.
NOTES = [
    (_apis_pinned_below_newest_rpc,
     'API services pinned to {short_pins} answer 409 (nothing '
     'done) to the requests that need RPC {newest_rpc}: '
     '{short_requests}. They work once every conductor and then the API '
     'services are unpinned (steps 6.1-6.4).'),
    (_unseen_apis_may_be_alive,
     'ironic-api services of release {legacy_pins} do not report '
     'themselves: make sure none is still running.'),
    (_auto_pinned,
     'Services with pin_release_version = auto ({auto_pinned_names}) '
     'are not restarted to unpin them: they unpin themselves once no '
     'older service (or manual pin) is alive, the conductors first, '
     'then the APIs. Upgrade the older services with the same '
     'setting.'),
]

_UNPIN_CONDUCTORS = ('Unpin conductor(s) {pinned_conductor_names} one at a '
                     'time: remove [DEFAULT]/pin_release_version and '
                     'restart.')

Step = collections.namedtuple(
    'Step', ['condition', 'step', 'next_step', 'in_progress'])

# The steps of the rolling upgrade, latest state last: the first row
# whose condition holds is the step the deployment is in.
STEPS = [
    Step(_no_service,
         'no service alive', 'Start the services.', False),
    Step(_all_old_schema_behind,
         '0: every service runs an older release',
         'Step 2: run "ironic-dbsync upgrade" with release {target} '
         'while the services keep running.', True),
    Step(_all_old,
         '2: the schema is upgraded; every service runs an older release',
         'Step 4.1: restart one conductor on release {target} with '
         '[DEFAULT]/pin_release_version = {pin}.', True),
    Step(_old_conductors,
         '4: conductors being upgraded',
         'Upgrade conductor(s) {old_conductor_names} to release '
         '{target} with [DEFAULT]/pin_release_version = {pin}, one at '
         'a time.', True),
    Step(_old_apis,
         '5: API services being upgraded',
         'Upgrade ironic-api {old_names} to release {target} with '
         '[DEFAULT]/pin_release_version = {pin}, one at a time.', True),
    # 4.2 to 5.2 look the same: old API services are not seen.
    Step(_all_conductors_pinned_to_unseen_apis,
         '5: every conductor runs {target}, pinned; API services of '
         'release {legacy_pins} cannot be seen',
         'Upgrade every ironic-api still on release {legacy_pins} '
         'to {target} with [DEFAULT]/pin_release_version = '
         '{first_legacy_pin}, one at a time; once none is left, unpin '
         'conductor(s) {pinned_conductor_names} one at a time.', True),
    Step(_all_conductors_pinned,
         '5.2: every service runs {target}, pinned',
         _UNPIN_CONDUCTORS, True),
    Step(_pinned_conductors,
         '6.1: conductors being unpinned',
         _UNPIN_CONDUCTORS, True),
    Step(_pinned_apis,
         '6.3: API services being unpinned',
         'Unpin ironic-api {pinned_names} one at a time: remove '
         '[DEFAULT]/pin_release_version and restart.', True),
    Step(_rows_pending,
         '7: every service runs {target} unpinned',
         'Run "ironic-dbsync online_data_migrations" until it exits 0 '
         '({pending_rows:d} row(s) are not at their latest object '
         'version); the next upgrade needs it.', True),
    Step(_always,
         'done: every service runs {target} unpinned',
         'None: the deployment is ready for the next upgrade.', False),
]


def assess(records, own_release, schema_current=True, pending_rows=0):
    """The state of the deployment: the first row of ``STEPS`` that holds,
    with every row of ``PROBLEMS`` and ``NOTES`` that holds.

    :param records: a ``Record`` per live service.
    :param own_release: the release of the code assessing (ironic-status).
    :param schema_current: whether the schema is at this code's head.
    :param pending_rows: object rows not at their latest version.
    :returns: an ``Assessment``; ``problems`` lists the unsafe states.
    """
    view = View(records, own_release, schema_current, pending_rows)
    texts = view.texts()
    problems = [text.format_map(texts) for holds, text in PROBLEMS
                if holds(view)]
    notes = [text.format_map(texts) for holds, text in NOTES
             if holds(view)]
    step = next(row for row in STEPS if row.condition(view))
    return Assessment(step.step.format_map(texts), view.target,
                      step.next_step.format_map(texts), problems, notes,
                      step.in_progress)
