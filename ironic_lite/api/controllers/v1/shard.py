"""Shards (1.82): ``GET /v1/shards``, and the rules of shard names.

A shard is a free-form, case-sensitive string on a node that API consumers
(nova-compute, networking-baremetal) use to split the fleet into pieces
they can each own; the conductors never look at it.  ``GET /v1/shards``
counts the nodes of each shard from one GROUP BY (biggest first); the
unsharded nodes are one row named ``"None"``, the spelling that selects
them again in ``?shard=``.
"""

from urllib import parse

import pecan

from ironic_lite.api import microversions as mv
from ironic_lite.api import query as q
from ironic_lite.api import routes
from ironic_lite.common import exception
from ironic_lite.common import policy
from ironic_lite import objects

MAX_LENGTH = 255
# ``?shard=`` spellings that select unsharded nodes (the spec's "none",
# "None" or "null", exactly): never accepted as a shard's name.
UNSHARDED_NAMES = ('none', 'None', 'null')
# How /v1/shards names the unsharded nodes (Ironic's str(None)).
UNSHARDED_ROW_NAME = 'None'


def check_value(value):
    """400 unless ``value`` can be written as a node's shard.

    None (unsharded) is fine.  A shard must be a non-empty string of at
    most 255 characters, without a comma (``?shard=`` is a comma list, so
    such a shard could never be selected), and not one of the spellings
    that mean "unsharded" in queries.
    """
    if value is None:
        return
    if not isinstance(value, str):
        raise exception.InvalidParameterValue(
            err='The shard must be a string or null, not %r.' % (value,))
    if value == '':
        raise exception.InvalidParameterValue(
            err='The shard can not be an empty string. To make a node '
                'unsharded, remove its shard (or set it to null).')
    if len(value) > MAX_LENGTH:
        raise exception.InvalidParameterValue(
            err='The shard is too long (%d characters): shard is at most %d '
                'characters.' % (len(value), MAX_LENGTH))
    if ',' in value:
        raise exception.InvalidParameterValue(
            err='The shard "%s" contains a comma; commas separate shards '
                'in ?shard= queries, so it is not allowed in a name.'
                % value)
    if value in UNSHARDED_NAMES:
        raise exception.InvalidParameterValue(
            err='"%s" can not be used as a shard: the names %s select '
                'unsharded nodes in ?shard= queries. To make a node '
                'unsharded, remove its shard (or set it to null).'
                % (value, ', '.join(UNSHARDED_NAMES)))


def query_filter(params):
    """The ``shard`` list filter of ``?shard=a,b`` (None when absent;
    the route gives the names as a list).

    Names are matched exactly (case-sensitive).  ``none``, ``None`` and
    ``null`` become None: the nodes without a shard.

    :raises: InvalidParameterValue (400) for an empty name or one longer
        than a shard can be.
    """
    names = params.get('shard')
    if names is None:
        return None
    shards = []
    for name in names:
        if name == '':
            raise exception.InvalidParameterValue(
                err='Invalid value for shard: "%s". It must be a comma '
                    'separated list of shard names, none of them empty '
                    '(use "None" for the nodes without a shard).'
                    % ','.join(names))
        if len(name) > MAX_LENGTH:
            raise exception.InvalidParameterValue(
                err='Invalid value for shard: a shard name is at most %d '
                    'characters.' % MAX_LENGTH)
        shard = None if name in UNSHARDED_NAMES else name
        if shard not in shards:
            shards.append(shard)
    return shards


def add_query_filters(params, filters):
    """Add ``shard`` (and ``sharded``, if given) to a list's filters."""
    shards = query_filter(params)
    if shards is not None:
        filters['shard'] = shards
    sharded = params.get('sharded')
    if sharded is not None:
        filters['sharded'] = sharded
    return filters


def next_params(params, names=('shard',)):
    """The filters of ``names`` to repeat in a list's ``next`` link
    (quoted): shards, or a port list's conductor groups.

    Ironic drops them; kept here so that following ``next`` stays in the
    shards (groups) asked for.
    """
    return [(name, parse.quote(_text(params[name]), safe=','))
            for name in names if params.get(name) is not None]


def _text(value):
    """A typed query value as the query string spells it."""
    if isinstance(value, list):
        return ','.join(value)
    return str(value).lower() if isinstance(value, bool) else value


def get_all():
    """The shards and how many nodes each has (biggest first).  The route
    refused any query parameter, before the policy, as Ironic's query
    schema."""
    ctx = pecan.request.context
    policy.authorize('baremetal:shards:get',
                     {'project_id': ctx.project_id}, ctx)
    return {'shards': [
        {'name': (row['name'] if row['name'] is not None
                  else UNSHARDED_ROW_NAME),
         'count': row['count']}
        for row in objects.Node.get_shard_list(ctx)]}


# Ironic's answers: below 1.82, 404 for GET and 405 otherwise; from 1.82,
# 405 for anything but GET and 404 for /v1/shards/<x>.
# Its place in the route table and the API reference (route_table.py).
API_REFERENCE_ORDER = 90
# The links of GET /v1 to it.
V1_RESOURCES = ('shards',)

ROUTES = [
    routes.Route('GET', '/v1/shards', get_all, since=mv.SHARDS_MIN_VERSION,
                 older=routes.Gate(
                     404, 'The API version does not allow shards',
                     other_methods=405),
                 unknown=q.UNKNOWN_SCHEMA,
                 doc='the shards and how many nodes each has'),
]
