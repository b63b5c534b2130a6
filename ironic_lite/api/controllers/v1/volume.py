"""``/v1/volume`` (1.32): the links to the volume connectors and targets,
also under a node (``/v1/nodes/<node>/volume``), and what the connector
and target controllers share.

Volume records are written by the conductor of their node, under the
node's lock (RPC 1.4).  While this API is pinned to a release without it
(3.0), reads are served and every write answers 409 (``PinnedRelease``)
before anything is written.
"""

import functools

from oslo_utils import uuidutils
import pecan

from ironic_lite.api.controllers import link
from ironic_lite.api.controllers.v1 import resource
from ironic_lite.api.controllers.v1 import utils
from ironic_lite.api.controllers.v1 import writer
from ironic_lite.api import microversions as mv
from ironic_lite.api import query as q
from ironic_lite.api import routes
from ironic_lite.api import schemas
from ironic_lite.api.schemas import volume as schema
from ironic_lite.common import exception
from ironic_lite.common import policy
from ironic_lite import objects


def links(node_ident=None):
    """The body of ``/v1/volume`` or ``/v1/nodes/<node>/volume``."""
    if node_ident:
        where, args = 'nodes', '%s/volume/' % node_ident
    else:
        where, args = 'volume', ''
    return {
        'links': link.self_and_bookmark(where, args),
        'connectors': link.self_and_bookmark(where, args + 'connectors'),
        'targets': link.self_and_bookmark(where, args + 'targets'),
    }


def get(node_ident=None):
    """As Ironic: the node of the path is not looked up."""
    ctx = pecan.request.context
    policy.authorize('baremetal:volume:get', policy.node_target(None, ctx),
                     ctx)
    return links(node_ident)


def malformed(*_path, **_query):
    """One connector or target under a node, or a create there: Ironic's
    400."""
    raise exception.MalformedRequestURI()


def record(path, object_class, render, field_table, rpc_methods, noun,
           **declared):
    """The declaration (``resource.Resource``) of a volume record: the
    policy rules ``baremetal:volume:<action>``, written by the conductor
    of its node under the node's lock (RPC 1.4; pinned below, 409 with
    ``'<verb> a <noun>'``, nothing written)."""
    create, update, destroy = rpc_methods
    return resource.Resource(
        'volume', path, object_class, render, field_table,
        writer=writer.Writer(create=create, update=update, destroy=destroy,
                             version='1.4', older=writer.REFUSE,
                             what='{verb} a ' + noun),
        schema_noun='patch', **declared)


class VolumeRecordController(resource.ResourceController):
    """CRUD of volume connectors and targets (declared by ``record``)."""

    def get_object(self, ident):
        return self.RES.object_class.get(pecan.request.context, ident)

    def not_found(self, ident):
        """The record's NotFound exception for ``ident``."""
        return self.RES.object_class.not_found(ident)

    def rpc_node_of(self, obj):
        return self.parent_node_of(obj)

    def _authorized(self, action, ident):
        """Ironic's check_volume_policy_and_retrieve: a record whose node
        the caller may not see is a 404, then the rule's 403."""
        ctx = pecan.request.context
        obj = self.get_object(ident)
        try:
            node = resource.request_node(obj.node_id)
        except exception.NodeNotFound:
            node = None
        target = policy.node_target(node, ctx)
        if not policy.check('baremetal:node:get', target, ctx):
            raise self.not_found(ident)
        policy.authorize('baremetal:volume:%s' % action, target, ctx)
        return obj

    def list_filters(self, params):
        ident = self.node_ident or params.get('node')
        if not ident:
            return {}
        node = resource.get_node_for_filter(
            pecan.request.context, ident, self.node_ident is not None)
        return {'node_id': node.id}

    def get_all(self, **query):
        if query.get('detail') and query.get('fields') is not None:
            raise exception.InvalidParameterValue(
                err="Can't fetch a subset of fields with 'detail' set")
        if query.get('detail') is False:
            del query['detail']     # as Ironic: not repeated in ``next``
        return self.list_body(query, self.RES.path)

    def parent_values(self, ctx, values):
        """node_uuid -> node_id of a new record, checking the create rule
        as Ironic does: on the node's owner and lessee, or on none when
        there is no such node (then 400 InvalidInput)."""
        values = dict(values)
        node_uuid = values.pop('node_uuid')
        try:
            node = objects.Node.get_by_uuid(ctx, node_uuid)
        except exception.NodeNotFound:
            node = None
        policy.authorize('baremetal:volume:create',
                         policy.node_target(node, ctx), ctx)
        if node is None:
            raise exception.InvalidInput(fieldname='node_uuid',
                                         value=node_uuid, msg='')
        resource.request_node(node.id)   # read once: cached
        values['node_id'] = node.id
        values.setdefault('uuid', None)
        if not values['uuid']:
            values['uuid'] = uuidutils.generate_uuid()
        return values

    def check_patch_ops(self, patch):
        for op in patch:
            if op.get('path') == '/node_uuid' and 'value' in op and (
                    not isinstance(op['value'], str)
                    or not uuidutils.is_uuid_like(op['value'])):
                raise exception.InvalidUUID(
                    'Expected a UUID for node_uuid, but received %s.'
                    % (op['value'],))

    def apply_changes(self, ctx, obj, changes):
        changes = dict(changes)
        if 'node_uuid' in changes:
            node = objects.Node.get_by_uuid(ctx, changes.pop('node_uuid'))
            resource.request_node(node.id)
            obj.node_id = node.id
        for name, value in changes.items():
            setattr(obj, name, value)


def record_routes(controller, noun, body_schema, read_only, what):
    """The routes of ``/v1/volume/<noun>`` and of the node's
    ``/v1/nodes/<node>/volume/<noun>``."""
    since = mv.MINOR_32_VOLUME
    arg = noun[:-1] + '_uuid'
    base = '/v1/volume/' + noun
    item = base + '/{%s}' % arg
    path_args = {arg: utils.uuid_arg(arg)}
    singular = 'volume ' + noun[:-1]
    R = functools.partial(routes.Route, owner=controller)
    node_base = '/v1/nodes/{node_ident}/volume/' + noun
    return [
        R('GET', base, controller.get_all, query=schema.LIST_QUERY,
          since=since, unknown=q.UNKNOWN_SCHEMA, doc='list %ss' % singular),
        R('POST', base, controller.post, body={since: body_schema},
          what=what, since=since, doc='create a %s' % singular),
        R('GET', item, controller.get_one, query=schema.SHOW_QUERY,
          since=since, unknown=q.UNKNOWN_SCHEMA, path_args=path_args,
          doc='show a %s' % singular),
        R('PATCH', item, controller.patch, body={since: schemas.PATCH},
          what='patch', read_only=read_only, since=since,
          path_args=path_args, doc='update a %s (JSON patch)' % singular),
        R('DELETE', item, controller.delete, since=since,
          path_args=path_args, doc='delete a %s' % singular),
        R('GET', node_base, controller.get_all, query=schema.LIST_QUERY,
          since=since, unknown=q.UNKNOWN_SCHEMA,
          doc="list the node's %ss" % singular),
    ] + [routes.Route(method, path, malformed, query=q.ANY_QUERY, since=since,
                      listed=False, empty=False)
         for method, path in (('POST', node_base),
                              ('GET', node_base + '/{ident}'),
                              ('PATCH', node_base + '/{ident}'),
                              ('DELETE', node_base + '/{ident}'))]


# Its place in the route table and the API reference (route_table.py).
API_REFERENCE_ORDER = 120
# The links of GET /v1 to it.
V1_RESOURCES = ('volume',)

ROUTES = [
    routes.Route('GET', '/v1/volume', get, since=mv.MINOR_32_VOLUME,
                 query=q.ANY_QUERY, doc='links to the volume connectors '
                                        'and targets'),
    routes.Route('GET', '/v1/nodes/{node_ident}/volume', get,
                 since=mv.MINOR_32_VOLUME, query=q.ANY_QUERY,
                 doc="links to the node's volume connectors and targets"),
]
