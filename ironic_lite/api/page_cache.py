"""List pages kept, compressed, for as long as their rows are unchanged.

A networking-baremetal agent asks for every port of the cloud, in
detail, every 30 seconds (its ``_report_state``): 200 pages of 1,000
ports at 200,000 ports, for each agent, which the API read and rendered
again each time although ports seldom change -- at 9 agents, most of
two cores.  A page is kept here with its version (db/page_version.py:
a digest of its rows' ids and PostgreSQL row versions, read by the
page's own query on every request); a request whose page has the same
version, for the same query, microversion and URL, is answered with
the bytes kept.  Every request still reads the database -- the one
short row of the version -- so nothing committed is ever missed; only
the reading of whole rows and their rendering are saved.

Each API process keeps its own pages, compressed (zlib level 1: a page
of 1,000 ports is about a tenth of its 640 KB), up to
``[api]list_page_cache_size`` MiB; a page is kept at most ``MAX_AGE``
seconds.  When the cache is full, a new page takes the place of the
oldest pages that were not sent again in the ``UNUSED_AFTER`` seconds
after they were kept (one-off pages: a client paging with odd limits
or fields); other pages are not replaced before they expire, and the
new page is then not kept.  Replacing the oldest page whatever its use
would fail an agent's walk longer than the cache: it would keep exactly
the pages the walk reaches last, and find none.
"""

import threading
import time
import zlib

from oslo_config import cfg

CONF = cfg.CONF

# How long a page is kept, in seconds, whatever its version says: a
# transaction id stamps a row version, and PostgreSQL's ids wrap around
# after four billion transactions.  A page is not kept anywhere near
# that long.
MAX_AGE = 600
# A page not sent again this long after it was kept may make room for
# another (see the module's text): longer than a networking-baremetal
# agent's period (30 s), so that one agent's next walk finds the pages
# its last walk kept.
UNUSED_AFTER = 60
_LEVEL = 1


class Pages(object):
    """{key: [version, expiry, compressed body, times sent again]},
    within ``budget`` bytes of compressed bodies."""

    def __init__(self, budget, clock=time.monotonic):
        self.budget = budget
        self._clock = clock
        self._lock = threading.Lock()
        self._pages = {}   # in the order the pages were kept
        self.used = 0
        self.hits = self.misses = 0   # counters, for the metrics

    def get(self, key, version):
        """The body kept for ``key`` at ``version``, or None."""
        with self._lock:
            kept = self._pages.get(key)
            if (kept is None or kept[0] != version
                    or kept[1] <= self._clock()):
                self.misses += 1
                return None
            self.hits += 1
            kept[3] += 1
        return zlib.decompress(kept[2])

    def put(self, key, version, body):
        """Keep ``body`` for ``key`` at ``version``, if there is room."""
        packed = zlib.compress(body, _LEVEL)
        with self._lock:
            self._drop(key)
            if self.used + len(packed) > self.budget:
                self._make_room(len(packed))
            if self.used + len(packed) > self.budget:
                return
            self._pages[key] = [version, self._clock() + MAX_AGE, packed, 0]
            self.used += len(packed)

    def serve(self, key, version, build):
        """The body of a page: the one kept for ``key`` at ``version``,
        or ``build()``'s (bytes), then kept.  ``version`` None: always
        built, never kept."""
        if version is None:
            return build()
        body = self.get(key, version)
        if body is None:
            body = build()
            self.put(key, version, body)
        return body

    def _drop(self, key):
        old = self._pages.pop(key, None)
        if old is not None:
            self.used -= len(old[2])

    def _make_room(self, size):
        """Drop the expired pages, then the oldest never sent again in
        the UNUSED_AFTER seconds since they were kept, until ``size``
        bytes fit."""
        now = self._clock()
        for key in [k for k, v in self._pages.items() if v[1] <= now]:
            self._drop(key)
        # Kept UNUSED_AFTER seconds ago or more: expiring by then.
        expiring = now - UNUSED_AFTER + MAX_AGE
        unused = [k for k, v in self._pages.items()
                  if not v[3] and v[1] <= expiring]
        for key in unused:
            if self.used + size <= self.budget:
                break
            self._drop(key)


_pages = None
_pages_lock = threading.Lock()


def pages():
    """This process's pages (None when [api]list_page_cache_size is 0).
    Asked on every list request: the lock only when they change."""
    global _pages
    budget = CONF.api.list_page_cache_size * 1024 * 1024
    if not budget:
        return None
    kept = _pages
    if kept is not None and kept.budget == budget:
        return kept
    with _pages_lock:
        if _pages is None or _pages.budget != budget:
            _pages = Pages(budget)
        return _pages
