"""WSME types of request bodies, and parsing a body into them.

Each resource module declares a ``wsme.types.Base`` subclass with the
keys its POST body (and, after a JSON patch, its PATCH document) may
hold; ``parse`` checks a JSON document against such a type and returns
the keys that were given, as a plain dict.  Unknown keys, wrong types and
missing mandatory keys are a 400.
"""

from oslo_utils import strutils
from wsme import exc as wsme_exc
from wsme.rest import json as wsme_json
from wsme import types as wtypes

from ironic_lite.common import exception


class JsonType(wtypes.UserType):
    """Any JSON value (the values inside dicts such as ``extra``)."""

    basetype = wtypes.text
    name = 'json'

    def validate(self, value):
        return value

    @staticmethod
    def frombasetype(value):
        return value


jsontype = JsonType()
text = wtypes.text
wsattr = wtypes.wsattr
Base = wtypes.Base
JSON_DICT = {wtypes.text: jsontype}


def register(cls):
    wtypes.register_type(cls)
    return cls


def _json_types(datatype):
    """The JSON schema type list Ironic's schemas give such an attribute."""
    if datatype is bool:
        return ('string', 'boolean', 'null')
    if isinstance(datatype, wtypes.DictType):
        return ('object', 'null')
    return ('string', 'null')


def _matches(value, json_types):
    kinds = {'string': str, 'boolean': bool, 'object': dict,
             'null': type(None)}
    return any(isinstance(value, kinds[t]) and not (
        t == 'string' and isinstance(value, bool)) for t in json_types)


def _schema_check(cls, document, what):
    """Ironic's jsonschema messages: unknown keys, missing keys, types."""
    attrs = {a.name: a for a in wtypes.list_attributes(cls)}
    unexpected = [k for k in document if k not in attrs]
    if unexpected:
        verb = 'was' if len(unexpected) == 1 else 'were'
        raise exception.InvalidParameterValue(
            err='Schema error for %s: Additional properties are not allowed '
                '(%s %s unexpected)'
                % (what, ', '.join(repr(k) for k in unexpected), verb))
    for name, attr in attrs.items():
        if attr.mandatory and name not in document:
            raise exception.InvalidParameterValue(
                err="Schema error for %s: '%s' is a required property"
                    % (what, name))
    for name, value in document.items():
        json_types = _json_types(attrs[name].datatype)
        if attrs[name].mandatory:
            json_types = tuple(t for t in json_types if t != 'null')
        if not _matches(value, json_types):
            raise exception.InvalidParameterValue(
                err='Schema error for %s: %r is not of type %s'
                    % (what, value,
                       ', '.join(repr(t) for t in json_types)))


def parse(cls, document, what):
    """The keys of ``document`` validated against WSME type ``cls``.

    :param what: resource name for messages ("node", "port", ...).
    :returns: dict of the given keys (a JSON null stays None).
    :raises: InvalidParameterValue (400), worded like Ironic's JSON schema
        errors ("Schema error for node: ...").
    """
    if not isinstance(document, dict):
        raise exception.InvalidParameterValue(
            err="Schema error for %s: %r is not of type 'object'"
                % (what, document))
    _schema_check(cls, document, what)
    document = dict(document)
    for attr in wtypes.list_attributes(cls):
        value = document.get(attr.name)
        if attr.datatype is bool and isinstance(value, str):
            try:
                document[attr.name] = strutils.bool_from_string(
                    value, strict=True)
            except ValueError:
                raise exception.InvalidParameterValue(
                    err='Invalid boolean value for %s: %s'
                        % (attr.name, value))
    try:
        obj = wsme_json.fromjson(cls, document)
    except wsme_exc.UnknownAttribute as err:
        unexpected = ', '.join(repr(a) for a in sorted(err.attributes))
        raise exception.InvalidParameterValue(
            err='Schema error for %s: Additional properties are not allowed '
                '(%s was unexpected)' % (what, unexpected))
    except wsme_exc.InvalidInput as err:
        raise exception.InvalidParameterValue(
            err='Schema error for %s: invalid value for "%s": %s'
                % (what, err.fieldname, err.msg))
    except (ValueError, TypeError) as err:
        raise exception.InvalidParameterValue(
            err='Schema error for %s: %s' % (what, err))
    values = {}
    for attr in wtypes.list_attributes(cls):
        value = getattr(obj, attr.name)
        if value is not wtypes.Unset:
            values[attr.name] = value
    return values
