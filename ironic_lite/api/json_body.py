"""JSON bodies: loaded once, before pecan sees them, and refused when
no handler could take them.

``middleware.RequestMiddleware`` loads the body of every request with
``load_json`` (400 for anything that is not JSON, too deep, not UTF-8, or
holding text no database can store) and leaves the document in the WSGI
environment under ``ENVIRON_KEY``; the route of the request then checks it
against its schema (``body_schema.check``).
"""

import json
import math
import re
import sys

from ironic_lite.common import exception

# Where the parsed JSON body waits for the route's check.
ENVIRON_KEY = 'ironic_lite.json_body'

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
