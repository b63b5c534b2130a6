"""The pages an API process keeps (api/page_cache.py): by version, for
MAX_AGE at most, within the budget -- and, full, keeping what it holds
rather than the newest pages."""

import os

from ironic_lite.api import json_out
from ironic_lite.api import page_cache


class Clock(object):
    now = 0.0

    def __call__(self):
        return self.now


def _body(n=20000):
    return os.urandom(n)   # incompressible: its size is what it takes


def test_a_page_is_found_at_its_version_only():
    pages = page_cache.Pages(1 << 20)
    pages.put('k', 'v1', b'{"ports": []}')
    assert pages.get('k', 'v1') == b'{"ports": []}'
    assert pages.get('k', 'v2') is None
    assert pages.get('other', 'v1') is None
    assert (pages.hits, pages.misses) == (1, 2)
    pages.put('k', 'v2', b'{"ports": [1]}')
    assert pages.get('k', 'v1') is None
    assert pages.get('k', 'v2') == b'{"ports": [1]}'


def test_a_page_expires_after_max_age():
    clock = Clock()
    pages = page_cache.Pages(1 << 20, clock=clock)
    pages.put('k', 'v', b'x')
    clock.now = page_cache.MAX_AGE - 1
    assert pages.get('k', 'v') == b'x'
    clock.now = page_cache.MAX_AGE
    assert pages.get('k', 'v') is None


def test_full_it_keeps_the_pages_sent_again_until_they_expire():
    clock = Clock()
    pages = page_cache.Pages(50000, clock=clock)
    first, second, third = _body(), _body(), _body()
    pages.put(1, 'v', first)
    pages.put(2, 'v', second)
    assert pages.get(1, 'v') == first and pages.get(2, 'v') == second
    pages.put(3, 'v', third)          # no room: not kept
    assert pages.get(3, 'v') is None
    assert pages.get(1, 'v') == first and pages.get(2, 'v') == second
    assert pages.used <= pages.budget
    # A new version of a kept page takes its place.
    pages.put(1, 'v2', third)
    assert pages.get(1, 'v2') == third and pages.used <= pages.budget
    clock.now = page_cache.MAX_AGE + 1
    pages.put(3, 'v', third)          # the expired ones make room
    assert pages.get(3, 'v') == third
    assert pages.get(2, 'v') is None
    assert pages.used <= pages.budget


def test_full_a_new_page_replaces_the_oldest_never_sent_again():
    """One-off pages (a client paging with odd limits) do not keep the
    pages that are asked for again (an agent's walk) out."""
    clock = Clock()
    pages = page_cache.Pages(50000, clock=clock)
    walk, once, twice = _body(), _body(), _body()
    pages.put('walk', 'v', walk)
    assert pages.get('walk', 'v') == walk
    pages.put('once-1', 'v', once)
    # Not yet: a page is given UNUSED_AFTER seconds to be asked again
    # (an agent's next walk), and the new page is not kept.
    clock.now = page_cache.UNUSED_AFTER - 1
    pages.put('once-2', 'v', twice)
    assert pages.get('once-2', 'v') is None
    clock.now = page_cache.UNUSED_AFTER
    pages.put('once-2', 'v', twice)
    assert pages.get('once-1', 'v') is None       # replaced
    assert pages.get('once-2', 'v') == twice
    pages.put('walk-2', 'v', once)                 # once-2 was sent again
    assert pages.get('walk-2', 'v') is None
    assert pages.get('walk', 'v') == walk and pages.used <= pages.budget


def test_serve_builds_once_per_version():
    cache = page_cache.Pages(1 << 20)
    built = []

    def build():
        built.append(1)
        return b'page %d' % len(built)
    assert cache.serve('k', 'v', build) == b'page 1'
    assert cache.serve('k', 'v', build) == b'page 1'
    assert cache.serve('k', 'v2', build) == b'page 2'
    # No version (not PostgreSQL): built every time, nothing kept.
    assert cache.serve('k', None, build) == b'page 3'
    assert cache.serve('k', 'v2', build) == b'page 2'


def test_pages_follow_the_option(conf_fixture):
    conf_fixture.config(list_page_cache_size=1, group='api')
    first = page_cache.pages()
    assert first is page_cache.pages() and first.budget == 1 << 20
    conf_fixture.config(list_page_cache_size=2, group='api')
    assert page_cache.pages().budget == 2 << 20
    conf_fixture.config(list_page_cache_size=0, group='api')
    assert page_cache.pages() is None


def test_encode_takes_what_orjson_cannot():
    assert json_out.encode({'a': [1, None]}) == b'{"a":[1,null]}'
    assert json_out.encode({'big': 2 ** 70}) == (
        b'{"big": 1180591620717411303424}')
