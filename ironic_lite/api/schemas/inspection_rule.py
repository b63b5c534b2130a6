"""The contract of ``/v1/inspection_rules`` (API 1.96), as Ironic's.

A rule's body is Ironic's ``create_request_body``
(``common.inspection_rule_operators.RULE_SCHEMA``: the actions, at least
one, and the conditions, each an ``op`` of Ironic's with its ``args``),
with the limits of the columns: ``conditions`` and ``actions`` at most
64 KiB as JSON, and a ``uuid`` that is a UUID.  What each operation's
arguments must be, the phase and the priority are checked after it
(``inspection_rule_operators.validate_rule``).  A PATCH takes Ironic's
``add``, ``replace`` and ``remove``.
"""

import copy

from ironic_lite.api import microversions as mv
from ironic_lite.api import query as v
from ironic_lite.api import schemas as s
from ironic_lite.common import inspection_rule_operators as operators
from ironic_lite.objects import base as objects_base

SINCE = mv.MINOR_96_INSPECTION_RULES
_LIMITS = objects_base.column_limits('inspection_rules')


def _listed_types(schema):
    """The schema with each ``type`` a list (the API reference's form)."""
    if isinstance(schema, dict):
        result = {k: _listed_types(v) for k, v in schema.items()}
        if isinstance(result.get('type'), str):
            result['type'] = [result['type']]
        return result
    if isinstance(schema, list):
        return [_listed_types(v) for v in schema]
    return schema


BODY = _listed_types(copy.deepcopy(operators.RULE_SCHEMA))
for _name in ('conditions', 'actions'):
    BODY['properties'][_name]['maxBytes'] = _LIMITS[_name][1]
BODY['uuidFields'] = ['uuid']

PATCH_ALLOWED = frozenset(('description', 'priority', 'sensitive', 'phase',
                           'conditions', 'actions'))
READ_ONLY = ('uuid', 'created_at', 'updated_at', 'links')

# Ironic's update_request_body: add, replace and remove only.
PATCH = copy.deepcopy(s.PATCH)
PATCH['items']['properties']['op']['enum'] = ['add', 'replace', 'remove']
PATCH['description'] = ('a JSON patch (RFC 6902): a list of operations '
                        '``op`` (add, replace, remove), ``path``, ``value``')

LIST_QUERY = (
    v.Param('marker', doc='UUID of the last rule of the previous page'),
) + s.PAGING[1:] + (
    s.fields_param(since=SINCE), s.detail_param(since=SINCE),
    v.Param('phase', since=SINCE, doc='only the rules of this phase'),
)
