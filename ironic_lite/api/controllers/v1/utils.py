"""Helpers shared by the v1 controllers: versions, query, fields, bodies.

Every version gate is a lookup in one of the ``*_MIN_VERSION`` tables of
``ironic_lite.api.microversions``.
"""

import re

from oslo_utils import uuidutils
import pecan

from ironic_lite.api import body_schema
from ironic_lite.api import json_body as json_body_module
from ironic_lite.api import microversions as mv
from ironic_lite.api import query
from ironic_lite.common import exception
from ironic_lite import conf

CONF = conf.CONF

# ``\Z``, not ``$``: ``$`` also matches before a final newline, which would
# let "node1\n" pass as a name.
_LOGICAL_NAME_RE = re.compile(r'[a-zA-Z0-9-._~]+\Z')


# -- versions ---------------------------------------------------------------

def minor():
    """The minor microversion of the current request."""
    return pecan.request.version.minor


def allows(min_minor):
    return minor() >= min_minor


def not_acceptable(min_minor=None):
    if min_minor is None:
        return exception.NotAcceptable()
    return exception.NotAcceptable(
        'Request not acceptable. The minimal required API version should '
        'be 1.%d' % min_minor)


def hide_fields(body, table, current=None):
    """Drop the keys the request's version does not know yet.

    :param current: the request's minor version, when the caller already
        has it (a list renders many bodies): saves the lookup.
    """
    if current is None:
        current = minor()
    for key in _newer_than(table, current):
        body.pop(key, None)
    return body


# (id of a *_MIN_VERSION table, minor version) -> the table's keys newer
# than that version.  The tables are module constants: a list page asks
# once, not once per field of every item.
_NEWER = {}


def _newer_than(table, current):
    key = (id(table), current)
    found = _NEWER.get(key)
    # The table itself is kept beside the answer: another table at the
    # same id (a dict made and freed) is never taken for it.
    if found is None or found[0] is not table:
        found = _NEWER[key] = (table, tuple(k for k, v in table.items()
                                            if v > current))
    return found[1]


def check_new_fields(values, table):
    """406 for a body key newer than the request (with a real value).

    ``table`` is the resource's ``*_MIN_VERSION`` table of fields.
    """
    for name, value in values.items():
        needed = table.get(name, 0)
        if needed > minor() and value not in (None, '', {}, []):
            raise not_acceptable(needed)


# -- query parameters (typed and checked by the route) -------------------

def get_limit(limit):
    """The page size: ``?limit=`` (an int already) capped at
    ``[api]max_limit``."""
    if limit is None:
        return CONF.api.max_limit
    if limit <= 0:
        raise exception.InvalidParameterValue(err='Limit must be positive')
    return min(limit, CONF.api.max_limit)


def get_sort(params, field_table, invalid_keys, default_key='id'):
    """(sort_key, sort_dir), checked like Ironic does."""
    sort_key = params.get('sort_key', default_key)
    sort_dir = params.get('sort_dir', 'asc')
    check_sort_dir(sort_dir)
    if sort_key in invalid_keys:
        raise invalid_sort_key(sort_key)
    if field_table.get(sort_key, 0) > minor():
        raise exception.NotAcceptable()
    return sort_key, sort_dir


def check_sort_dir(sort_dir):
    """400 for a ``?sort_dir=`` other than asc or desc (Ironic's words)."""
    if sort_dir not in ('asc', 'desc'):
        raise exception.InvalidParameterValue(
            err="Invalid sort direction: %s. Acceptable values are 'asc' "
                "or 'desc'" % sort_dir)


def invalid_sort_key(sort_key):
    """The 400 of a ``?sort_key=`` that can not be sorted by."""
    return exception.InvalidParameterValue(
        err='The sort_key value %s is an invalid field for sorting'
            % sort_key)


def check_fields(value, known):
    """The ``?fields=`` list (None when absent), blanks dropped; 400 for
    a name outside ``known`` (Ironic's 'Field(s) "a, b" are not valid'),
    for a resource whose fields have no microversion of their own."""
    if value is None:
        return None
    fields = [f.strip() for f in value if f.strip()]
    unknown = [f for f in fields if f not in known]
    if unknown:
        raise exception.InvalidParameterValue(
            err='Field(s) "%s" are not valid' % ', '.join(unknown))
    return fields


def get_fields(value, table, not_fields=(), per_field_message=False):
    """The ``?fields=`` list (None when absent), checked against ``table``.

    ``value`` is the list the route parsed (its items as given: blanks
    are dropped here).  The parameter's own version gate (1.8, or the
    resource's) is the route's.

    Names newer than the request are a 406 ("Request not acceptable.",
    checked first, as Ironic does), unknown names a 400: Ironic's generic
    'Field(s) "a, b" are not valid', or for nodes (``per_field_message``)
    "Field a is not a valid field.".

    :param not_fields: keys of ``table`` that are not selectable (the
        link lists).
    """
    if value is None:
        return None
    fields = [f.strip() for f in value if f.strip()]
    if any(table.get(f, 0) > minor() for f in fields):
        raise exception.NotAcceptable()
    unknown = [f for f in fields if f not in table or f in not_fields]
    if unknown:
        if per_field_message:
            raise exception.InvalidParameterValue(
                err='Field %s is not a valid field.' % unknown[0])
        raise exception.InvalidParameterValue(
            err='Field(s) "%s" are not valid' % ', '.join(unknown))
    return fields


def get_detail(detail, fields):
    """Whether a list shows every field (``?detail=``, a bool already)."""
    if detail and fields is not None:
        raise exception.InvalidParameterValue(
            err='Can not specify ?detail=True and fields in the same '
                'request.')
    return bool(detail)


def select_fields(body, fields):
    """Keep only ``fields`` (and ``links``) of a rendered resource."""
    keep = set(fields) | {'links'}
    return {k: v for k, v in body.items() if k in keep}


# -- request bodies ---------------------------------------------------------

def json_body():
    """The request body as ``middleware.RequestMiddleware`` parsed it ({}
    when there is none), for a route that declares no body schema."""
    return pecan.request.environ.get(json_body_module.ENVIRON_KEY, {})


def check_body(schema, document, what):
    """``document`` (a resource as a PATCH leaves it) checked against
    ``schema`` (Ironic's messages), with boolean strings converted."""
    body_schema.check_schema(schema, document, what)
    return body_schema.convert_booleans(schema, document)


# -- path segments (Ironic's args.validate and parameter schemas) ----------

def uuid_arg(name):
    """A path segment checked by Ironic's ``args.uuid``."""
    def check(value):
        if not uuidutils.is_uuid_like(value):
            raise exception.InvalidParameterValue(
                err=query.EXPECTED_UUID % (name, value))
    return check


def without_json_suffix(ident):
    """A path's resource name as Ironic reads it: below 1.91 a final
    ``.json`` is dropped (``/v1/nodes/test.json`` is node ``test``), from
    1.91 it is part of the name."""
    if ident.endswith('.json') and not allows(mv.MINOR_91_DOT_JSON):
        return ident[:-len('.json')]
    return ident


def get_without_json_suffix(get, ident, not_found):
    """``get(ident)`` as Ironic looks a resource up below 1.91: the name
    without a final ``.json`` first, then, when no such resource exists,
    the name as given."""
    stripped = without_json_suffix(ident)
    if stripped == ident:
        return get(ident)
    try:
        return get(stripped)
    except not_found:
        return get(ident)


def uuid_or_name_arg(name):
    """A path segment checked by Ironic's ``args.uuid_or_name``."""
    def check(value):
        if not (uuidutils.is_uuid_like(value)
                or is_valid_logical_name(value)):
            raise exception.InvalidParameterValue(
                err='Expected UUID or name for %s: %s' % (name, value))
    return check


def schema_uuid_arg(value):
    """A path segment checked by Ironic's parameter schema
    (``request_types.uuid``), worded as its jsonschema message."""
    if not uuidutils.is_uuid_like(value):
        raise exception.InvalidParameterValue(
            err="Schema error: %r is not a 'uuid'" % value)


def schema_uuid_or_name_arg(value):
    """A path segment checked by Ironic's parameter schema
    (``request_types.uuid_or_name``: anyOf uuid, name)."""
    if not (uuidutils.is_uuid_like(value) or is_valid_logical_name(value)):
        raise exception.InvalidParameterValue(
            err="Schema error: %r is not valid under any of the given "
                "schemas. Possible root cause: %r is not a 'uuid'"
                % (value, value))


def is_valid_logical_name(name):
    return (isinstance(name, str) and 0 < len(name) <= 255
            and bool(_LOGICAL_NAME_RE.match(name))
            and not uuidutils.is_uuid_like(name))
