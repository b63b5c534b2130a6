"""``/v1/nodes``: list, show, create, update (JSON patch), delete, and the
routes to a node's sub-resources.

Writes go through the conductor that owns the node (``rpcapi``), which
holds the node's lock while it saves; an update of fields the conductor
only writes is written here, as it would write it (``_written_as_read``),
and so is a creation whose interfaces' defaults that conductor published
(``_created_as_its_conductor_would``).
"""

from oslo_utils import uuidutils
import pecan

from ironic_lite.api.controllers import link
from ironic_lite.api.controllers.v1 import allocation
from ironic_lite.api.controllers.v1 import node_children
from ironic_lite.api.controllers.v1 import node_list
from ironic_lite.api.controllers.v1 import node_lookup
from ironic_lite.api.controllers.v1 import node_render
from ironic_lite.api.controllers.v1 import node_states
from ironic_lite.api.controllers.v1 import patch_flow
from ironic_lite.api.controllers.v1 import port
from ironic_lite.api.controllers.v1 import portgroup
from ironic_lite.api.controllers.v1 import shard
from ironic_lite.api.controllers.v1 import utils
from ironic_lite.api import json_patch
from ironic_lite.api import microversions as mv
from ironic_lite.api import query as q
from ironic_lite.api import routes
from ironic_lite.api import schemas
from ironic_lite.api.schemas import node as schema
from ironic_lite.common import exception
from ironic_lite.common import node_patch_policy
from ironic_lite.common import policy
from ironic_lite.common import release_pin
from ironic_lite.common import states
from ironic_lite import conf
from ironic_lite.drivers import factory
from ironic_lite import objects

CONF = conf.CONF
MAX_DESCRIPTION = 4096

PATCH_ALLOWED_FIELDS = schema.PATCH_ALLOWED
# How a node is written (declared with the node's other writes, in
# node_states.py).
WRITER = node_states.WRITER


def _conductor_decides(field):
    """Whether a conductor has more to do with a change of ``field`` than
    to write it (``ConductorManager.update_node``): the hardware type and
    its interfaces, maintenance, the instance, the flags with a reason."""
    return field in _CONDUCTOR_FIELDS or field.endswith('_interface')


_CONDUCTOR_FIELDS = frozenset((
    'driver', 'maintenance', 'instance_uuid', 'protected', 'protected_reason',
    'retired', 'retired_reason'))


def _written_as_read(ctx, obj, expected):
    """Whether the API wrote the node's update itself, as the node's
    conductor would have (``Node.save_as_read``: one statement, made only
    if no task holds the node and the row still has the values the
    update was computed from, ``expected``, and the provision state read):
    for an update of fields a conductor only writes.  Anything else --
    another write or a lock meanwhile, a pin, a database without such
    statements -- is not written here, and goes to the conductor."""
    delta = obj.obj_what_changed()
    as_read = (None if any(map(_conductor_decides, delta))
               else obj.values_as_read(expected, delta))
    if as_read is None:
        return False
    # As for an update sent to it: a conductor must serve the node.
    pecan.request.rpcapi.get_conductor_for(ctx, obj)
    return obj.save_as_read(ctx, as_read)


def _created_as_its_conductor_would(ctx, node):
    """The node, created here as the conductor the hash ring gives it
    would create it (``ConductorManager.create_node``): with the
    defaults of its interfaces that conductor published
    (``factory.apply_published``), in one insert.  None -- nothing
    written, the creation goes to the conductor -- while a release is
    pinned, when that conductor published nothing (an older release),
    or when one of the node's interfaces is not one it accepts: its own
    checks then answer."""
    if release_pin.effective():
        return None
    rpcapi = pecan.request.rpcapi
    # As for a creation sent to it: a conductor must serve the node.
    host = rpcapi.get_conductor_for(ctx, node)
    if not factory.apply_published(node, rpcapi.published_by(ctx, host)):
        return None
    node.create(ctx)
    return node


def _check_name(name, error):
    """400 for a name Ironic refuses; ``error`` has a ``%s`` for it."""
    if name is None:
        return
    if not utils.is_valid_logical_name(name):
        raise exception.InvalidParameterValue(err=error % name)
    if name in node_lookup.RESERVED_NAMES:
        raise exception.InvalidParameterValue(
            err='The word "%s" is reserved and can not be used as a node '
                'name. Reserved words are: %s.'
                % (name, ', '.join(node_lookup.RESERVED_NAMES)))


def _normalize(values, action):
    """Checks and conversions shared by create and update."""
    if len(values.get('description') or '') > MAX_DESCRIPTION:
        raise exception.InvalidParameterValue(
            err='Cannot %s node with description exceeding %d characters'
                % (action, MAX_DESCRIPTION))
    if 'chassis_uuid' in values:
        chassis_uuid = values.pop('chassis_uuid')
        values['chassis_id'] = None
        if chassis_uuid is not None:
            try:
                values['chassis_id'] = objects.Chassis.get(
                    pecan.request.context, chassis_uuid).id
            except (exception.ChassisNotFound, exception.InvalidUUID):
                raise exception.ChassisNotFound(chassis=chassis_uuid,
                                                code=400)
    if 'conductor_group' in values:
        values['conductor_group'] = (values['conductor_group']
                                     or '').lower()
    for name in ('maintenance', 'protected', 'console_enabled',
                 'disable_power_off'):
        if name in values and values[name] is None:
            values[name] = False
    return values


def _patch_values(patch, field):
    """The values a patch gives ``/<field>`` (not removals), in order."""
    return [op.get('value') for op in patch
            if op['path'] == '/' + field and op['op'] != 'remove']


def _check_reset_interfaces(reset, patch):
    """``?reset_interfaces=`` only with a change of driver."""
    if reset is not None and not _patch_values(patch, 'driver'):
        raise exception.InvalidParameterValue(
            err="The reset_interfaces parameter can only be used when "
                "changing the node's driver.")


def _check_patch_descriptions(patch):
    for description in _patch_values(patch, 'description'):
        if len(description or '') > MAX_DESCRIPTION:
            raise exception.InvalidParameterValue(
                err='Cannot update node with description exceeding %d '
                    'characters' % MAX_DESCRIPTION)


def _frees_instance_in_maintenance(node, patch):
    """Whether the patch only removes the instance of a node in
    maintenance: allowed whatever the node's state."""
    return node.maintenance and patch == [
        {'op': 'remove', 'path': '/instance_uuid'}]


def _check_new_names(patch, ident):
    """406 for a name before 1.5, 400 for a name Ironic refuses."""
    names = _patch_values(patch, 'name')
    if names and not utils.allows(mv.MINOR_5_NODE_NAME):
        raise exception.NotAcceptable()
    for name in names:
        _check_name(name, "Node %s: Cannot change name to invalid name "
                          "'%%s'" % ident)


def _check_changes(changes, new_doc):
    """The changed fields as the patched node would hold them: 406 for
    unsetting the chassis before 1.25, 400 for an invalid shard or a value
    the schema refuses."""
    if 'chassis_uuid' in changes and changes['chassis_uuid'] is None \
            and not utils.allows(mv.MINOR_25_UNSET_CHASSIS_UUID):
        raise exception.NotAcceptable()
    if 'shard' in changes:
        shard.check_value(changes['shard'])
    utils.check_body(schema.PATCHED, {k: v for k, v in new_doc.items()
                                      if k in changes or k == 'driver'},
                     'node')


def _create_target(ctx, values):
    """The policy target of a node not created yet: the owner and lessee
    its body gives."""
    return {'node.owner': values.get('owner'),
            'node.lessee': values.get('lessee'),
            'project_id': ctx.project_id}


def _authorize_create(ctx, values):
    """Ironic's create rules (1.80): with [api]
    project_admin_can_manage_own_nodes, a caller passing
    baremetal:node:create:self_owned_node (an admin or service role, of any
    scope) creates nodes, owned by its project unless system scoped (400
    for another owner); any other caller needs baremetal:node:create.
    The owner the node must get, or None: set once the body's fields have
    been checked against the request's version (as Ironic: a project
    admin's node is owned at any version, 1.50's owner field or not)."""
    if CONF.api.project_admin_can_manage_own_nodes and policy.check(
            'baremetal:node:create:self_owned_node',
            {'project_id': ctx.project_id}, ctx):
        if not policy.enabled() or getattr(ctx, 'system_scope', None) == 'all':
            return None
        owner = values.get('owner')
        if owner and owner != ctx.project_id:
            raise exception.Invalid('Cannot create a node as a project '
                                    'scoped admin with an owner other than '
                                    'your own project.')
        return ctx.project_id
    policy.authorize('baremetal:node:create', _create_target(ctx, values),
                     ctx)
    return None


def _check_owner_provisioned(ctx, node, patch, target):
    """A deployed node's owner changes only with
    baremetal:node:update_owner_provisioned (Ironic's 409 otherwise)."""
    if (node.provision_state == states.ACTIVE
            and _patch_values(patch, 'owner') and not policy.check(
                'baremetal:node:update_owner_provisioned', target, ctx)):
        raise exception.Conflict(
            'Cannot update owner of node "%s" while it is in state "%s".'
            % (node.uuid, states.ACTIVE))


def _instance_name_from_display_name(obj, changes, expected):
    """As Ironic (1.104): an instance_info given a ``display_name`` names
    the instance, unless it has a name already."""
    display_name = (obj.instance_info or {}).get('display_name')
    if ('instance_info' in changes and not obj.instance_name
            and isinstance(display_name, str) and display_name):
        expected.setdefault('instance_name', obj.instance_name)
        obj.instance_name = display_name[:255]


class NodesController(patch_flow.PatchFlow):
    """The node handlers; ``chassis_uuid`` is set when listing
    ``/v1/chassis/<uuid>/nodes``.  A PATCH runs the one patch flow
    (``patch_flow``) with the node's hooks (below ``patch``)."""

    # A PATCH is applied to the node as read, and saved only if the fields
    # it changes did not change meanwhile (compare-and-swap in the
    # conductor); when they did, it is applied again to the new node, this
    # many times in all before the 409 (see
    # doc/source/admin/locks-and-faults.rst).
    PATCH_ATTEMPTS = 3

    def __init__(self, chassis_uuid=None):
        self.chassis_uuid = chassis_uuid   # a UUID (the route checks it)

    def validate(self, ident):
        """Each interface's ``result`` (and ``reason`` when False)."""
        node = node_lookup.fetch_authorized('baremetal:node:validate', ident)
        return pecan.request.rpcapi.validate_driver_interfaces(
            pecan.request.context, node)

    def validate_query(self, node=None, node_uuid=None):
        """``GET /v1/nodes/validate?node=<ident>`` (or ``node_uuid=``)."""
        ident = node or node_uuid
        if not ident:
            raise exception.MissingArgument(
                err='Missing argument: "node" or "node_uuid" is required.')
        if not uuidutils.is_uuid_like(ident) and not utils.allows(
                mv.MINOR_5_NODE_NAME):
            raise exception.NotAcceptable()
        return self.validate(ident)

    # -- collection -----------------------------------------------------

    def get_all(self, **query):
        return node_list.list_nodes(query, 'nodes',
                                    chassis_uuid=self.chassis_uuid)

    def detail(self, **query):
        for name in ('fields', 'detail'):
            if name in query:
                raise exception.InvalidParameterValue(
                    err='Invalid query parameter ?%s received.' % name)
        return node_list.list_nodes(query, 'nodes/detail', detail=True,
                                    chassis_uuid=self.chassis_uuid)

    # -- one node -------------------------------------------------------

    def get_one(self, ident, fields=None):
        node = node_lookup.fetch_authorized('baremetal:node:get', ident)
        fields = utils.get_fields(fields, mv.NODE_FIELD_MIN_VERSION,
                                  not_fields=mv.NODE_LINK_FIELDS,
                                  per_field_message=True)
        return node_render.render(node, fields)

    def post(self, body):
        ctx = pecan.request.context
        values = body
        owner = _authorize_create(ctx, values)
        utils.check_new_fields(values, mv.NODE_FIELD_MIN_VERSION)
        if owner is not None:
            values['owner'] = owner
        self._check_shard_create(ctx, values)
        values['parent_node'] = node_children.resolve_parent(
            values.get('owner'), values.get('parent_node'))
        if values.get('name') is not None and not utils.allows(
                mv.MINOR_5_NODE_NAME):
            raise utils.not_acceptable(mv.MINOR_5_NODE_NAME)
        _check_name(values.get('name'),
                    "Cannot create node with invalid name '%s'")
        values = _normalize(values, 'create')
        if not values.get('uuid'):
            # Absent or null (Ironic's test): a new one.
            values['uuid'] = uuidutils.generate_uuid()
        values.setdefault('conductor_group', '')
        values['provision_state'] = (
            'enroll' if utils.allows(mv.MINOR_11_ENROLL_STATE)
            else 'available')
        values['power_state'] = None
        node = objects.Node(ctx, **values)
        node = (_created_as_its_conductor_would(ctx, node)
                or WRITER.send(pecan.request.rpcapi, 'create', ctx, node))
        pecan.response.status = 201
        pecan.response.headers['Location'] = link.build_url('nodes',
                                                            node.uuid)
        return node_render.render(node)

    def patch(self, ident, body, reset_interfaces=None):
        """Apply a JSON patch: checked whole before the node is looked up
        (as Ironic), applied to the node as read, and saved by the node's
        conductor only if the fields it changes did not change meanwhile.
        """
        return self.run_patch(ident, body,
                              reset_interfaces=reset_interfaces)

    def delete(self, ident):
        try:
            node = node_lookup.fetch_authorized('baremetal:node:delete',
                                                ident)
        except exception.HTTPForbidden:
            if not CONF.api.project_admin_can_manage_own_nodes:
                raise
            node = node_lookup.fetch_authorized(
                'baremetal:node:delete:self_owned_node', ident)
        WRITER.send(pecan.request.rpcapi, 'destroy', pecan.request.context,
                    node)
        pecan.response.status = 204
        return ''

    # -- the steps of create and update ---------------------------------

    @staticmethod
    def _check_shard_create(ctx, values):
        """406 below 1.82, 400 for a bad shard, and the shard policy."""
        if values.get('shard') is None:
            return
        if not utils.allows(mv.MINOR_82_NODE_SHARD):
            raise utils.not_acceptable(mv.MINOR_82_NODE_SHARD)
        shard.check_value(values['shard'])
        policy.authorize('baremetal:node:update:shard',
                         _create_target(ctx, values), ctx)

    # -- the patch flow's hooks (patch_flow.PatchFlow) ------------------

    def check_patch_ops(self, patch, reset_interfaces=None):
        """The checks Ironic makes before it looks the node up (in its
        order).  An empty patch passes, as in Ironic: it is authorized
        like any other (baremetal:node:update) and saves nothing."""
        json_patch.check_patch_fields(patch, PATCH_ALLOWED_FIELDS,
                                      mv.NODE_FIELD_MIN_VERSION)
        self._check_shard_patch(patch)
        _check_reset_interfaces(reset_interfaces, patch)
        _check_patch_descriptions(patch)

    def patch_write_args(self, reset_interfaces=None):
        """The update_node arguments of ``?reset_interfaces=``."""
        if reset_interfaces is None:
            return {}
        return {'reset_interfaces': reset_interfaces}

    def object_to_patch(self, ident, patch):
        """The node, once the caller may change every field the patch
        touches and the node's state allows an update."""
        ctx = pecan.request.context
        rules = node_patch_policy.rules(patch)
        node = node_lookup.fetch_authorized(rules[0], ident)
        target = policy.node_target(node, ctx)
        for rule in rules[1:]:
            policy.authorize(rule, target, ctx)
        if not _frees_instance_in_maintenance(node, patch):
            self._check_updatable(node, ident)
            _check_owner_provisioned(ctx, node, patch, target)
        return node

    def check_patch(self, patch, ident):
        _check_new_names(patch, ident)

    def editable_document(self, obj):
        """The fields a PATCH may change, raw (unmasked).

        All of them whatever the version, as in Ironic (which patches the
        whole node): giving a newer field a value is refused (406) before
        this.
        """
        doc = {}
        for name in PATCH_ALLOWED_FIELDS:
            value = node_render.field_value(obj, name)
            if name in ('driver_info', 'instance_info'):
                value = getattr(obj, name)
            doc[name] = value
        return doc

    def shown_at(self, obj):
        return node_render.shown_for(obj)

    def check_changes(self, obj, changes, new_doc):
        _check_changes(changes, new_doc)
        allocation.check_node_owner_change(obj, changes)
        if 'parent_node' in changes:
            # Stored as the parent's UUID; checked against the owner the
            # node has before the patch, as Ironic.
            changes['parent_node'] = node_children.resolve_parent(
                obj.owner, changes['parent_node'], obj.uuid)

    def apply_changes(self, ctx, obj, changes):
        """Set the changes (normalized) on the node, not saved; return
        {field: value read} of the fields set: what the conductor
        compares before it saves."""
        expected = {}
        for name, value in _normalize(changes, 'update').items():
            expected[name] = getattr(obj, name)
            setattr(obj, name, value)
        _instance_name_from_display_name(obj, changes, expected)
        return expected

    def write_patched(self, ctx, obj, expected, write_args):
        if not write_args and _written_as_read(ctx, obj, expected):
            return obj
        return WRITER.send(pecan.request.rpcapi, 'update', ctx, obj,
                           expected=expected, **write_args)

    def render(self, obj):
        return node_render.render(obj)

    # -- the node's checks ------------------------------------------------

    @staticmethod
    def _check_shard_patch(patch):
        """Any operation on /shard needs 1.82 (even a removal: an older
        client can not see the field); each value given must be a valid
        shard (checked before the node is even looked up)."""
        if 'shard' not in json_patch.patch_roots(patch):
            return
        if not utils.allows(mv.MINOR_82_NODE_SHARD):
            raise utils.not_acceptable(mv.MINOR_82_NODE_SHARD)
        for value in _patch_values(patch, 'shard'):
            shard.check_value(value)

    @staticmethod
    def _check_updatable(node, ident):
        if (node.target_provision_state
                and node.provision_state
                not in states.UPDATE_ALLOWED_STATES):
            raise exception.Conflict(
                'Node %s can not be updated while a state transition is in '
                'progress.' % ident)
        if (node.provision_state == 'inspecting'
                and utils.allows(mv.MINOR_39_INSPECT_WAIT)):
            raise exception.Conflict(
                'Cannot update node "%s" while it is in state "inspecting".'
                % node.uuid)


def list_routes(prefix, since=1, path_args=None):
    """GET <prefix> and <prefix>/detail: a node list (also under a
    chassis, whose UUID ``path_args`` checks)."""
    return [
        routes.Route('GET', prefix, NodesController.get_all,
                     query=schema.LIST_QUERY, since=since,
                     path_args=path_args, doc='list nodes'),
        routes.Route('GET', prefix + '/detail', NodesController.detail,
                     query=schema.LIST_QUERY, since=since,
                     path_args=path_args, doc='list nodes with every field'),
    ]


N = '/v1/nodes/{node_ident}'
R = routes.Route

# Its place in the route table and the API reference (route_table.py).
API_REFERENCE_ORDER = 10
# The links of GET /v1 to it.
V1_RESOURCES = ('nodes',)

ROUTES = list_routes('/v1/nodes') + [
    R('POST', '/v1/nodes', NodesController.post, body={1: schema.CREATE},
      what='node', doc='create a node'),
    # A literal segment wins: "validate" is not a node identifier here.
    R('GET', '/v1/nodes/validate', NodesController.validate_query,
      query=schema.VALIDATE_QUERY,
      doc="validate a node's interfaces (older form)"),
    R('GET', N, NodesController.get_one, query=schema.SHOW_QUERY,
      doc='show a node'),
    R('PATCH', N, NodesController.patch, query=(
        q.Param('reset_interfaces', q.BOOL,
                since=mv.MINOR_45_RESET_INTERFACES),),
      body={1: schemas.PATCH}, what='patch', read_only=schema.READ_ONLY,
      doc='update a node (JSON patch)'),
    R('DELETE', N, NodesController.delete, doc='delete a node'),
] + node_states.ROUTES + [
    R('GET', N + '/validate', NodesController.validate,
      doc="validate a node's interfaces"),
] + port.list_routes(N + '/ports') + portgroup.list_routes(
    N + '/portgroups', since=mv.MINOR_24_PORTGROUPS_SUBCONTROLLERS)
