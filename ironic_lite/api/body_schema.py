"""JSON schema checks of request bodies, worded as Ironic words them.

A route declares its body schema per microversion; ``check`` validates
the document once, before the handler runs, and gives the handler the
document with Ironic's boolean strings ("true", "0", ...) as booleans.
The messages are Ironic's: "Schema error for node: ...", or for the
bodies that are a handler's arguments in Ironic (power, provision,
maintenance) those of ``ironic/common/args.py``.
"""

import json

import jsonschema
from oslo_utils import strutils
from oslo_utils import uuidutils

from ironic_lite.api import json_body
from ironic_lite.api import query
from ironic_lite.common import exception
from ironic_lite import conf

CONF = conf.CONF

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


def _uuid_fields(validator, names, instance, schema):
    """``uuidFields``: the object's string values of these names are
    UUIDs, worded as Ironic's ``args.uuid`` (which its validators run
    after the schema, in this order)."""
    if not isinstance(instance, dict):
        return
    for name in names:
        value = instance.get(name)
        if isinstance(value, str) and not uuidutils.is_uuid_like(value):
            yield jsonschema.ValidationError(
                query.EXPECTED_UUID % (name, value))


_VALIDATOR = jsonschema.validators.extend(
    jsonschema.Draft202012Validator,
    {'maxBytes': _max_bytes, 'uuidFields': _uuid_fields})


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


def _validator(schema):
    """The validator of ``schema``, made once per schema object (a
    route's schema is a constant; making one took a quarter of checking
    a node's body).  Kept with its schema, so that an id reused by
    another object after the first is gone never finds it."""
    found = _VALIDATORS.get(id(schema))
    if found is None or found[0] is not schema:
        if len(_VALIDATORS) > 512:  # schemas made per request, if any
            _VALIDATORS.clear()
        found = _VALIDATORS[id(schema)] = (
            schema, _VALIDATOR(schema, format_checker=_FORMATS))
    return found[1]


# id(schema) -> (schema, its validator).
_VALIDATORS = {}


def check_schema(schema, document, what=None):
    """400 with Ironic's "Schema error" message when ``document`` does
    not match ``schema``.

    :param what: the noun of the message ("Schema error for node: ..."),
        None for "Schema error: ...", ARGS for Ironic's argument messages.
    """
    errors = list(_validator(schema).iter_errors(document))
    uuids = [e for e in errors if e.validator == 'uuidFields']
    error = jsonschema.exceptions.best_match(
        e for e in errors if e.validator != 'uuidFields')
    if error is None and uuids:
        # The schema first, then the UUIDs: Ironic's and_valid order.
        raise exception.InvalidParameterValue(err=uuids[0].message)
    if error is None:
        return
    if what == ARGS:
        raise exception.InvalidParameterValue(
            err=_args_message(error, document))
    prefix = 'Schema error for %s: ' % what if what else 'Schema error: '
    message = prefix + _message(error)
    cause = _root_cause(error)
    if cause is not None:
        message += '. Possible root cause: %s' % cause
    raise exception.InvalidParameterValue(err=message)


def _root_cause(error):
    """The message of the error under a generic one ("... is not valid
    under any of the given schemas"), followed down as Ironic does (its
    args.schema and api/validation): the best match of each level's
    context; None when the error has none."""
    cause = None
    while error.context:
        error = jsonschema.exceptions.best_match(error.context)
        cause = error.message
    return cause


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


def check(schema, document, what):
    """The body of a request, checked against its route's ``schema``
    once (a JSON patch's length first: the schema's cost grows with it);
    an object's boolean strings as booleans (not for ARGS bodies, which
    their handlers read as Ironic's do)."""
    if schema is None:
        return document
    if schema.get('type') == 'array':
        json_body.check_patch_length(document,
                                     CONF.api.max_patch_operations)
    check_schema(schema, document, what)
    if what == ARGS or 'properties' not in schema:
        return document
    return convert_booleans(schema, document)
