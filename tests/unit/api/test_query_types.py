"""The WSME types of the query parameters (api/types.py), and Ironic's
wording of what they refuse (api/query.py).

The types are checked through WSME's own entry points
(``wsme.rest.args.from_param``, ``wsme.types.validate_value``), as WSME
used them for Ironic's query arguments.
"""

import uuid

import pytest
from wsme.rest import args as wsme_args
import wsme.types

from ironic_lite.api import query as q
from ironic_lite.api import types
from ironic_lite.common import exception
from tests.unit.api import utils

UUID = '1be26c0b-03f2-4d2e-ae87-c02d7f33c123'


def _wsme(datatype, value):
    return wsme.types.validate_value(
        datatype, wsme_args.from_param(datatype, value))


def test_every_kind_is_a_wsme_type():
    for kind in (q.STRING, q.UUID, q.BOOL, q.INT, q.LIST):
        assert isinstance(kind, wsme.types.UserType)
    assert isinstance(q.INT, wsme.types.IntegerType)
    assert isinstance(q.STRING, wsme.types.StringType)
    # The names the API reference prints.
    assert [k.name for k in (q.STRING, q.UUID, q.BOOL, q.INT, q.LIST)] == [
        'string', 'uuid', 'boolean', 'integer', 'list']


@pytest.mark.parametrize('value', [
    UUID, UUID.upper(), UUID.replace('-', ''), '{%s}' % UUID,
    'urn:uuid:' + UUID])
def test_uuid_kept_as_given(value):
    """The forms oslo's is_uuid_like accepts, not rewritten (WSME's own
    UuidType would canonicalize them)."""
    assert _wsme(types.UUID, value) == value


@pytest.mark.parametrize('value', ['', 'abc', UUID + '0', UUID[:-1],
                                   'node-0', ' %s' % UUID])
def test_uuid_refused(value):
    with pytest.raises(ValueError):
        _wsme(types.UUID, value)


@pytest.mark.parametrize('value,expected', [
    ('true', True), ('True', True), ('1', True), ('yes', True),
    ('on', True), ('t', True), ('y', True),
    ('false', False), ('0', False), ('no', False), ('OFF', False),
    ('f', False), ('n', False)])
def test_boolean_strings(value, expected):
    assert _wsme(types.BOOLEAN, value) is expected


@pytest.mark.parametrize('value', ['', 'maybe', '2', 'truee', 'None'])
def test_boolean_refuses_anything_else(value):
    with pytest.raises(ValueError):
        _wsme(types.BOOLEAN, value)


@pytest.mark.parametrize('value,expected', [
    ('a', ['a']), ('a,b', ['a', 'b']), ('', ['']), ('a,,B ', ['a', '', 'B ']),
    ('None', ['None'])])
def test_list_items_as_given(value, expected):
    assert _wsme(types.LIST, value) == expected


@pytest.mark.parametrize('value,expected', [
    ('10', 10), ('0', 0), ('-3', -3), (' 7 ', 7), ('+5', 5)])
def test_integer_is_int(value, expected):
    assert _wsme(types.INTEGER, value) == expected


@pytest.mark.parametrize('value', ['', 'x', '1.5', '1e3', '0x10'])
def test_integer_refused(value):
    with pytest.raises(ValueError):
        _wsme(types.INTEGER, value)


def test_string_as_given():
    assert _wsme(types.STRING, ' a b ') == ' a b '


@pytest.mark.parametrize('kind,value', [
    (q.UUID, 'abc'), (q.BOOL, 'maybe'), (q.INT, 'x')])
def test_convert_is_wsme(kind, value):
    """``types.convert`` answers as WSME does, remembered or not."""
    for _ in range(2):
        with pytest.raises(ValueError):
            types.convert(kind, value)
    for good in (UUID, 'yes', '12', 'a,b'):
        for datatype in (q.STRING, q.UUID, q.BOOL, q.INT, q.LIST):
            try:
                expected = _wsme(datatype, good)
            except ValueError:
                continue
            assert types.convert(datatype, good) == expected


def test_a_remembered_list_is_never_shared():
    first = types.convert(types.LIST, 'uuid,name')
    first.append('x')
    assert types.convert(types.LIST, 'uuid,name') == ['uuid', 'name']


def test_long_values_are_not_remembered():
    """The memo holds short values only: a client cannot fill it with
    megabytes of query string."""
    long_list = ','.join(str(uuid.uuid4()) for _ in range(10))
    before = types._memo.cache_info().currsize
    assert types.convert(types.LIST, long_list) == long_list.split(',')
    assert types._memo.cache_info().currsize == before


@pytest.mark.parametrize('kind,value,message', [
    (q.UUID, 'abc', 'Expected UUID for p: abc'),
    (q.BOOL, 'maybe', 'Invalid value for p: maybe. It must be a boolean.'),
    (q.INT, '1.5', 'Invalid value for p: 1.5. It must be an integer.'),
])
def test_refused_value_has_ironics_message(kind, value, message):
    with pytest.raises(exception.InvalidParameterValue) as exc:
        q.converted(q.Param('p', kind), value)
    assert str(exc.value) == message


def test_detail_gate_names_the_boolean():
    param = q.Param('detail', q.BOOL, since=43, gate=q.GATE_DETAIL)
    with pytest.raises(exception.InvalidParameterValue) as exc:
        q.typed(param, 'yes', 42)
    assert str(exc.value) == 'Invalid query parameter ?detail=True received.'
    with pytest.raises(exception.InvalidParameterValue) as exc:
        q.typed(param, 'maybe', 42)
    assert str(exc.value) == (
        'Invalid value for detail: maybe. It must be a boolean.')


# -- which check answers first ---------------------------------------------

USERS = {'owner': ':member:proj1'}   # for the ``basic`` fixture


def test_route_types_answer_before_the_handler(client):
    """The route's WSME types are checked before the handler, as Ironic's
    ``args.validate`` decorator does; the closed sets (sort_dir, limit
    above 0) in the handler, after ``fields``, as Ironic's handlers do
    (why they are not ``wsme.types.Enum`` on the route)."""
    def text(url):
        resp = client.get(url)
        assert resp.status_int == 400, resp.text
        return utils.faultstring(resp)
    assert text('/v1/nodes?sort_dir=up&limit=x') == (
        'Invalid value for limit: x. It must be an integer.')
    assert text('/v1/nodes?fields=bogus&sort_dir=up&limit=0') == (
        'Field bogus is not a valid field.')
    assert text('/v1/nodes?limit=0&sort_dir=up') == 'Limit must be positive'
    assert text('/v1/ports?sort_dir=up') == (
        "Invalid sort direction: up. Acceptable values are 'asc' or 'desc'")


def test_drivers_type_checked_after_the_policy(basic):
    """A project member may not list drivers: 403, whatever ``?type=``
    (a route-level Enum would answer 400 first)."""
    resp = basic.get('/v1/drivers?type=bogus',
                     headers=utils.basic_auth('owner'))
    assert resp.status_int == 403, resp.text
    resp = basic.get('/v1/drivers?detail=maybe',
                     headers=utils.basic_auth('owner'))
    assert utils.faultstring(resp) == (
        'Invalid value for detail: maybe. It must be a boolean.')
