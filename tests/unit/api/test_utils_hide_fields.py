"""Fields newer than the request's version are dropped from a body; the
keys to drop are worked out once per table and version."""

from ironic_lite.api.controllers.v1 import utils

TABLE = {'a': 0, 'b': 5, 'c': 9}


def test_fields_newer_than_the_version_are_dropped():
    assert utils.hide_fields({'a': 1, 'b': 2, 'c': 3, 'z': 4}, TABLE,
                             current=5) == {'a': 1, 'b': 2, 'z': 4}
    assert utils.hide_fields({'a': 1, 'c': 3}, TABLE, current=4) == {'a': 1}
    assert utils.hide_fields({'a': 1, 'c': 3}, TABLE, current=9) == {
        'a': 1, 'c': 3}


def test_another_table_is_never_taken_for_a_cached_one():
    first = {'x': 3}
    assert utils.hide_fields({'x': 1}, first, current=1) == {}
    # A different table, even one that may land at a freed table's id.
    del first
    for _ in range(50):
        other = {'x': 0}
        assert utils.hide_fields({'x': 1}, other, current=1) == {'x': 1}
