"""The release in force now: ``[DEFAULT]pin_release_version``, fixed or auto.

Every reader of the pin asks ``effective()`` (a release name, or None:
unpinned, this code's newest) or ``entry()`` (that release's entry of
``release_mappings``).  A fixed pin is what the configuration says.  With
``pin_release_version = auto`` it is the value last computed by
``refresh`` from the live services (``service_reporter`` reads them from
the services table at start, on every heartbeat and on SIGHUP, and passes
them in: ``common/`` imports no layer above it).

Until a first computation succeeds, ``auto`` holds the oldest release
this code rolls from (``release_mappings.rolls_from``): the oldest one
this code can run beside, so a service
that cannot read the table starts capped, never uncapped.  A read that
fails keeps the last value: a transient database error never raises it.

The rule (``auto_cap``): the lowest, over the live services other than
this one and this one itself (its own release), of

* each service's release (a conductor of a release that did not report
  itself counts as ``upgrade_state.NON_REPORTING``, the newest such
  release);
* each manual pin (``pin_release_version = <release>``): it holds every
  ``auto`` service beside it at that pin;
* for an API service, each conductor's effective pin, ``auto`` or not:
  an API rises only after every conductor has (the manual procedure's
  order, conductors unpinned before APIs).

The pins of ``auto`` services do not hold each other (they would never
rise) -- except the conductors' for the APIs, and conductors never wait
for APIs, so there is no cycle.  The result is None (unpinned) when that
lowest is this code's release or newer, else the newest released name not
newer than it.
"""

import threading

from oslo_log import log as logging
from oslo_utils import versionutils

from ironic_lite.common import exception
from ironic_lite.common import release_mappings
from ironic_lite.common import upgrade_state
from ironic_lite import conf
from ironic_lite import version

CONF = conf.CONF
LOG = logging.getLogger(__name__)

AUTO = release_mappings.AUTO

# The auto value before anything was computed: the oldest release this
# code rolls from (a skip-level upgrade may run beside it).
_START_VALUE = release_mappings.oldest_roll_from(version.RELEASE)

_lock = threading.Lock()
_state = {'value': _START_VALUE, 'computed': False}
_waiters = []
_listeners = []


def _vt(name):
    return versionutils.convert_version_to_tuple(name)


def is_auto():
    """Whether this service computes its pin (``pin_release_version =
    auto``)."""
    return CONF.pin_release_version == AUTO


def effective():
    """The release whose entry is in force, or None (this code's newest)."""
    pin = CONF.pin_release_version
    if pin == AUTO:
        return _state['value']
    return release_mappings.resolve(pin) if pin else None


def entry():
    """The release-mapping entry in force (``master`` when unpinned)."""
    return release_mappings.current_entry(effective())


def _holds(record, service_type):
    """The releases a live service holds this one at."""
    yield record.release or upgrade_state.NON_REPORTING
    pin = upgrade_state.effective_pin(record)
    if not pin:
        return
    conductor_for_api = (service_type == upgrade_state.API
                         and record.service_type == upgrade_state.CONDUCTOR)
    if not record.auto or conductor_for_api:
        yield pin


def release_for(lowest, own_release):
    """The entry name a cap at release ``lowest`` means: None at or above
    ``own_release``, else the newest released name not newer."""
    if _vt(lowest) >= _vt(own_release):
        return None
    names = release_mappings.released_names()
    fitting = [n for n in names if _vt(n) <= _vt(lowest)]
    return fitting[0] if fitting else names[-1]


def auto_cap(records, own_release, service_type, own=None):
    """The ``auto`` value for a service of ``service_type`` and
    ``own_release``, from the live services' ``upgrade_state.Record``s
    (``own``, its (type, name), is left out: its row may be a previous
    life's)."""
    lowest = own_release
    for record in records:
        if own is not None and (record.service_type, record.name) == own:
            continue
        for release in _holds(record, service_type):
            if _vt(release) < _vt(lowest):
                lowest = release
    return release_for(lowest, own_release)


def refresh(read_records, service_type, own=None):
    """Recompute the ``auto`` value from ``read_records()``; keep the last
    one when that fails.  Returns the value in force."""
    try:
        records = read_records()
    except Exception as err:
        LOG.warning('Could not read the live services to compute '
                    'pin_release_version = auto (%s); keeping %s',
                    err, describe(_state['value']))
        return _state['value']
    value = auto_cap(records, version.RELEASE, service_type, own)
    with _lock:
        before, _state['value'] = _state['value'], value
        first, _state['computed'] = not _state['computed'], True
    if first or value != before:
        LOG.info('pin_release_version = auto: now %s (was %s)',
                 describe(value), describe(before))
    return value


def describe(value):
    return 'pinned to %s' % value if value else 'unpinned'


def reset():
    """Forget the computed value (a new service life; tests)."""
    with _lock:
        _state.update(value=_START_VALUE, computed=False)


def on_refresh_request(callback):
    """Call ``callback()`` when a refresh is asked for (SIGHUP)."""
    _waiters.append(callback)


def no_refresh_request(callback):
    if callback in _waiters:
        _waiters.remove(callback)


def request_refresh():
    """Ask every registered service to recompute its ``auto`` value soon
    (it must not read the database in a signal handler)."""
    for callback in list(_waiters):
        callback()


def hardware_types():
    """The hardware types of the release in force (a pinned conductor
    registers only these of its enabled ones)."""
    return release_mappings.hardware_types(effective())


def lacks(release):
    """The release in force when it is older than ``release`` (so it
    lacks what ``release`` added), else None."""
    pin = effective()
    if pin and release and _vt(release) > _vt(pin):
        return pin
    return None


def check_hardware_type(name):
    """Refuse (409, nothing done) a node of hardware type ``name`` while
    the release in force does not have it: no conductor of that release
    could manage it.  A name this code does not have either is left to
    the conductor's own check (400)."""
    pin = effective()
    if pin and name in release_mappings.hardware_types() and (
            name not in release_mappings.hardware_types(pin)):
        raise exception.PinnedHardwareType(driver=name, pin=pin,
                                           release=version.RELEASE)


def on_recheck(callback):
    """Call ``callback()`` after each refresh of the service's record
    (every ``report_interval``, and at once on SIGHUP), from the
    reporter's thread: whatever follows the release in force compares
    and catches up there."""
    _listeners.append(callback)


def no_recheck(callback):
    if callback in _listeners:
        _listeners.remove(callback)


def recheck():
    """Run the ``on_recheck`` callbacks (the service reporter calls it)."""
    for callback in list(_listeners):
        try:
            callback()
        except Exception:
            LOG.exception('A follower of pin_release_version failed')
