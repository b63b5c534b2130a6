"""The HTTP server of one of several ironic-api processes.

The same server as common/wsgi.py, serving a listening socket its parent
bound (common/workers.py), with ``[api]max_connections`` and
``max_connections_per_client`` counted over every worker in the memory
they share (common/worker_bounds.py):

* a connection is accepted under the workers' lock, and only while all of
  them together hold fewer than ``max_connections``; at the limit a
  client waiting to connect makes room as in one process -- each worker
  that has an idle or trickling connection closes one (so a newcomer may
  cost up to one idle connection per worker: cheap, its client opens a
  new one when it needs it);
* at ``max_connections_per_client``, a new connection of an address
  closes that address's idle connection in this worker if it has one;
  otherwise, if another worker last saw one of the address's connections
  idle (at most worker_bounds.IDLE_PUBLISH seconds ago), that worker is
  asked to close it (its next turn does) and the new one stays -- unless
  that connection got busy meanwhile: the new one is then closed once it
  is idle itself; when every connection of the address, in every worker,
  is busy, the new one is closed at once -- as in one process, never
  because the connections are spread over workers.
"""

import time

from oslo_log import log as logging

from ironic_lite.common import wsgi
from ironic_lite.common import worker_bounds

LOG = logging.getLogger(__name__)


class _SharedServer(wsgi._Server):
    bounds = None             # this worker's WorkerBounds
    _idle_published = 0.0

    def __init__(self, *args, **kwargs):
        # Connections over the cap, kept while another worker makes room.
        self._kept = []
        super().__init__(*args, **kwargs)

    def channel_opened(self, channel):
        channel.address_key = self._key(channel)
        self.bounds.opened(channel.address_key)

    def channel_closed(self, channel):
        key = getattr(channel, 'address_key', None)
        if key is not None:
            channel.address_key = None
            self.bounds.closed(key)

    def _key(self, channel):
        host = channel.addr[0] if channel.addr else ''
        return self.bounds.address_key(str(host))

    def connection_count(self):
        return self.bounds.total_connections()

    def open_connections(self):
        return self.bounds.total_connections()

    def connection_limit(self):
        return self.bounds.shared.max_connections

    def handle_accept(self):
        with self.bounds.locked():
            if self.connection_count() >= self.connection_limit():
                return   # another worker took the last one meanwhile
            super().handle_accept()

    def over_client_cap(self, channel):
        if not self.client_cap_applies(channel):
            return False
        here = len(self.same_address(channel))
        there = self.bounds.elsewhere(channel.address_key)[0]
        return here + there >= self.per_client

    def room_elsewhere(self, channel):
        """No idle connection of the address here: ask the worker that
        has one (True), or make none (False)."""
        if wsgi._longest_idle(self.same_address(channel)) is not None:
            return False   # this worker closes its own (the channel does)
        _total, idle, worker = self.bounds.elsewhere(channel.address_key)
        if not idle:
            return False
        LOG.debug('At [api]max_connections_per_client: asking worker %s to '
                  'close an idle connection of %s', worker, channel.addr[0])
        self.bounds.ask_to_close_idle(worker, channel.address_key)
        self._kept.append(channel)
        return True

    def _check_kept(self):
        """The connections kept on another worker's word: one whose
        address is still over the cap (that worker's idle connection got
        busy meanwhile) is closed once idle itself."""
        kept, self._kept = self._kept, []
        for channel in kept:
            key = getattr(channel, 'address_key', None)
            if key is None or channel.will_close:
                continue
            here = len(self.same_address(channel))
            if here + self.bounds.elsewhere(key)[0] < self.per_client:
                continue   # room was made
            if wsgi._busy(channel):
                self._kept.append(channel)   # look again next time
            else:
                LOG.info('Closing a connection from %s: it holds [api]'
                         'max_connections_per_client (%s) connections',
                         channel.addr[0], self.per_client)
                channel.will_close = True

    def readable(self):
        self._share_idle()
        polled = super().readable()
        # At the limit of all the workers, the listening socket is not
        # polled (waitress stops at its own, per process): it would be
        # readable at once, and handle_accept would refuse, again and
        # again.  The next turn (within a second) looks again.
        if (polled and self.accepting
                and self.connection_count() >= self.connection_limit()):
            return False
        return polled

    def _share_idle(self):
        """Publish this worker's idle connections per address, and close
        the ones other workers asked for (at most every IDLE_PUBLISH)."""
        if not self.per_client:
            return
        now = time.monotonic()
        if now - self._idle_published < worker_bounds.IDLE_PUBLISH:
            return
        self._idle_published = now
        self._check_kept()
        channels = [c for c in self.active_channels.values()
                    if getattr(c, 'address_key', None)
                    and not c.will_close]
        for key in self.bounds.asked():
            victim = wsgi._longest_idle(
                [c for c in channels if c.address_key == key])
            if victim is not None:
                victim.will_close = True
                self.trigger.pull_trigger()
        idle = {}
        for channel in channels:
            if not channel.will_close and not wsgi._busy(channel):
                idle[channel.address_key] = idle.get(
                    channel.address_key, 0) + 1
        self.bounds.publish_idle(idle)


def server_class(bounds):
    """The server class of a worker whose bounds are ``bounds``."""
    return type('WorkerServer', (_SharedServer,), {'bounds': bounds})
