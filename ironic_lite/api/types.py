"""The WSME types of the route table's query parameters.

Ironic's API declared its parameters as WSME types for years
(``UuidType``, ``BooleanType``, ``ListType`` as ``wsme.types.UserType``
subclasses beside WSME's own ``IntegerType``): WSME turned the query
string into the type (``wsme.rest.args.from_param``: the base type, then
the type's ``frombasetype``) and checked it (``wsme.types.validate_value``:
the type's ``validate``).  ``convert`` does exactly that, so that a
parameter's kind in the route table is its WSME type and WSME does the
converting and checking.

The types raise ``ValueError``; ``query`` words it as Ironic's ``args``
module does ("Expected UUID for marker: x"), which WSME's own messages
("Value should be UUID format") are not.
"""

import functools

from oslo_utils import strutils
from oslo_utils import uuidutils
from wsme.rest import args as wsme_args
import wsme.types


class UuidType(wsme.types.UserType):
    """A UUID, kept as given.

    Not WSME's ``UuidType``: that one rewrites the value (no dashes,
    upper case) to its canonical form, and a marker or filter is passed
    on as the client wrote it; the accepted forms are those of
    ``oslo_utils.uuidutils.is_uuid_like``, as in Ironic.
    """

    basetype = str
    name = 'uuid'

    @staticmethod
    def validate(value):
        if not uuidutils.is_uuid_like(value):
            raise ValueError('not a UUID')
        return value


class BooleanType(wsme.types.UserType):
    """A boolean given as one of oslo's strings (true/false, yes/no,
    on/off, 1/0, any case); anything else is refused, not False."""

    basetype = str
    name = 'boolean'

    @staticmethod
    def frombasetype(value):
        return strutils.bool_from_string(value, strict=True)


class ListType(wsme.types.UserType):
    """A comma separated list: its items as given (blank ones too).

    Unlike Ironic's ``ListType`` the items are neither stripped, lower
    cased nor deduplicated: shard names are matched exactly and
    ``get_fields`` says which field names are blank or unknown.
    """

    basetype = str
    name = 'list'

    @staticmethod
    def frombasetype(value):
        return value.split(',')


STRING = wsme.types.StringType()
UUID = UuidType()
BOOLEAN = BooleanType()
INTEGER = wsme.types.IntegerType()
LIST = ListType()

# Values at most this long are converted once and remembered (at most
# _MEMO_SIZE of them): most requests repeat a few (limit=10, detail=true,
# fields=uuid,name), and WSME's generic dispatch costs about a
# microsecond a value, as much as the rest of the query check.  Longer
# values are converted every time, so that the memo stays small.
_MEMO_CHARS = 128
_MEMO_SIZE = 1024


def _convert(datatype, value):
    """What WSME did with a query argument of Ironic's: the text to the
    type (``from_param``: base type, ``frombasetype``), then the type's
    check (``validate_value``: ``validate``)."""
    return wsme.types.validate_value(
        datatype, wsme_args.from_param(datatype, value))


_memo = functools.lru_cache(maxsize=_MEMO_SIZE)(_convert)


def convert(datatype, value):
    """``value`` (a query string's text) as ``datatype``, checked by WSME.

    :raises: ValueError when the type refuses it.
    """
    if len(value) > _MEMO_CHARS:
        return _convert(datatype, value)
    result = _memo(datatype, value)
    # The handler gets its own list, never the memo's.
    return list(result) if isinstance(result, list) else result
