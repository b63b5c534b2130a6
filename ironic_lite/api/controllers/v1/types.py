"""WSME types of request bodies, and parsing a body into them.

Each resource module declares a ``wsme.types.Base`` subclass with the
keys its POST body (and, after a JSON patch, its PATCH document) may
hold; ``parse`` checks a JSON document against such a type and returns
the keys that were given, as a plain dict.  Unknown keys, wrong types and
missing mandatory keys are a 400.
"""

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


def parse(cls, document, what):
    """The keys of ``document`` validated against WSME type ``cls``.

    :param what: resource name for messages ("node", "port", ...).
    :returns: dict of the given keys (a JSON null stays None).
    :raises: InvalidParameterValue (400).
    """
    if not isinstance(document, dict):
        raise exception.InvalidParameterValue(
            err='Invalid %s body: expected a JSON object.' % what)
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
