"""Hypothesis strategies: requests for every declared route, from the
request contract (``ironic_lite.api.schemas``).

Each request is valid or broken on purpose: path segments that are not
UUIDs or names (huge numbers, bytes that are not UTF-8, NUL, surrogates),
query parameters of the wrong type, unknown or repeated, bodies of the
wrong type, too long for their column, nested too deep, with unknown keys,
NaN, invalid UTF-8 or the wrong media type.
"""

from urllib import parse

from hypothesis import strategies as st

from ironic_lite.api import microversions as mv
from ironic_lite.api import schemas
from ironic_lite.api import query as v

# Any Unicode, lone surrogates and NUL included.
ANY_CHAR = st.characters(codec=None, exclude_categories=())
SHORT_TEXT = st.text(ANY_CHAR, max_size=12)


@st.composite
def weighted(draw, *choices):
    """One of the (weight, strategy) ``choices``, by weight: mostly valid
    requests reach the deeper code, broken ones still come often."""
    total = sum(w for w, _s in choices)
    pick = draw(st.integers(0, total - 1))
    for weight, strategy in choices:
        if pick < weight:
            return draw(strategy)
        pick -= weight


VERSIONS = weighted(
    (6, st.sampled_from(['latest', mv.MAX_VERSION_STRING])),
    (3, st.integers(1, mv.MINOR_MAX_VERSION).map(lambda m: '1.%d' % m)),
    (1, st.sampled_from(['2.0', '1.999', 'x', ''])))

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-2 ** 70, 2 ** 70)
    | st.floats(allow_nan=False, allow_infinity=False) | SHORT_TEXT,
    lambda inner: (st.lists(inner, max_size=3)
                   | st.dictionaries(SHORT_TEXT, inner, max_size=3)),
    max_leaves=8)


def _encode(text):
    """UTF-8 bytes of any text (lone surrogates kept, as a client could
    send them)."""
    return text.encode('utf-8', 'surrogatepass')


def quote(data):
    if isinstance(data, str):
        data = _encode(data)
    return parse.quote_from_bytes(data, safe='')


SEGMENTS = st.one_of(
    SHORT_TEXT.map(_encode),
    st.binary(min_size=1, max_size=6),
    st.integers(0, 10 ** 30).map(lambda i: str(i).encode()),
    st.uuids().map(lambda u: str(u).encode()))


def _segment(name, idents):
    known = idents.get(name.strip('{}'), [])
    if not known:
        return SEGMENTS
    return weighted((4, st.sampled_from([k.encode() for k in known])),
                    (1, SEGMENTS))


@st.composite
def path_of(draw, route, idents):
    parts = []
    for segment in route.segments:
        if segment.startswith('{'):
            parts.append(quote(draw(_segment(segment, idents))))
        else:
            parts.append(segment)
    return '/' + '/'.join(parts)


VALID_QUERY = {
    v.UUID: st.uuids().map(str),
    v.BOOL: st.sampled_from(['true', 'false', '1', '0', 'True']),
    v.INT: st.integers(-3, 2000).map(str),
    v.LIST: st.sampled_from(['A', 'A,B', 'None', 'uuid,name', 'rack-1']),
    v.STRING: st.sampled_from(['node-0', 'pg-0', 'asc', 'desc', 'uuid',
                               'fake-hardware', 'enroll', '52:54:00:00:00:01',
                               'power failure']),
}


@st.composite
def query_of(draw, route, idents):
    params = list((route.query or {}).values())
    pairs = []
    if params:
        names = draw(st.lists(st.sampled_from(params), max_size=4,
                              unique_by=lambda p: p.name))
        if names and draw(st.integers(0, 9)) == 0:
            names.append(names[0])     # repeated
        for param in names:
            value = draw(weighted(
                (6, VALID_QUERY[param.kind]),
                (2, st.sampled_from(sum(idents.values(), []))),
                (1, SHORT_TEXT.map(_encode)),
                (1, st.binary(max_size=4))))
            pairs.append((param.name, value))
    if draw(st.integers(0, 9)) == 0:
        pairs.append((draw(st.sampled_from(['shrad', 'nodes', 'x'])
                           | SHORT_TEXT), draw(SHORT_TEXT)))
    return '&'.join('%s=%s' % (quote(k), quote(val)) for k, val in pairs)


def _value_of(prop):
    types = prop.get('type', [])
    choices = []
    if 'string' in types:
        choices.append(SHORT_TEXT)
        limit = prop.get('maxLength')
        if limit:
            choices.append(st.integers(limit - 1, limit + 1).map(
                lambda n: 'é' * n))
    if 'boolean' in types:
        choices.append(st.booleans())
    if 'integer' in types:
        choices.append(st.integers(-2 ** 70, 2 ** 70))
    if 'object' in types:
        choices.append(st.dictionaries(SHORT_TEXT, JSON_VALUES, max_size=3))
        if prop.get('maxBytes'):
            limit = prop['maxBytes']
            choices.append(st.integers(limit - 12, limit + 2).map(
                lambda n: {'k': 'x' * n}))
    if 'array' in types:
        choices.append(st.lists(JSON_VALUES, max_size=3))
    if 'null' in types:
        choices.append(st.none())
    if prop.get('maxBytes') and 'string' in types:
        limit = prop['maxBytes']
        choices.append(st.integers(limit - 4, limit + 4).map(
            lambda n: 'x' * n))
    # The wrong type, now and then.
    choices.append(JSON_VALUES)
    return st.one_of(*choices)


MACS = st.integers(0, 2 ** 48 - 1).map(
    lambda i: ':'.join('%02x' % b for b in i.to_bytes(6, 'big')))


def _valid_of(name, prop, idents):
    """A value of the property's own type (mostly accepted)."""
    if name in ('address',):
        return MACS
    if name in ('node_uuid',):
        return st.sampled_from(idents['node_ident'][:1])
    if name in ('portgroup_uuid',):
        return st.sampled_from(idents['portgroup_ident'][:1] + [None])
    if name in ('chassis_uuid',):
        return st.sampled_from(idents['chassis_uuid'] + [None])
    if name == 'driver':
        return st.just('fake-hardware')
    if name == 'target':
        return st.sampled_from(['manage', 'provide', 'inspect', 'active',
                                'deleted', 'abort', 'power on',
                                'power off', 'rebooting', 'adopt'])
    types = prop.get('type', [])
    if 'boolean' in types:
        return st.booleans()
    if 'object' in types:
        return st.dictionaries(st.text(max_size=4), JSON_VALUES, max_size=3)
    if 'string' in types:
        return st.text(st.characters(codec='utf-8'), min_size=1,
                       max_size=10)
    return _value_of(prop)


@st.composite
def object_of(draw, schema, idents):
    props = schema.get('properties', {})
    doc = {}
    for name in draw(st.lists(st.sampled_from(sorted(props)), unique=True,
                              max_size=5)) if props else []:
        doc[name] = draw(weighted((3, _valid_of(name, props[name], idents)),
                                  (1, _value_of(props[name]))))
    for name in schema.get('required', ()):
        if name not in doc and draw(st.integers(0, 9)):
            doc[name] = draw(_valid_of(name, props[name], idents))
    limited = sorted(n for n, p in props.items()
                     if 'maxLength' in p or 'maxBytes' in p)
    if limited and draw(st.integers(0, 2)) == 0:
        # One value at its column's limit, or just over it.
        name = draw(st.sampled_from(limited))
        over = draw(st.integers(0, 1))
        if 'maxLength' in props[name]:
            doc[name] = 'é' * (props[name]['maxLength'] + over)
        elif 'string' in props[name]['type']:
            doc[name] = 'x' * (props[name]['maxBytes'] - 2 + over)
        else:
            doc[name] = {'k': 'x' * (props[name]['maxBytes'] - 10 + over)}
    if draw(st.integers(0, 6)) == 0:
        doc[draw(SHORT_TEXT)] = draw(JSON_VALUES)
    return doc


@st.composite
def patch_of(draw, fields):
    ops = []
    for _ in range(draw(st.integers(0, 3))):
        op = {'op': draw(st.sampled_from(schemas.PATCH_OPS + ('bad',))),
              'path': draw(st.sampled_from(
                  ['/%s' % f for f in fields] + ['/extra/a', '/x'])
                  | SHORT_TEXT)}
        if op['op'] not in ('remove', 'move', 'copy') or draw(
                st.integers(0, 5)) == 0:
            op['value'] = draw(weighted(
                (3, st.text(st.characters(codec='utf-8'), max_size=8)),
                (1, st.booleans()),
                (2, st.sampled_from([15, 16, 36, 37, 80, 81, 255, 256,
                                     65535, 65536]).map(lambda n: 'x' * n)),
                (1, JSON_VALUES)))
        if op['op'] in ('move', 'copy') or draw(st.integers(0, 5)) == 0:
            op['from'] = draw(st.sampled_from(['/extra', '/name', 'x'])
                              | JSON_VALUES)
        ops.append(op)
    return ops


def _deep(depth):
    return ('[' * depth + ']' * depth).encode()


@st.composite
def body_of(draw, route, minor, fields, idents):
    """(bytes, content type) of a request body."""
    schema = route.body_schema(minor)
    if schema is None:
        return b'', None
    if schema is schemas.PATCH:
        document = draw(patch_of(fields))
    else:
        document = draw(object_of(schema, idents))
    kind = draw(st.integers(0, 24))
    if kind == 0:
        document = draw(JSON_VALUES)
    elif kind == 1:
        return _deep(draw(st.integers(20, 3000))), 'application/json'
    elif kind == 2:
        return b'{"a": NaN, "b": Infinity}', 'application/json'
    elif kind == 3:
        return draw(st.binary(min_size=1, max_size=12)), 'application/json'
    import json
    raw = json.dumps(document).encode()
    if kind == 4:
        return raw, draw(st.sampled_from([
            'text/plain', '', None, 'application/x-www-form-urlencoded']))
    if kind == 5:
        raw = raw.replace(b'"', b'"\\ud800', 1)
    return raw, 'application/json'


@st.composite
def requests(draw, route, idents, fields):
    """(method, url, body, content type, version) for ``route``."""
    version = draw(VERSIONS)
    minor = mv.MINOR_MAX_VERSION
    if version.startswith('1.') and version[2:].isdigit():
        minor = min(int(version[2:]), mv.MINOR_MAX_VERSION)
    url = draw(path_of(route, idents))
    query = draw(query_of(route, idents))
    if query:
        url += '?' + query
    body, content_type = draw(body_of(route, minor,
                                      fields.get(route.segments[1], ())
                                      if len(route.segments) > 1 else (),
                                      idents))
    return route.method, url, body, content_type, version
