"""What the routes of a resource may be given, one module per resource.

Each module (``node.py``, ``port.py``, ...) declares the query parameters
(``query.Param``: type, microversion) and body JSON schemas its routes
use; the routes themselves (``api/routes.py``) are declared beside their
handlers, in ``controllers/v1/<resource>.py``, and name these
(see doc/source/contributor/request-contract.rst).

Length limits come from the database model (``objects.base.
column_limits``), so that no value the database would refuse reaches it.
"""

from ironic_lite.api import query as v
from ironic_lite.objects import base as objects_base

# JSON types of body fields, as Ironic's schemas give them.
TEXT = ('string', 'null')
BOOL = ('string', 'boolean', 'null')
DICT = ('object', 'null')
LIST_ = ('array', 'null')

# The paging and sorting parameters of every collection.
PAGING = (
    v.Param('marker', v.UUID, doc='UUID of the last item of the previous '
                                  'page'),
    v.Param('limit', v.INT, doc='maximum number of items ([api]max_limit '
                                'at most)'),
    v.Param('sort_key', doc='field to sort by'),
    v.Param('sort_dir', doc='asc or desc'),
)


def fields_param(since=8):
    return v.Param('fields', v.LIST, since=since,
                   doc='the fields to return (comma list)')


def detail_param(since=43):
    return v.Param('detail', v.BOOL, since=since, gate=v.GATE_DETAIL,
                   doc='return every field')


def body(table, fields, required=(), columns=None, uuids=()):
    """An object schema of ``fields`` ({name: JSON types}).

    Each field gets the length limit of its column in ``table`` (a
    String's characters, or a Text or JSON column's bytes); ``columns``
    maps a field to a column of another name.  ``uuids`` are the fields
    Ironic checks as UUIDs after the schema ("Expected UUID for uuid:
    x"), in its order.
    """
    limits = objects_base.column_limits(table)
    properties = {}
    for name, types in sorted(fields.items()):
        prop = {'type': [t for t in types
                         if not (name in required and t == 'null')]}
        kind, limit = limits.get((columns or {}).get(name, name),
                                 (None, None))
        if kind == 'chars' and 'string' in types:
            prop['maxLength'] = limit
        elif kind == 'bytes':
            prop['maxBytes'] = limit
        properties[name] = prop
    result = {'type': 'object', 'properties': properties,
              'required': list(required), 'additionalProperties': False}
    if uuids:
        result['uuidFields'] = list(uuids)
    return result


PATCH_OPS = ('add', 'replace', 'remove', 'move', 'copy', 'test')

# RFC 6902 operations (Ironic's patch schema, with move/copy/test and
# their "from").
PATCH = {
    'type': 'array',
    'items': {
        'type': 'object',
        'properties': {
            'path': {'type': 'string', 'pattern': '^/'},
            'op': {'type': 'string', 'enum': list(PATCH_OPS)},
            'value': {},
            'from': {'type': 'string', 'pattern': '^/'},
        },
        'additionalProperties': False,
        'required': ['op', 'path'],
        'allOf': [
            {'if': {'properties': {'op': {'enum': ['add', 'replace',
                                                   'test']}}},
             'then': {'required': ['value']}},
            {'if': {'properties': {'op': {'enum': ['move', 'copy']}}},
             'then': {'required': ['from']}},
        ],
    },
}
