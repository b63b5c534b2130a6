"""Query parameters: what a route may be given, checked and typed once.

A route's parameters are ``Param`` entries (a kind, the microversion it
appears at, how an older request is answered).  ``check_query`` refuses
unknown, repeated or too new parameters and malformed values, with
Ironic's messages (``ironic/common/args.py``: ``Unexpected arguments:
x``, ``Expected UUID for marker: x``), and returns the values typed: the
handler gets ints, booleans and lists, never the query string.

A parameter's kind is a WSME type (``api/types.py``): WSME converts and
checks each value, and a value it refuses gets Ironic's message here.
"""

from ironic_lite.api import types
from ironic_lite.common import exception

# -- kinds: WSME types -------------------------------------------------------
STRING = types.STRING
UUID = types.UUID
BOOL = types.BOOLEAN
INT = types.INTEGER
LIST = types.LIST   # comma separated; repeating the parameter adds to it

# Ironic's ``args.uuid`` message, with the parameter's name and the value:
# also that of a UUID path segment and of a body's UUID fields.
EXPECTED_UUID = 'Expected UUID for %s: %s'

# Ironic's message (``ironic/common/args.py``) for a value its kind
# refuses, with the parameter's name and the value.
_REFUSED = {
    UUID: EXPECTED_UUID,
    BOOL: 'Invalid value for %s: %s. It must be a boolean.',
    INT: 'Invalid value for %s: %s. It must be an integer.',
}

# How a version gate answers a parameter newer than the request.
GATE_PLAIN = 'plain'        # 406 "Request not acceptable."
GATE_VERSION = 'version'    # 406 "... minimal required API version ..."
GATE_DETAIL = 'detail'      # 400 "Invalid query parameter ?detail=..."
GATE_UNKNOWN = 'unknown'    # 400, as an unknown parameter (the route's
# ``unknown`` wording; Ironic's query schemas)

# How an unknown query parameter is reported (Ironic has both).
UNKNOWN_ARGS = 'args'       # "Unexpected arguments: a, b"
UNKNOWN_SCHEMA = 'schema'   # "Schema error: Additional properties ..."

# ``query`` of a route that takes any query parameter and ignores it (the
# version documents, as in Ironic).
ANY_QUERY = None


class Param(object):
    """One query parameter of a route.

    :param kind: STRING, UUID, BOOL, INT or LIST (WSME types).  Every
        kind but LIST takes one value: given twice it is a 400.  A LIST
        is a comma separated list, and ``?x=a&x=b`` means ``?x=a,b`` (the
        union); its value is the list of the items, as given (empty ones
        too).
    :param since: the minor microversion the parameter appears at.
    :param gate: how a request older than ``since`` is answered.
    :param doc: one line for the API reference.
    """

    def __init__(self, name, kind=STRING, since=1, gate=GATE_PLAIN,
                 doc=''):
        self.name, self.kind, self.since = name, kind, since
        self.gate, self.doc = gate, doc


def _unknown(route, unknown):
    if route.unknown == UNKNOWN_SCHEMA:
        verb = 'was' if len(unknown) == 1 else 'were'
        return exception.InvalidParameterValue(
            err='Schema error: Additional properties are not allowed '
                '(%s %s unexpected)'
                % (', '.join(repr(n) for n in unknown), verb))
    return exception.InvalidParameterValue(
        err='Unexpected arguments: %s' % ', '.join(unknown))


def check_query(route, items, minor):
    """The query of a request to ``route``, checked; {name: typed value}.

    :param items: the (name, value) pairs of the query string, decoded
        (their text was checked by ``middleware.RequestMiddleware``).
    """
    if route.query is ANY_QUERY:
        return dict(items)
    unknown = []
    raw = {}
    for name, value in items:
        param = route.query.get(name)
        if param is not None and (param.gate == GATE_UNKNOWN
                                  and param.since > minor):
            param = None   # not a parameter of the route at this version
        if param is None:
            if name not in unknown:
                unknown.append(name)
        elif name not in raw:
            raw[name] = value
        elif param.kind is LIST:
            raw[name] = raw[name] + ',' + value
        else:
            raise exception.InvalidParameterValue(
                err='The query parameter %s was given more than once; '
                    'it takes one value.' % name)
    if unknown:
        raise _unknown(route, unknown)
    return {name: typed(route.query[name], value, minor)
            for name, value in raw.items()}


def typed(param, value, minor):
    """The value of ``param`` as its kind, after its version gate."""
    if param.since > minor:
        if param.gate == GATE_DETAIL:
            raise exception.InvalidParameterValue(
                err='Invalid query parameter ?detail=%s received.'
                    % converted(param, value))
        if param.gate == GATE_VERSION:
            raise exception.NotAcceptable(
                'Request not acceptable. The minimal required API version '
                'should be 1.%d' % param.since)
        raise exception.NotAcceptable()
    return converted(param, value)


def converted(param, value):
    """``value`` converted to and checked as the param's WSME type, or
    Ironic's 400 naming the parameter."""
    try:
        return types.convert(param.kind, value)
    except ValueError:
        raise exception.InvalidParameterValue(
            err=_REFUSED[param.kind] % (param.name, value))
