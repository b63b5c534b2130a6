"""``/v1/nodes/<ident>/states`` (GET, PUT power, PUT provision, PUT raid,
GET/PUT console, PUT boot_mode and secure_boot) and
``/v1/nodes/<ident>/maintenance`` (PUT, DELETE)."""

from oslo_utils import strutils
import pecan
import webob.exc

from ironic_lite.api.controllers import link
from ironic_lite.api.controllers.v1 import node_lookup
from ironic_lite.api.controllers.v1 import node_provision
from ironic_lite.api.controllers.v1 import node_render
from ironic_lite.api.controllers.v1 import utils
from ironic_lite.api.controllers.v1 import writer
from ironic_lite.api import body_schema
from ironic_lite.api import microversions as mv
from ironic_lite.api import query as q
from ironic_lite.api import routes
from ironic_lite.api.schemas import node as schema
from ironic_lite.common import boot_modes
from ironic_lite.common import exception
from ironic_lite.common import policy
from ironic_lite.common import states
from ironic_lite.conductor import rpcapi

# How a node is written: by a conductor (RPC 1.0), the one of its
# hardware type for a new node, under the node's lock for the others
# (node.py's create, PATCH and DELETE; maintenance here); a PATCH of
# fields the conductor only writes, by the API (node._written_as_read).
WRITER = writer.Writer(create=rpcapi.ConductorAPI.create_node,
                       update=rpcapi.ConductorAPI.update_node,
                       destroy=rpcapi.ConductorAPI.destroy_node)


def _no_body_accepted():
    """202 without a body, and so without a Content-Type, as Ironic.

    python-ironicclient decodes any answer that says it is JSON, and logs
    "Could not decode response body as JSON" for an empty one.
    """
    pecan.response.status = 202
    pecan.request.pecan['content_type'] = None
    pecan.response.content_type = None
    return ''


def _accepted(node_ident):
    """202 with a Location header pointing at the node's states."""
    pecan.response.headers['Location'] = link.build_url(
        'nodes', '%s/states' % node_ident)
    return _no_body_accepted()


def _boolean_arg(name, body):
    """A handler argument as Ironic's ``args.boolean`` reads it."""
    value = body[name]
    if not isinstance(value, str):
        return value
    try:
        return strutils.bool_from_string(value, strict=True)
    except ValueError as err:
        raise exception.InvalidParameterValue(
            err='Invalid %s: %s' % (name, err))


# Verbs with their own conductor method (RPC 1.6, service 1.12):
# target -> call.
_RPC_1_6_VERBS = {
    'rescue': lambda rpcapi, ctx, node, body: rpcapi.do_node_rescue(
        ctx, node, body['rescue_password']),
    'unrescue': lambda rpcapi, ctx, node, body: rpcapi.do_node_unrescue(
        ctx, node),
    'clean': lambda rpcapi, ctx, node, body: rpcapi.do_node_clean(
        ctx, node, body['clean_steps'],
        disable_ramdisk=body.get('disable_ramdisk')),
    # RPC 1.12 (API 1.87)
    'service': lambda rpcapi, ctx, node, body: rpcapi.do_node_service(
        ctx, node, node_provision.service_steps(node, body),
        disable_ramdisk=body.get('disable_ramdisk')),
}


class NodeStatesController(object):
    def __init__(self, node_ident):
        self.node_ident = node_ident

    def get(self):
        node = node_lookup.fetch_authorized('baremetal:node:get_states',
                                            self.node_ident)
        body = {name: node_render.field_value(node, name)
                for name in ('console_enabled', 'last_error', 'power_state',
                             'provision_state', 'provision_updated_at',
                             'target_power_state', 'target_provision_state',
                             'raid_config', 'target_raid_config',
                             'boot_mode', 'secure_boot')}
        return utils.hide_fields(body, mv.NODE_FIELD_MIN_VERSION)

    def power(self, body):
        node = node_lookup.fetch_authorized('baremetal:node:set_power_state',
                                            self.node_ident)
        if not isinstance(body, dict):
            raise exception.InvalidParameterValue(
                err='Invalid body: expected a JSON object.')
        target, timeout = body.get('target'), body.get('timeout')
        if isinstance(timeout, str) and timeout.strip().lstrip('-').isdigit():
            timeout = int(timeout)
        if ((mv.POWER_TARGET_MIN_VERSION.get(target, 0)
                > mv.MINOR_1_INITIAL_VERSION or timeout)
                and not utils.allows(mv.MINOR_27_SOFT_POWER_OFF)):
            raise exception.NotAcceptable()
        if timeout is not None and (not isinstance(timeout, int)
                                    or isinstance(timeout, bool)
                                    or timeout < 1):
            raise exception.InvalidParameterValue(
                err='timeout has to be positive integer')
        needed = mv.POWER_TARGET_MIN_VERSION.get(target)
        if needed is None:
            raise exception.InvalidStateRequested(
                action=target, node=self.node_ident, state=node.power_state)
        if node.provision_state in node_provision.CLEANING_STATES:
            raise exception.InvalidStateRequested(
                action=target, node=self.node_ident,
                state=node.provision_state)
        if target in states.POWER_OFF_STATES and node.disable_power_off:
            # Ironic's answer for a node that must stay on (1.95).
            raise exception.PowerStateFailure(pstate=target)
        pecan.request.rpcapi.change_node_power_state(
            pecan.request.context, node, target, timeout=timeout)
        return _accepted(self.node_ident)

    def provision(self, body):
        node = node_lookup.fetch_authorized(
            'baremetal:node:set_provision_state', self.node_ident)
        if not isinstance(body, dict) or 'target' not in body:
            raise exception.InvalidParameterValue(
                err='"target" is a required property of the body.')
        target = body['target']
        # Steps of a runbook are the runbook's rule's (runbook_use).
        for steps in ('clean_steps', 'service_steps'):
            if body.get(steps) and not body.get('runbook'):
                ctx = pecan.request.context
                policy.authorize(
                    'baremetal:node:set_provision_state:%s' % steps,
                    policy.node_target(node, ctx), ctx)
        body = node_provision.check_provision_request(node, target, body)
        rpcapi, ctx = pecan.request.rpcapi, pecan.request.context
        if target in ('active', 'deploy', 'rebuild'):
            node_provision.check_deploy_steps(body.get('deploy_steps'))
            rpcapi.do_node_deploy(ctx, node, rebuild=(target == 'rebuild'),
                                  configdrive=body.get('configdrive'),
                                  deploy_steps=body.get('deploy_steps'))
        elif target in ('deleted', 'undeploy'):
            rpcapi.do_node_tear_down(ctx, node)
        elif target in _RPC_1_6_VERBS:
            _RPC_1_6_VERBS[target](rpcapi, ctx, node, body)
        else:
            rpcapi.do_provisioning_action(ctx, node, target)
        return _accepted(self.node_ident)


def _boot_setting(rule, node_ident):
    """The node, for a boot mode or secure boot change: the policy, then
    the version (Ironic routes the path at every version and answers an
    older one, once the caller may use it, with a 404), then its state
    (409 while it is transitioning, as Ironic)."""
    node = node_lookup.fetch_authorized(rule, node_ident)
    if not utils.allows(mv.MINOR_76_NODE_CHANGE_BOOT_MODE):
        raise exception.NotFound(
            'This endpoint is supported starting with the API version '
            '1.%d' % mv.MINOR_76_NODE_CHANGE_BOOT_MODE)
    return node


def _args_boolean(name, value):
    """Ironic's ``args.boolean``: None stays None; any other value is
    read as a boolean string (``str()`` of it)."""
    if value is None:
        return None
    try:
        return strutils.bool_from_string(value, strict=True)
    except ValueError as err:
        raise exception.InvalidParameterValue(
            err='Invalid %s: %s' % (name, err))


def _check_stable(node):
    if node.provision_state in states.UNSTABLE_STATES:
        raise exception.NodeTransitioning(state=node.provision_state)


class NodeBootModeController(object):
    """``/states/boot_mode`` and ``/states/secure_boot`` (1.76), carried
    out by the conductor (RPC 1.8) in a worker: 202."""

    def __init__(self, node_ident):
        self.node_ident = node_ident

    def boot_mode(self, body):
        target = body['target']
        if target is not None and not isinstance(target, str):
            # Ironic's args.string, before anything else.
            raise exception.InvalidParameterValue(
                err='Expected string for target: %s' % (target,))
        node = _boot_setting('baremetal:node:set_boot_mode',
                             self.node_ident)
        if target not in boot_modes.ALL:
            raise exception.InvalidParameterValue(
                err='Invalid boot mode %s requested for node. Allowed boot '
                    'modes are: %s' % (target, ', '.join(boot_modes.ALL)))
        _check_stable(node)
        pecan.request.rpcapi.change_node_boot_mode(pecan.request.context,
                                                   node, target)
        return _accepted(self.node_ident)

    def secure_boot(self, body):
        target = _args_boolean('target', body['target'])
        node = _boot_setting('baremetal:node:set_secure_boot',
                             self.node_ident)
        if target not in (True, False):
            raise exception.InvalidParameterValue(
                err='Invalid secure_boot %s requested for node. Allowed '
                    'secure_boot states are: True, False) ' % (target,))
        _check_stable(node)
        pecan.request.rpcapi.change_node_secure_boot(pecan.request.context,
                                                     node, target)
        return _accepted(self.node_ident)


class NodeRaidController(object):
    """``/states/raid`` (1.12): the node's target RAID configuration,
    checked by its RAID interface on the conductor (RPC 1.9)."""

    def __init__(self, node_ident):
        self.node_ident = node_ident

    def put(self, body):
        node = node_lookup.fetch_authorized('baremetal:node:set_raid_state',
                                            self.node_ident)
        try:
            pecan.request.rpcapi.set_target_raid_config(
                pecan.request.context, node, body)
        except exception.UnsupportedDriverExtension as err:
            # Ironic: RAID is a standard interface some drivers lack, 404.
            err.code = 404
            raise
        pecan.response.status = 204
        return ''


class NodeConsoleController(object):
    """``/states/console``: the console's state and connection
    information, through the conductor (RPC 1.6)."""

    def __init__(self, node_ident):
        self.node_ident = node_ident

    def get(self):
        node = node_lookup.fetch_authorized('baremetal:node:get_console',
                                            self.node_ident)
        try:
            info = pecan.request.rpcapi.get_console_information(
                pecan.request.context, node)
        except exception.NodeConsoleNotEnabled:
            return {'console_enabled': False, 'console_info': None}
        return {'console_enabled': True, 'console_info': info}

    def put(self, body):
        node = node_lookup.fetch_authorized(
            'baremetal:node:set_console_state', self.node_ident)
        pecan.request.rpcapi.set_console_mode(
            pecan.request.context, node, _boolean_arg('enabled', body))
        pecan.response.headers['Location'] = link.build_url(
            'nodes', '%s/states/console' % self.node_ident)
        return _no_body_accepted()


class NodeMaintenanceController(object):
    def __init__(self, node_ident):
        self.node_ident = node_ident

    def _set(self, rule, maintenance, reason):
        node = node_lookup.fetch_authorized(rule, self.node_ident)
        node.maintenance = maintenance
        node.maintenance_reason = reason
        if not maintenance:
            node.fault = None
        WRITER.send(pecan.request.rpcapi, 'update', pecan.request.context,
                    node)
        return _no_body_accepted()

    def put(self, body, reason=None):
        body = body or {}
        if not isinstance(body, dict):
            raise exception.InvalidParameterValue(
                err='Invalid body: expected a JSON object.')
        reason = body.get('reason', reason)
        return self._set('baremetal:node:set_maintenance', True, reason)

    def delete(self):
        return self._set('baremetal:node:clear_maintenance', False, None)


def no_such_state(node_ident, state):
    """PUT on a state Ironic does not have: pecan finds no PUT handler
    below ``/states`` and answers 405 (before any policy), which the
    plugin's RBAC tests expect for ``/states/target_raid_config``."""
    raise webob.exc.HTTPMethodNotAllowed(
        detail=routes.not_allowed('PUT'))


N = '/v1/nodes/{node_ident}'
R = routes.Route
STATES = NodeStatesController
MAINTENANCE = NodeMaintenanceController

ROUTES = [
    R('GET', N + '/states', STATES.get, doc="a node's states"),
    R('PUT', N + '/states/power', STATES.power, body={1: schema.POWER},
      what=body_schema.ARGS, doc='change the power state'),
    R('PUT', N + '/states/provision', STATES.provision,
      body={1: schema.PROVISION}, what=body_schema.ARGS,
      doc='change the provision state'),
    R('PUT', N + '/states/boot_mode', NodeBootModeController.boot_mode,
      body={1: schema.BOOT_SETTING}, what=body_schema.ARGS,
      doc="change the node's boot mode (1.76; target: bios or uefi)"),
    R('PUT', N + '/states/secure_boot', NodeBootModeController.secure_boot,
      body={1: schema.BOOT_SETTING}, what=body_schema.ARGS,
      doc='turn secure boot on or off (1.76; target: a boolean)'),
    R('PUT', N + '/states/raid', NodeRaidController.put,
      body={mv.MINOR_12_RAID_CONFIG: schema.RAID}, what=body_schema.ARGS,
      since=mv.MINOR_12_RAID_CONFIG, older=routes.Gate(406),
      doc="set the node's target RAID configuration"),
    R('GET', N + '/states/console', NodeConsoleController.get,
      doc="the console's state and connection information"),
    # Ironic's pecan controllers also take the node after the path
    # (/v1/nodes/states/console/<node>); Tempest's client reads the
    # console there.
    R('GET', '/v1/nodes/states/console/{node_ident}',
      NodeConsoleController.get,
      doc="the console's state and connection information (the node "
          "last, as Tempest's client asks)"),
    R('PUT', N + '/states/console', NodeConsoleController.put,
      body={1: schema.CONSOLE}, what=body_schema.ARGS,
      doc='enable or disable the console'),
    R('PUT', N + '/states/{state}', no_such_state, query=q.ANY_QUERY,
      listed=False, doc='405, as Ironic, for a state it does not have'),
    R('PUT', N + '/maintenance', MAINTENANCE.put,
      query=(q.Param('reason'),), body={1: schema.MAINTENANCE},
      what=body_schema.ARGS, doc='put a node in maintenance'),
    R('DELETE', N + '/maintenance', MAINTENANCE.delete,
      doc='take it out of maintenance'),
]
