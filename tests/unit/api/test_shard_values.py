"""The rules of shard names, on the functions the API calls: what a node's
shard may be (``check_value``) and what ``?shard=`` selects
(``query_filter``), with the whole of each 400's message."""

import pytest

from ironic_lite.api.controllers.v1 import shard
from ironic_lite.common import exception

UNSHARDED_HINT = ('To make a node unsharded, remove its shard (or set it '
                  'to null).')


def _refused(func, value):
    with pytest.raises(exception.InvalidParameterValue) as exc:
        func(value)
    assert exc.value.code == 400
    return str(exc.value)


@pytest.mark.parametrize('value', [None, 'A', 'a b', 'x' * 255, 'NONE',
                                   'Null', 'none-1'])
def test_values_a_shard_may_take(value):
    assert shard.check_value(value) is None


@pytest.mark.parametrize('value,message', [
    (5, 'The shard must be a string or null, not 5.'),
    (['A'], "The shard must be a string or null, not ['A']."),
    ('', 'The shard can not be an empty string. ' + UNSHARDED_HINT),
    ('x' * 256, 'The shard is too long (256 characters): shard is at most '
                '255 characters.'),
    ('a,b', 'The shard "a,b" contains a comma; commas separate shards in '
            '?shard= queries, so it is not allowed in a name.'),
    ('none', '"none" can not be used as a shard: the names none, None, null '
             'select unsharded nodes in ?shard= queries. ' + UNSHARDED_HINT),
    ('None', '"None" can not be used as a shard: the names none, None, null '
             'select unsharded nodes in ?shard= queries. ' + UNSHARDED_HINT),
    ('null', '"null" can not be used as a shard: the names none, None, null '
             'select unsharded nodes in ?shard= queries. ' + UNSHARDED_HINT),
])
def test_values_refused(value, message):
    assert _refused(shard.check_value, value) == message


def _query(value):
    """``?shard=<value>``, as the route hands it over (a list)."""
    return shard.query_filter({'shard': value.split(',')})


def test_query_filter():
    assert shard.query_filter({}) is None
    assert _query('A') == ['A']
    # Exact names, in the order given, once each; the unsharded spellings
    # are None.
    assert _query('b,A,a,b') == ['b', 'A', 'a']
    assert _query('none,None,null,A') == [None, 'A']
    assert _query('NONE,Null') == ['NONE', 'Null']
    # A name as long as a shard can be is selected, one longer refused.
    assert _query('x' * 255 + ',y') == ['x' * 255, 'y']


@pytest.mark.parametrize('value', ['', ',', 'A,', ',A', 'A,,B'])
def test_query_filter_refuses_empty_names(value):
    assert _refused(_query, value) == (
        'Invalid value for shard: "%s". It must be a comma separated list '
        'of shard names, none of them empty (use "None" for the nodes '
        'without a shard).' % value)


def test_query_filter_refuses_names_too_long():
    assert _refused(_query, 'A,' + 'x' * 256) == (
        'Invalid value for shard: a shard name is at most 255 characters.')


def test_add_query_filters():
    assert shard.add_query_filters({}, {}) == {}
    assert shard.add_query_filters({'shard': ['A', 'None']}, {'x': 1}) == {
        'x': 1, 'shard': ['A', None]}
    assert shard.add_query_filters({'sharded': True}, {}) == {
        'sharded': True}
    assert shard.add_query_filters({'sharded': False}, {}) == {
        'sharded': False}
