"""The services table as the rolling upgrade reads and writes it.

A module of its own above the objects (it reads and writes them), below
the commands that run it: not in ``common/``, which imports no layer
above it, nor in ``api/`` or ``conductor/``, since both services report.

``ServiceReporter`` records this process (its release, its pin, a
heartbeat); it is a *service* of the launcher (``common/launcher.py``),
started before the service it reports on and stopped after it, and it
refuses an unpinned start while services of an older release are alive.
``deployment_records`` is every live service as ``common/upgrade_state.py``
assesses it: what that check reads, and ``ironic-status upgrade check``.
"""

import threading

from oslo_log import log as logging

from ironic_lite.common import context as ir_context
from ironic_lite.common import exception
from ironic_lite.common import release_pin
from ironic_lite.common import upgrade_state
from ironic_lite import conf
from ironic_lite import objects
from ironic_lite.objects import conductor as conductor_obj
from ironic_lite.objects import service as service_obj
from ironic_lite import version

CONF = conf.CONF
LOG = logging.getLogger(__name__)


class ServiceReporter(object):
    """Records this process in the services table, with a heartbeat.

    Started before the service it reports on and stopped after it.
    ``start`` first refuses (``ServiceStartRefused``) to run a service
    unpinned while services of an older release are alive, unless
    ``[DEFAULT]/allow_unsafe_unpin`` is set; with ``pin_release_version
    = auto`` it computes the pin from the live services instead
    (``common/release_pin.py``).  Then it records the process (type,
    name, host, release, pin, auto) and refreshes that record every
    ``[DEFAULT]/report_interval`` seconds, recomputing an ``auto`` pin
    first (and at once on SIGHUP).  ``stop`` marks it offline.
    """

    def __init__(self, service_type, name):
        self.service_type = service_type
        self.name = name
        self._context = ir_context.get_admin_context()
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._thread = None
        self._service = None

    def start(self):
        objects.register_all()
        if release_pin.is_auto():
            # Before anything is served: capped from the first request.
            self.refresh_pin()
        else:
            self.check_unpin_is_safe()
        self._report()
        release_pin.on_refresh_request(self._wake.set)
        self._thread = threading.Thread(
            target=self._loop, name='service-report', daemon=True)
        self._thread.start()

    def refresh_pin(self):
        """``pin_release_version = auto``: recompute the pin from the live
        services (the last value stays when they cannot be read)."""
        return release_pin.refresh(
            lambda: deployment_records(self._context), self.service_type,
            own=(self.service_type, self.name))

    def check_unpin_is_safe(self):
        """Refuse an unpinned start while older releases are alive."""
        pin = CONF.pin_release_version
        if pin and pin != version.RELEASE:
            return
        try:
            records = deployment_records(self._context)
        except Exception as err:
            # A database that is down (or not upgraded yet) must not keep
            # a service from starting: it answers 503 until the database
            # is back, as before.
            LOG.warning('Could not read the services table to check that '
                        'no older release is alive (%s); starting anyway',
                        err)
            return
        blockers = upgrade_state.unpin_blockers(
            records, version.RELEASE, own=(self.service_type, self.name))
        if not blockers:
            return
        names = '; '.join(upgrade_state.describe(r) for r in blockers)
        if CONF.allow_unsafe_unpin:
            LOG.warning('Starting %s %s unpinned although older services '
                        'are alive ([DEFAULT]/allow_unsafe_unpin): %s',
                        self.service_type, self.name, names)
            return
        raise exception.ServiceStartRefused(reason=(
            'Refusing to start %(type)s %(name)s of release %(rel)s without '
            '[DEFAULT]/pin_release_version: services of an older release '
            'are alive and could not read what it writes and sends: '
            '%(names)s. Set pin_release_version = %(pin)s until every '
            'service runs %(rel)s (see "ironic-status upgrade check"), or '
            'set [DEFAULT]/allow_unsafe_unpin = true if those services '
            'are in fact gone.' % {
                'type': self.service_type, 'name': self.name,
                'rel': version.RELEASE, 'names': names,
                'pin': upgrade_state.pin_to_use(blockers, version.RELEASE)}))

    def _report(self):
        try:
            self._service = objects.Service.report(
                self._context, self.service_type, self.name, CONF.host)
        except Exception:
            LOG.warning('Could not record %s %s in the services table',
                        self.service_type, self.name, exc_info=True)

    def _loop(self):
        """Every report_interval, or at once on SIGHUP: the pin first
        (``auto``), then the row that shows it."""
        while True:
            self._wake.wait(CONF.report_interval)
            if self._stop.is_set():
                return
            self._wake.clear()
            if release_pin.is_auto():
                self.refresh_pin()
            self._report()
            # E.g. a conductor's registered hardware types follow the pin.
            release_pin.recheck()

    def stop(self, timeout=None):
        release_pin.no_refresh_request(self._wake.set)
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)
        if self._service is not None:
            try:
                self._service.stop()
            except Exception:
                LOG.warning('Could not mark %s %s offline',
                            self.service_type, self.name, exc_info=True)


def deployment_records(context):
    """An ``upgrade_state.Record`` for every live service: those in the
    services table, and conductors of releases that did not report.

    On the previous release's schema (no services table yet, before
    "ironic-dbsync upgrade") every live conductor is one of those.
    """
    if not service_obj.Service.table_exists():
        return [upgrade_state.Record(upgrade_state.CONDUCTOR, c.hostname,
                                     None, None)
                for c in conductor_obj.Conductor.list_active(
                    context, CONF.conductor.heartbeat_timeout)]
    records = [upgrade_state.Record(s.service_type, s.name, s.release, s.pin,
                                    s.auto_pin)
               for s in service_obj.Service.list_alive(context)]
    records.extend(upgrade_state.Record(upgrade_state.CONDUCTOR, host, None,
                                        None)
                   for host in service_obj.Service.silent_conductor_hosts())
    return records
