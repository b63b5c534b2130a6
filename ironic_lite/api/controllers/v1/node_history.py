"""``/v1/nodes/<n>/history`` (1.78): the node's history events, oldest
first, as Ironic's NodeHistoryController; read only.

An event's short body (a list) is ``uuid``, ``created_at``, ``severity``
and ``event`` (cut to 255 characters); its detailed one (``?detail=True``,
and one event) adds ``event_type``, ``conductor`` and ``user``, from 1.113
``project``, from 1.115 ``state``, ``target_provision_state`` and
``duration_seconds``.  Policy
``baremetal:node:history:get``.  The events are written by the conductor
(``objects/node_history.py``).
"""

import pecan

from ironic_lite.api.controllers.v1 import collection
from ironic_lite.api.controllers.v1 import node_lookup
from ironic_lite.api.controllers.v1 import resource
from ironic_lite.api.controllers.v1 import utils
from ironic_lite.api import microversions as mv
from ironic_lite.api import routes
from ironic_lite.api.schemas import node_history as schema
from ironic_lite.common import exception
from ironic_lite import objects

RULE = 'baremetal:node:history:get'
STANDARD_FIELDS = ('uuid', 'created_at', 'severity', 'event')
DETAIL_FIELDS = ('uuid', 'created_at', 'severity', 'event_type', 'event',
                 'conductor', 'user', 'project', 'state',
                 'target_provision_state', 'duration_seconds')
# The detailed fields that came later: the caller's project (1.113), the
# state, target and time spent in the previous state (1.115).
FIELD_MIN_VERSION = {
    'project': mv.MINOR_113_NODE_HISTORY_PROJECT,
    'state': mv.MINOR_115_NODE_HISTORY_FIELDS,
    'target_provision_state': mv.MINOR_115_NODE_HISTORY_FIELDS,
    'duration_seconds': mv.MINOR_115_NODE_HISTORY_FIELDS,
}
_SHORT_EVENT = 255


def detail_fields():
    """The detailed fields at the request's version."""
    minor = utils.minor()
    return tuple(name for name in DETAIL_FIELDS
                 if FIELD_MIN_VERSION.get(name, 0) <= minor)


def render(node_uuid, event, detail, fields=None):
    body = {}
    for name in detail_fields() if detail or fields else STANDARD_FIELDS:
        value = getattr(event, name)
        body[name] = (resource.isotime(value) if name == 'created_at'
                      else value)
    if not detail and body.get('event') and (
            len(body['event']) > _SHORT_EVENT):
        body['event'] = body['event'][:_SHORT_EVENT - 4] + '...'
    if fields:
        body = {k: v for k, v in body.items() if k in fields}
    body['links'] = [{
        'href': '%s/v1/nodes/%s/history/%s' % (pecan.request.public_url,
                                               node_uuid, event.uuid),
        'rel': 'self'}]
    return body


class NodeHistoryController(object):
    def __init__(self, node_ident):
        self.node_ident = node_ident

    def get_all(self, detail=None, marker=None, limit=None,
                sort_key='created_at', sort_dir='asc', fields=None):
        node = node_lookup.fetch_authorized(RULE, self.node_ident)
        shown_at_version = detail_fields()
        fields = utils.check_fields(fields, shown_at_version)
        detail = utils.get_detail(detail, fields)
        limit = utils.get_limit(limit)
        # The key is checked before the direction here (not in get_sort).
        if sort_key not in shown_at_version:
            raise utils.invalid_sort_key(sort_key)
        utils.check_sort_dir(sort_dir)
        events = objects.NodeHistory.list_by_node_id(
            pecan.request.context, node.id, limit=limit, marker=marker,
            sort_key=sort_key, sort_dir=sort_dir)
        shown = fields or (shown_at_version if detail else STANDARD_FIELDS)
        params = [('sort_key', sort_key), ('sort_dir', sort_dir)]
        if detail:
            params.append(('detail', True))
        params.append(('fields', list(shown)))
        return collection.make(
            'history', [render(node.uuid, e, detail, fields)
                        for e in events],
            limit, 'nodes/%s/history' % self.node_ident,
            events[-1].uuid if events else None, params)

    def get_one(self, event_ident):
        node = node_lookup.fetch_authorized(RULE, self.node_ident)
        try:
            event = objects.NodeHistory.get_by_uuid(pecan.request.context,
                                                    event_ident)
        except exception.NodeHistoryNotFound:
            event = None
        # Another node's event is not this node's (Ironic shows it).
        if event is None or event.node_id != node.id:
            raise exception.NodeHistoryNotFound(history=event_ident)
        return render(node.uuid, event, detail=True)


H = '/v1/nodes/{node_ident}/history'
SINCE = mv.MINOR_78_NODE_HISTORY

# Its place in the route table and the API reference (route_table.py).
API_REFERENCE_ORDER = 180

ROUTES = [
    routes.Route('GET', H, NodeHistoryController.get_all,
                 query=schema.LIST_QUERY, since=SINCE,
                 doc="a node's history events, oldest first"),
    routes.Route('GET', H + '/{event_ident}', NodeHistoryController.get_one,
                 path_args={'event_ident':
                            utils.uuid_or_name_arg('event')},
                 since=SINCE, doc="one of a node's history events"),
]
