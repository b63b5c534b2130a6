"""The machinery of the request contract: what a route may be given.

A route of the API is declared once, as data, in a module of
``ironic_lite.api.schemas`` (one per resource, like the controllers)::

    Route('GET', '/v1/nodes', query=NODE_LIST_QUERY)

with its query parameters (``Param``: a type, a list rule, the microversion
it appears at), its body JSON schemas per microversion and its read-only
fields.  The contract hook (``api/hooks.py``) looks the request up here
after routing and before the controller runs, and checks it: unknown or
repeated query parameters, parameters newer than the request, malformed
UUIDs, the media type and the JSON body.  The API reference page
(``doc/source/api/reference.rst``) is generated from the same data.

The messages are Ironic's (``ironic/common/args.py`` and
``ironic/api/validation``): ``Unexpected arguments: x``, ``Expected UUID
for marker: x``, ``Schema error for node: ...``.
"""

import json
import math
import re
import sys

import jsonschema
from oslo_utils import strutils
from oslo_utils import uuidutils

from ironic_lite.common import exception

# -- query parameter kinds ---------------------------------------------------
STRING = 'string'
UUID = 'uuid'
BOOL = 'boolean'
INT = 'integer'
LIST = 'list'   # comma separated; repeating the parameter adds to the list

# How a version gate answers a parameter newer than the request.
GATE_PLAIN = 'plain'        # 406 "Request not acceptable."
GATE_VERSION = 'version'    # 406 "... minimal required API version ..."
GATE_DETAIL = 'detail'      # 400 "Invalid query parameter ?detail=..."

# How an unknown query parameter is reported (Ironic has both).
UNKNOWN_ARGS = 'args'       # "Unexpected arguments: a, b"
UNKNOWN_SCHEMA = 'schema'   # "Schema error: Additional properties ..."

# ``query`` of a route that takes any query parameter (the version
# documents, as in Ironic).
ANY_QUERY = None


class Param(object):
    """One query parameter of a route.

    :param kind: STRING, UUID, BOOL, INT or LIST.  Every kind but LIST
        takes one value: given twice it is a 400.  A LIST is a comma
        separated list, and ``?x=a&x=b`` means ``?x=a,b`` (the union).
    :param since: the minor microversion the parameter appears at.
    :param gate: how a request older than ``since`` is answered.
    :param doc: one line for the API reference.
    """

    def __init__(self, name, kind=STRING, since=1, gate=GATE_PLAIN,
                 doc=''):
        self.name, self.kind, self.since = name, kind, since
        self.gate, self.doc = gate, doc


class Route(object):
    """One method on one path, and what its request may hold.

    :param path: ``/v1/nodes/{node_ident}/states/power`` ({} = a segment).
    :param query: the Params (none: any query parameter is refused).
    :param body: {since_minor: JSON schema} of the body, or None for no
        body; the schema of the highest ``since`` not above the request's
        version applies.
    :param what: the noun of Ironic's schema messages ("Schema error for
        node: ..."); None for its newer wording ("Schema error: ...").
    :param read_only: fields of the resource a PATCH may not change.
    :param unknown: UNKNOWN_ARGS or UNKNOWN_SCHEMA (Ironic's wording for
        that resource).
    :param since: the microversion the route appears at (reference only:
        the controller answers Ironic's 404/405 below it).
    """

    def __init__(self, method, path, query=(), body=None, what=None,
                 read_only=(), unknown=UNKNOWN_ARGS, since=1, doc=''):
        self.method, self.path = method, path
        self.query = (None if query is ANY_QUERY
                      else {p.name: p for p in query})
        self.body, self.what = body, what
        self.read_only, self.unknown = tuple(read_only), unknown
        self.since, self.doc = since, doc
        self.segments = tuple(s for s in path.split('/') if s)

    def matches(self, method, segments):
        if method != self.method and not (
                method == 'HEAD' and self.method == 'GET'):
            return False
        if len(segments) != len(self.segments):
            return False
        return all(want.startswith('{') or want == got
                   for want, got in zip(self.segments, segments))

    def body_schema(self, minor):
        """The body schema at ``minor`` (None: no body expected)."""
        if not self.body:
            return None
        found = None
        for since in sorted(self.body):
            if since <= minor:
                found = self.body[since]
        return found


# -- the registry ------------------------------------------------------------

def find(routes, method, path):
    """The Route of ``method`` on ``path`` (None when not declared).

    ``/nodes`` and ``/v1/nodes`` are the same route, as in Ironic.
    """
    segments = [s for s in path.split('/') if s]
    if not segments or segments[0] != 'v1':
        segments = ['v1'] + segments
    if segments and segments[-1].endswith('.json'):
        segments[-1] = segments[-1][:-len('.json')]
    for route in routes:
        if route.matches(method, segments):
            return route
    return None


# -- text of requests --------------------------------------------------------

_SURROGATE = re.compile('[\ud800-\udfff]')


def check_text(value, where):
    """400 for text no database can store: NUL, lone surrogates."""
    if '\x00' in value:
        raise exception.InvalidParameterValue(
            err='Invalid value for %s: NUL characters are not allowed.'
                % where)
    if _SURROGATE.search(value):
        raise exception.InvalidParameterValue(
            err='Invalid value for %s: it is not valid Unicode (lone '
                'surrogate).' % where)


def check_strings(document, where='the request body'):
    """check_text on every key and string value of a JSON document
    (iteratively: the depth was bounded when it was parsed)."""
    stack = [(document, where)]
    while stack:
        value, name = stack.pop()
        if isinstance(value, str):
            check_text(value, name)
        elif isinstance(value, dict):
            for key, item in value.items():
                check_text(key, name)
                stack.append((item, key))
        elif isinstance(value, list):
            stack.extend((item, name) for item in value)


# -- JSON bodies -------------------------------------------------------------

def _refuse_constant(name):
    raise ValueError('%s is not valid JSON' % name)


def _finite_float(text):
    """A JSON number with a fraction or exponent, as a float: refused
    when it overflows (``1e999`` would be stored as infinity and served
    as ``Infinity``, which is not JSON)."""
    value = float(text)
    if not math.isfinite(value):
        raise ValueError('a number is too large to be stored (at most '
                         '%r in absolute value)' % sys.float_info.max)
    return value


def _bounded_int(text):
    """A JSON integer: one of more digits than Python converts is
    refused with a plain message."""
    if len(text) > _MAX_INT_DIGITS:
        raise ValueError('a number has more than %d digits'
                         % _MAX_INT_DIGITS)
    return int(text)


_MAX_INT_DIGITS = 4000


def _depth_ok(text, max_depth):
    """Whether the JSON text nests at most ``max_depth`` deep (brackets
    inside strings are not counted)."""
    depth, in_string, escape = 0, False, False
    for char in text:
        if in_string:
            if escape:
                escape = False
            elif char == '\\':
                escape = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in '[{':
            depth += 1
            if depth > max_depth:
                return False
        elif char in ']}':
            depth -= 1
    return True


def load_json(raw, max_depth):
    """The document of a JSON body; 400 for anything that is not JSON.

    NaN and Infinity are refused (they are not JSON), so are numbers that
    overflow a float (``1e999``) and integers of more than 4000 digits,
    nesting deeper than ``max_depth`` (Ironic's message), invalid UTF-8,
    NUL characters and lone surrogates.
    """
    try:
        text = raw.decode('utf-8')
    except UnicodeDecodeError:
        raise exception.InvalidParameterValue(
            err='Invalid JSON in the request body: it is not UTF-8.')
    if not _depth_ok(text, max_depth):
        raise exception.InvalidParameterValue(
            err='Request body JSON is nested too deeply. Please contact '
                'the service administrator.')
    try:
        document = json.loads(text, parse_constant=_refuse_constant,
                              parse_float=_finite_float,
                              parse_int=_bounded_int)
    except (ValueError, RecursionError) as err:
        raise exception.InvalidParameterValue(
            err='Invalid JSON in the request body: %s' % err)
    check_strings(document)
    return document


def check_patch_length(document, limit):
    """400 for a JSON patch of more than ``limit`` operations
    (``[api]max_patch_operations``)."""
    if isinstance(document, list) and len(document) > limit:
        raise exception.InvalidParameterValue(
            err='The JSON patch has %d operations: at most %d are allowed '
                'in one request ([api]max_patch_operations).'
                % (len(document), limit))


def is_json_media_type(content_type):
    """application/json, with or without parameters (charset...)."""
    base = (content_type or '').split(';', 1)[0].strip().lower()
    return base == 'application/json' or base.endswith('+json')


# -- JSON schema -------------------------------------------------------------

_FORMATS = jsonschema.FormatChecker()


def _message(error):
    """jsonschema's message, as Ironic gives it; a length error also
    names the property and the limit (jsonschema's does not)."""
    name = '/'.join(str(p) for p in error.absolute_path)
    schema = error.schema if isinstance(error.schema, dict) else {}
    if error.validator == 'maxLength':
        return ('%r is too long: %s is at most %d characters'
                % (_short(error.instance), name or 'the value',
                   schema['maxLength']))
    if error.validator == 'maxBytes':
        return ('%s is too large: at most %d bytes (as JSON in UTF-8)'
                % (name or 'the value', schema['maxBytes']))
    return error.message


def _short(value):
    return value if len(value) <= 40 else value[:37] + '...'


def _max_bytes(validator, limit, instance, schema):
    """``maxBytes``: the stored (JSON, UTF-8) size of a value."""
    size = len(json.dumps(instance).encode('utf-8'))
    if size > limit:
        yield jsonschema.ValidationError(
            'is too large (%d bytes, at most %d)' % (size, limit))


_VALIDATOR = jsonschema.validators.extend(
    jsonschema.Draft202012Validator, {'maxBytes': _max_bytes})


# ``what`` of a body whose keys are a handler's arguments in Ironic
# (power, provision, maintenance): its messages are those of
# ironic/common/args.py rather than of a schema.
ARGS = 'args'
_TYPE_NAMES = {'string': 'string', 'integer': 'integer',
               'boolean': 'boolean', 'object': 'dict', 'array': 'list',
               'null': 'None'}


def _args_message(error, document):
    """Ironic's args.validate wording of a schema error."""
    if not isinstance(document, dict):
        return 'Invalid body: expected a JSON object.'
    if error.validator == 'required':
        missing = [k for k in error.validator_value if k not in document]
        return 'Missing mandatory parameter: %s' % ', '.join(missing)
    if error.validator == 'additionalProperties':
        known = error.schema.get('properties', {})
        return 'Unexpected arguments: %s' % ', '.join(
            k for k in document if k not in known)
    if error.validator == 'type' and error.absolute_path:
        name = str(error.absolute_path[0])
        types = error.validator_value
        types = [types] if isinstance(types, str) else types
        if len(types) == 1:
            return 'Expected %s for %s: %s' % (
                _TYPE_NAMES[types[0]], name, error.instance)
        return 'Expected types %s for %s: %s' % (
            ', '.join(_TYPE_NAMES[t] for t in types), name, error.instance)
    return 'Invalid %s: %s' % (
        '/'.join(str(p) for p in error.absolute_path) or 'body',
        _message(error))


def check_schema(schema, document, what=None):
    """400 with Ironic's "Schema error" message when ``document`` does
    not match ``schema``.

    :param what: the noun of the message ("Schema error for node: ..."),
        None for "Schema error: ...", ARGS for Ironic's argument messages.
    """
    validator = _VALIDATOR(schema, format_checker=_FORMATS)
    error = jsonschema.exceptions.best_match(validator.iter_errors(document))
    if error is None:
        return
    if what == ARGS:
        raise exception.InvalidParameterValue(
            err=_args_message(error, document))
    prefix = 'Schema error for %s: ' % what if what else 'Schema error: '
    raise exception.InvalidParameterValue(err=prefix + _message(error))


def convert_booleans(schema, document):
    """The document with Ironic's boolean strings ("true", "0", ...) as
    booleans where the schema allows a boolean; 400 for others."""
    document = dict(document)
    for name, prop in schema.get('properties', {}).items():
        value = document.get(name)
        if 'boolean' in prop.get('type', ()) and isinstance(value, str):
            try:
                document[name] = strutils.bool_from_string(value,
                                                           strict=True)
            except ValueError:
                raise exception.InvalidParameterValue(
                    err='Invalid boolean value for %s: %s' % (name, value))
    return document


# -- query strings -----------------------------------------------------------

def check_query(route, items, minor):
    """The query of a request to ``route``, checked; as {name: value}.

    :param items: the (name, value) pairs of the query string, decoded.
    :returns: one string per name (a LIST joined with commas).
    """
    unknown = []
    values = {}
    for name, value in items:
        check_text(name, 'a query parameter name')
        check_text(value, name)
        if route.query is ANY_QUERY:
            values[name] = value
            continue
        param = route.query.get(name)
        if param is None:
            if name not in unknown:
                unknown.append(name)
            continue
        if name in values:
            if param.kind != LIST:
                raise exception.InvalidParameterValue(
                    err='The query parameter %s was given more than once; '
                        'it takes one value.' % name)
            values[name] = values[name] + ',' + value
        else:
            values[name] = value
    if unknown:
        if route.unknown == UNKNOWN_SCHEMA:
            verb = 'was' if len(unknown) == 1 else 'were'
            raise exception.InvalidParameterValue(
                err='Schema error: Additional properties are not allowed '
                    '(%s %s unexpected)'
                    % (', '.join(repr(n) for n in unknown), verb))
        raise exception.InvalidParameterValue(
            err='Unexpected arguments: %s' % ', '.join(unknown))
    for name, value in values.items():
        if route.query is not ANY_QUERY:
            _check_param(route.query[name], value, minor)
    return values


def _check_param(param, value, minor):
    if param.since > minor:
        if param.gate == GATE_DETAIL:
            raise exception.InvalidParameterValue(
                err='Invalid query parameter ?detail=%s received.'
                    % parse_bool(param.name, value))
        if param.gate == GATE_VERSION:
            raise exception.NotAcceptable(
                'Request not acceptable. The minimal required API version '
                'should be 1.%d' % param.since)
        raise exception.NotAcceptable()
    if param.kind == UUID and not uuidutils.is_uuid_like(value):
        raise exception.InvalidParameterValue(
            err='Expected UUID for %s: %s' % (param.name, value))
    if param.kind == BOOL:
        parse_bool(param.name, value)
    if param.kind == INT:
        try:
            int(value)
        except ValueError:
            raise exception.InvalidParameterValue(
                err='Invalid value for %s: %s. It must be an integer.'
                    % (param.name, value))


def parse_bool(name, value):
    """A boolean query value (True/true/1/yes/on...), or Ironic's 400."""
    try:
        return strutils.bool_from_string(value, strict=True)
    except ValueError:
        raise exception.InvalidParameterValue(
            err='Invalid value for %s: %s. It must be a boolean.'
                % (name, value))
