"""CRUD of an API resource as its declaration says: ``Resource`` (what
each controller module declares: its object class, render, field table,
schemas and ``writer.Writer``), the generic handlers of
``ResourceController`` and its hooks of the one patch flow
(``patch_flow``) (ports, port groups, chassis, conductors, volume
connectors and targets, deploy templates, allocations), and what their
bodies and filters share (the node and port group a port belongs to,
times as text).
"""

import functools
from urllib import parse

from oslo_utils import uuidutils
import pecan

from ironic_lite.api.controllers import link
from ironic_lite.api.controllers.v1 import collection
from ironic_lite.api.controllers.v1 import node_lookup
from ironic_lite.api.controllers.v1 import patch_flow
from ironic_lite.api.controllers.v1 import shard
from ironic_lite.api.controllers.v1 import utils
from ironic_lite.api.controllers.v1 import writer as write
from ironic_lite.api import json_out
from ironic_lite.api import json_patch
from ironic_lite.api import large_pages
from ironic_lite.api import microversions as mv
from ironic_lite.api import page_cache
from ironic_lite.api import query as q
from ironic_lite.api import routes
from ironic_lite.api import request_scope
from ironic_lite.common import exception
from ironic_lite.common import policy
from ironic_lite import objects


def isotime(value):
    return value.isoformat() if value is not None else None


def _request_nodes():
    """{id: node} of the nodes this request has read (a port write needs
    its node for the node's policy target, the RPC topic and the body's
    node_uuid: one read, not three)."""
    return request_scope.of(pecan.request.environ).nodes_by_id


def request_node(node_id):
    """The node with this id, read at most once per request."""
    nodes = _request_nodes()
    node = nodes.get(node_id)
    if node is None:
        node = nodes[node_id] = objects.Node.get_by_id(
            pecan.request.context, node_id)
    return node


def get_parent_node(ctx, node_uuid, by_name=False):
    """The node a new port/port group belongs to; 400 when unknown.

    :param by_name: also a node name (a port's ``node_ident``, 1.94), as
        Ironic's get_rpc_node: an identifier that is neither a UUID nor a
        valid name is its 400 "Expected a logical name or UUID ...".
    """
    try:
        if node_uuid is None:
            raise exception.NodeNotFound(node=node_uuid)
        if uuidutils.is_uuid_like(node_uuid):
            node = objects.Node.get_by_uuid(ctx, node_uuid)
        elif not by_name:
            raise exception.NodeNotFound(node=node_uuid)
        elif not utils.is_valid_logical_name(node_uuid):
            raise exception.InvalidUuidOrName(name=node_uuid)
        else:
            node = objects.Node.get_by_name(ctx, node_uuid)
    except exception.NodeNotFound:
        raise exception.NodeNotFound(node=node_uuid, code=400)
    remember_node(node)
    return node


def remember_node(node):
    """A node this request has read: ``request_node`` reads it no more."""
    _request_nodes()[node.id] = node


def get_node_for_filter(ctx, ident, from_path):
    """The node of a ``?node=`` filter or of a /v1/nodes/<n>/... path.

    A node in the path that the caller may not see is the 404 that
    ``GET /v1/nodes/<n>`` gives that caller (as Ironic's
    check_port_list_policy), not an empty list.
    """
    if not uuidutils.is_uuid_like(ident) and not utils.allows(
            mv.MINOR_5_NODE_NAME):
        if from_path:
            raise exception.NodeNotFound(node=ident)
        raise exception.NotAcceptable()
    if from_path:
        return node_lookup.fetch_authorized('baremetal:node:get', ident)
    return node_lookup.get_node(ident)


def conductor_groups(params):
    """The groups of ``?conductor_groups=`` (ports and port groups), read
    as Ironic reads them (``args.string_list``).  Given once, a comma
    separated list: each item stripped and lower-cased (Ironic stores a
    node's group lower-cased, so the filter is case-insensitive), empty
    items and repeats dropped; an empty list (``?conductor_groups=``)
    filters nothing.  Given more than once (pecan then passes Ironic a
    list), the values as they are, an empty one included: the default
    group ``""``, as networking-baremetal asks for it
    (``?conductor_groups=grp-a&conductor_groups=``).
    """
    if params.get('conductor_groups') is None:
        return []
    repeated = pecan.request.GET.getall('conductor_groups')
    if len(repeated) > 1:
        return list(dict.fromkeys(repeated))
    groups = []
    for item in params.get('conductor_groups') or ():
        group = item.strip().lower()
        if group and group not in groups:
            groups.append(group)
    return groups


def next_params(params, names):
    """``shard.next_params`` for a port or port group list: conductor
    groups given more than once are repeated as given in ``next`` (an
    empty one stays the default group)."""
    repeated = pecan.request.GET.getall('conductor_groups')
    if 'conductor_groups' not in names or len(repeated) < 2:
        return shard.next_params(params, names)
    pairs = shard.next_params(
        params, [n for n in names if n != 'conductor_groups'])
    return pairs + [('conductor_groups', parse.quote(group, safe=''))
                    for group in dict.fromkeys(repeated)]


def _cached(caches, kind, key, load):
    if key is None:
        return None
    cache = caches.setdefault(kind, {})
    if key not in cache:
        cache[key] = load(key)
    return cache[key]


def node_uuid(node_id, caches):
    return _cached(caches, 'node', node_id,
                   lambda i: request_node(i).uuid)


def portgroup_uuid(portgroup_id, caches):
    return _cached(caches, 'portgroup', portgroup_id,
                   lambda i: objects.Portgroup.get(pecan.request.context,
                                                   i).uuid)


def request_minor(caches):
    """The request's minor version, looked up once per page (``caches``
    lives as long as the request's rendering)."""
    if 'minor' not in caches:
        caches['minor'] = utils.minor()
    return caches['minor']


def request_url(caches):
    """The request's public base URL (of the links), once per page."""
    if 'url' not in caches:
        caches['url'] = pecan.request.public_url
    return caches['url']


def shows(fields, name, table, current=None):
    """Whether a body rendered with ``fields`` at the request's version
    contains ``name`` (``fields`` None or empty: every field).

    :param current: the request's minor version, when the caller has it.
    """
    if fields and name not in fields:
        return False
    if current is None:
        current = utils.minor()
    return current >= table.get(name, 0)


def prefetch_parent_uuids(ctx, objs, fields, table, caches):
    """Fill ``caches`` with the node (and port group) UUIDs of a page in
    one query each, when the rendered bodies show them.

    Only the rows found are cached: a missing parent is then looked up
    one by one by ``node_uuid``/``portgroup_uuid``, which raise as before.
    """
    if 'node_uuid' in table and shows(fields, 'node_uuid', table):
        ids = {o.node_id for o in objs if o.node_id is not None}
        if ids:
            caches.setdefault('node', {}).update(
                objects.Node.uuids_by_id(ctx, ids))
    if ('portgroup_uuid' in table
            and shows(fields, 'portgroup_uuid', table)):
        ids = {o.portgroup_id for o in objs if o.portgroup_id is not None}
        if ids:
            caches.setdefault('portgroup', {}).update(
                objects.Portgroup.uuids_by_id(ctx, ids))


class Resource(object):
    """The declaration of a CRUD API resource, in its controller module:
    what the generic handlers of ``ResourceController`` (list, show,
    create, patch, delete) follow.

    :param kind: the policy and message noun ("port": the rules
        ``baremetal:port:<action>``).
    :param path: the path below /v1 and the list's key ("ports").
    :param object_class: the objects class (``objects.Port``).
    :param render: ``render(obj, fields=None, caches=None)``, the body.
    :param field_table: {field: minimum minor version} of the bodies.
    :param writer: how it is written (``writer.Writer``); None: read-only.
    :param default_fields: the fields of a list without ``?fields=`` or
        ``?detail=``.
    :param invalid_sort_keys: the fields a list may not be sorted by.
    :param body_schema: the JSON schema of a created or patched item.
    :param patch_allowed: the fields a patch may change.
    :param items_key: the list's key, when not ``path`` ("connectors").
    :param schema_noun: the noun of a patched body's schema errors.
    :param link_fields: the keys ``?fields=`` cannot select.
    """

    def __init__(self, kind, path, object_class, render, field_table,
                 writer=None, default_fields=(), invalid_sort_keys=(),
                 link_fields=('links',), body_schema=None,
                 patch_allowed=frozenset(), items_key=None,
                 schema_noun=None):
        self.kind, self.path, self.object_class = kind, path, object_class
        self.render, self.field_table = render, field_table
        self.writer, self.default_fields = writer, default_fields
        self.invalid_sort_keys = invalid_sort_keys
        self.link_fields, self.body_schema = link_fields, body_schema
        self.patch_allowed = patch_allowed
        self.items_key = items_key or path
        self.schema_noun = schema_noun or kind


class ResourceController(patch_flow.PatchFlow):
    """CRUD of a resource, as its declaration (``RES``, a ``Resource``)
    says.  The subclasses implement ``get_object``, ``list_filters`` and
    ``new_object`` (a written resource), and override the hooks below
    where their resource differs (its policy target, its parent node, its
    patch)."""

    RES = None

    def __init__(self, node_ident=None):
        self.node_ident = node_ident

    # -- writes -----------------------------------------------------------

    def write(self, action, ctx, obj):
        """create, update or destroy ``obj`` as the resource's writer says:
        through the conductor (of its node, under the node's lock) or to
        the database after the API-side checks.  Returns the object as
        written."""
        writer = self.RES.writer
        client = pecan.request.rpcapi
        writer.check(client, action)
        if writer.sends(client, action):
            node = None
            if writer.takes_node(action):
                node = self.rpc_node_of(obj)
            written = self.written_as_the_conductor_would(ctx, obj, action,
                                                          node)
            if written is not None:
                return written
            result = writer.send(client, action, ctx, obj, node)
            return obj if result is None else result
        return self.write_here(ctx, obj, action)

    # -- hooks for subclasses ---------------------------------------------

    def written_as_the_conductor_would(self, ctx, obj, action, node):
        """``obj`` as written here, in the one statement the conductor
        would first make for ``action`` when it has nothing else to
        decide; None when it was not (it is then sent to the conductor).
        None here: every write the writer sends goes to the conductor."""
        return None

    def write_here(self, ctx, obj, action):
        """``action`` written to the database by the API (its writer
        sends it nowhere, or is pinned below the version that does);
        returns the object written.  Ports and port groups add the checks
        the conductor would make, under their node's lock."""
        getattr(obj, write.SAVES[action])()
        return obj

    # The patch flow's hooks (``patch_flow.PatchFlow``) as a declared
    # resource fills them.

    def object_to_patch(self, ident, patch):
        return self._authorized('update', ident)

    def check_patch(self, patch, ident):
        """The paths a patch may touch, at the request's version."""
        json_patch.check_patch_fields(patch, self.RES.patch_allowed,
                                      self.RES.field_table)

    def editable_document(self, obj):
        """The document a patch applies to: the fields it may change, as
        a read shows them."""
        body = self.render(obj)
        return {k: v for k, v in body.items()
                if k in self.RES.patch_allowed}

    def check_changes(self, obj, changes, new_doc):
        """A port's or port group's new node, and the patched document
        against the resource's schema."""
        if 'node_uuid' in changes:
            self._check_node_link(obj, changes['node_uuid'])
        utils.check_body(self.RES.body_schema,
                         {k: v for k, v in new_doc.items() if v is not None},
                         self.RES.schema_noun)

    def apply_changes(self, ctx, obj, changes):
        """Set the changed fields on ``obj`` (its write compares
        nothing)."""
        for name, value in changes.items():
            setattr(obj, name, value)

    def write_patched(self, ctx, obj, expected, write_args):
        return self.write('update', ctx, obj)

    def parent_node_of(self, obj):
        return request_node(obj.node_id)

    def rpc_node_of(self, obj):
        """The node whose conductor writes ``obj`` (400 when it is gone)."""
        try:
            return self.parent_node_of(obj)
        except exception.NodeNotFound:
            raise exception.NodeNotFound(node=obj.node_id, code=400)

    def render(self, obj, fields=None, caches=None):
        return self.RES.render(obj, fields, caches)

    def policy_target(self, obj):
        return policy.node_target(self.parent_node_of(obj),
                                  pecan.request.context)

    def project_filter(self, ctx):
        return policy.list_project_filter(self.RES.kind, ctx)

    def marker_of(self, obj):
        return obj.uuid

    def next_filters(self, params):
        """Filters (key, value) a list repeats in ``next`` (none, as
        Ironic)."""
        return []

    # -- helpers ----------------------------------------------------------

    @staticmethod
    def common_filters(params, filters):
        """Add ?address=, ?shard= and ?conductor_groups= (ports and port
        groups) to filters.

        Every filter given must match (AND): ?node=X&shard=S lists the
        items of X only when X is in S.  (The handlers refuse the
        combinations Ironic refuses.)
        """
        if params.get('address'):
            filters['address'] = params['address'].lower()
        if params.get('description_contains'):
            filters['description_contains'] = params['description_contains']
        shards = shard.query_filter(params)
        if shards is not None:
            filters['shard'] = shards
        groups = conductor_groups(params)
        if groups:
            filters['conductor_groups'] = groups
        return filters

    def _authorized(self, action, ident):
        ctx = pecan.request.context
        obj = self.get_object(ident)
        policy.authorize('baremetal:%s:%s' % (self.RES.kind, action),
                         self.policy_target(obj), ctx)
        return obj

    def list_body(self, params, resource, detail=False):
        ctx = pecan.request.context
        fields = utils.get_fields(params.get('fields'),
                                  self.RES.field_table, self.RES.link_fields)
        detail = detail or utils.get_detail(params.get('detail'), fields)
        limit = utils.get_limit(params.get('limit'))
        sort_key, sort_dir = utils.get_sort(params, self.RES.field_table,
                                            self.RES.invalid_sort_keys)
        marker = params.get('marker')
        filters = self.list_filters(params)
        project = self.project_filter(ctx)
        if project is not None:
            filters['project'] = project
        explicit_fields = fields is not None
        if fields is None and not detail:
            fields = list(self.RES.default_fields)
        read = functools.partial(self._read_page, params, resource, detail,
                                 fields, limit, marker, sort_key, sort_dir,
                                 filters, explicit_fields)
        kept = page_cache.pages()
        version = None if kept is None else self.page_version(
            ctx, limit, marker, sort_key, sort_dir, filters)
        if version is None:
            return read()
        # Everything else the page's bytes depend on (page_cache.py).
        key = (resource, detail, params.get('detail'), explicit_fields,
               tuple(fields or ()), limit, marker, sort_key, sort_dir,
               repr(sorted(filters.items())), repr(self.next_filters(params)),
               utils.minor(), pecan.request.public_url)
        return kept.serve(key, version, lambda: json_out.encode(read()))

    def page_version(self, ctx, limit, marker, sort_key, sort_dir, filters):
        """What changes whenever the page of these arguments would (the
        object class's ``page_version``), or None: the page is read and
        rendered on every request."""
        return None

    def _read_page(self, params, resource, detail, fields, limit, marker,
                   sort_key, sort_dir, filters, explicit_fields):
        ctx = pecan.request.context
        with large_pages.page(pecan.request.environ, self.RES.path, limit,
                              detail, explicit_fields) as rendered:
            objs = self.list_objects(ctx, limit, marker, sort_key,
                                     sort_dir, filters)
            caches = {}
            prefetch_parent_uuids(ctx, objs, fields, self.RES.field_table,
                                  caches)
            items = [self.render(o, fields, caches) for o in objs]
            rendered(len(items))
        # As Ironic: sort_key, sort_dir, detail when given, then the fields
        # returned (the default ones for a plain list); no filters.
        next_params = [('sort_key', sort_key), ('sort_dir', sort_dir)]
        if params.get('detail') is not None:
            next_params.append(('detail', params['detail']))
        if fields:
            next_params.append(('fields', fields))
        next_params += self.next_filters(params)
        return collection.make(self.RES.items_key, items, limit, resource,
                               self.marker_of(objs[-1]) if objs else None,
                               next_params)

    def list_objects(self, ctx, limit, marker, sort_key, sort_dir, filters):
        return self.RES.object_class.list(
            ctx, limit=limit, marker=marker, sort_key=sort_key,
            sort_dir=sort_dir, filters=filters)

    # -- handlers ---------------------------------------------------------

    def get_all(self, **query):
        return self.list_body(query, self.RES.path)

    def detail(self, **query):
        if 'fields' in query:
            raise exception.InvalidParameterValue(
                err='Invalid query parameter ?fields received.')
        return self.list_body(query, self.RES.path + '/detail', detail=True)

    def get_one(self, ident, fields=None):
        obj = self._authorized('get', ident)
        return self.render(obj, utils.get_fields(
            fields, self.RES.field_table, self.RES.link_fields))

    def post(self, body):
        ctx = pecan.request.context
        values = body
        utils.check_new_fields(values, self.RES.field_table)
        obj = self.new_object(ctx, values)
        policy.authorize('baremetal:%s:create' % self.RES.kind,
                         self.policy_target(obj), ctx)
        obj = self.write('create', ctx, obj)
        pecan.response.status = 201
        pecan.response.headers['Location'] = link.build_url(
            self.RES.path, obj.uuid)
        return self.render(obj)

    def patch(self, ident, body):
        """The one JSON-patch flow (``patch_flow``), with the hooks
        above."""
        return self.run_patch(ident, body)

    def _check_node_link(self, obj, new_node):
        """Moving a port or port group to another node: only to a node the
        caller may see, of the same owner, as Ironic since
        CVE-2026-44918 (one 400 whatever the reason: whether the node
        exists is not told)."""
        refused = exception.Invalid(
            "Unable to apply the requested node_uuid '%s'. Requested value "
            "was invalid." % (new_node,))
        if not isinstance(new_node, str):
            raise refused
        try:
            node = node_lookup.fetch_authorized('baremetal:node:get',
                                                new_node)
        except (exception.NotFound, exception.Invalid,
                exception.NotAuthorized):
            raise refused
        if node.owner != self.parent_node_of(obj).owner:
            raise refused

    def delete(self, ident):
        obj = self._authorized('delete', ident)
        self.write('destroy', pecan.request.context, obj)
        pecan.response.status = 204
        return ''


def not_permitted(*_path):
    """One item of a sub-collection (``/v1/nodes/<n>/ports/<p>``), or a
    create through one: Ironic's 403."""
    raise exception.NotAuthorized('Operation not permitted.')


def refused_routes(prefix, since=1):
    """The routes of ``not_permitted`` under a sub-collection ``prefix``
    (not in the API reference)."""
    item = prefix + '/{ident}'
    return [routes.Route(method, path, not_permitted, query=q.ANY_QUERY,
                         since=since, listed=False, empty=False)
            for method, path in (('POST', prefix), ('GET', item),
                                 ('PATCH', item), ('DELETE', item))]
