"""Nodes as the API shows them: lookup with policy, rendering, and the
provision-state facts the API checks before asking a conductor.

The state names are Ironic's (``ironic/common/states.py``).
"""

from oslo_utils import strutils
from oslo_utils import uuidutils
from oslo_versionedobjects import base as ovo_base
from oslo_versionedobjects import fields as ovo_fields
import pecan

from ironic_lite.api.controllers import link
from ironic_lite.api.controllers.v1 import utils
from ironic_lite.api import microversions as mv
from ironic_lite.common import exception
from ironic_lite.common import hash_ring
from ironic_lite.common import policy
from ironic_lite.common import states
from ironic_lite import objects

# -- provision states (the values and the machine are common/states.py) ----
ALL_STATES = states.STABLE_STATES + states.UNSTABLE_STATES + tuple(
    states.FAILURE_STATES)
CLEANING_STATES = (states.CLEANING, states.CLEANWAIT)
VALID_FAULTS = ('power failure', 'clean failure', 'rescue abort failure')
# Verbs the conductor RPC API of release 1.0 carries out.
SUPPORTED_VERBS = ('manage', 'provide', 'inspect', 'abort', 'adopt',
                   'active', 'deploy', 'rebuild', 'deleted', 'undeploy')

# Ironic's NodesController reserved words: its sub-controller attributes
# (alphabetical) then its custom actions, in this order in the message.
RESERVED_NAMES = ('maintenance', 'management', 'states', 'vendor_passthru',
                  'detail', 'validate')
# Path segments Ironic routes to a node sub-controller: /v1/nodes/<one of
# these> is a plain 404 (never a node lookup).
SUBCONTROLLER_NAMES = ('ports', 'portgroups', 'vifs', 'volume', 'traits',
                       'bios', 'allocation', 'history', 'inventory')


# -- lookup ------------------------------------------------------------------

def get_node(ident):
    """A node by UUID, or by name from 1.5; 404 when there is none."""
    ctx = pecan.request.context
    if ident.endswith('.json'):
        ident = ident[:-len('.json')]
    if uuidutils.is_uuid_like(ident):
        return objects.Node.get_by_uuid(ctx, ident)
    if not utils.allows(mv.MINOR_5_NODE_NAME):
        raise exception.NodeNotFound(node=ident)
    if not utils.is_valid_logical_name(ident):
        raise exception.InvalidUuidOrName(name=ident)
    return objects.Node.get_by_name(ctx, ident)


def fetch_authorized(rule, ident):
    """The node, after checking ``rule`` for the caller.

    A caller who may not even see the node gets the same 404 as for a
    node that does not exist (as Ironic does); one who may see it but not
    do ``rule`` gets a 403.
    """
    ctx = pecan.request.context
    node = get_node(ident)
    target = policy.node_target(node, ctx)
    if not policy.check(rule, target, ctx):
        if not policy.check('baremetal:node:get', target, ctx):
            raise exception.NodeNotFound(node=ident)
        raise exception.HTTPForbidden(resource=rule)
    return node


# -- rendering ---------------------------------------------------------------

def _conductor(node):
    try:
        return hash_ring.RING_MANAGER.get_host(
            pecan.request.context, node.uuid, node.driver,
            node.conductor_group)
    except exception.IronicException:
        return None


SECRET = '******'


def _mask_driver_info(value):
    """Ironic's masking: password-like keys and SNMP keys -> "******"."""
    if not value:
        return {}
    masked = strutils.mask_dict_password(value, SECRET)
    for key in ('snmp_auth_key', 'snmp_priv_key'):
        if masked.get(key):
            masked[key] = SECRET
    return masked


def _mask_instance_info(value):
    """Ironic's masking of instance_info: passwords, the config drive and
    the image URL (it may be a temporary URL with credentials)."""
    if not value:
        return {}
    masked = strutils.mask_dict_password(value, SECRET)
    for key in ('configdrive', 'image_url'):
        if masked.get(key):
            masked[key] = SECRET
    return masked


# The policy that lets a caller see a secret-bearing field unmasked (both
# '!' by default: nobody), and the masking applied otherwise.
_SECRETS = {'driver_info': ('show_password', _mask_driver_info),
            'instance_info': ('show_instance_secrets', _mask_instance_info)}


def _shows_secrets(rule):
    """Whether this request's caller passes ``rule``: checked once per
    request, not once per node of a list."""
    cache = pecan.request.environ.setdefault('ironic_lite.shows', {})
    if rule not in cache:
        cache[rule] = policy.reveals(rule, pecan.request.context)
    return cache[rule]


def mask(name, value):
    """A secret-bearing dict field (driver_info, instance_info) as shown
    to this request's caller."""
    rule, masker = _SECRETS[name]
    return value if _shows_secrets(rule) else masker(value)


def field_value(node, name, chassis_cache=None):
    """The API value of one node field."""
    if name == 'chassis_uuid':
        if node.chassis_id is None:
            return None
        cache = chassis_cache if chassis_cache is not None else {}
        if node.chassis_id not in cache:
            cache[node.chassis_id] = objects.Chassis.get(
                pecan.request.context, node.chassis_id).uuid
        return cache[node.chassis_id]
    if name == 'conductor':
        return _conductor(node)
    if name == 'traits':
        if not node.obj_attr_is_set('traits') or node.traits is None:
            return []
        return node.traits.get_trait_names()
    if name == 'allocation_uuid':
        return None
    value = getattr(node, name)
    if name == 'provision_state':
        if value == 'available' and not utils.allows(
                mv.MINOR_2_AVAILABLE_STATE):
            return None
        if value == 'inspect wait' and not utils.allows(
                mv.MINOR_39_INSPECT_WAIT):
            return 'inspecting'
    if hasattr(value, 'isoformat'):
        return value.isoformat()
    if name in _SECRETS:
        return mask(name, value)
    if name == 'driver_internal_info':
        value = dict(value or {})
        if value.get('agent_secret_token'):
            value['agent_secret_token'] = SECRET
        return value
    if name == 'conductor_group':
        return value or ''
    return value


# Fields whose API value is not simply the stored one (see field_value).
_COMPUTED = frozenset(('chassis_uuid', 'conductor', 'traits',
                       'allocation_uuid', 'provision_state', 'driver_info',
                       'instance_info', 'driver_internal_info',
                       'conductor_group'))
_PLAIN, _TIME, _COMPUTE = range(3)
_MISSING = object()


def _kind(name):
    if name in _COMPUTED or name not in objects.Node.fields:
        return _COMPUTE
    if isinstance(objects.Node.fields[name], ovo_fields.DateTimeField):
        return _TIME
    return _PLAIN


def _plan(fields, sub_links):
    """What a node body holds at the request's version, worked out once
    per request (a list renders many bodies with the same plan):
    ([(name, attribute, kind)], [link names], base URL)."""
    key = (tuple(fields) if fields is not None else None, sub_links)
    plans = pecan.request.environ.setdefault('ironic_lite.node_plans', {})
    plan = plans.get(key)
    if plan is None:
        current = utils.minor()
        wanted = (set(fields) if fields is not None
                  else set(mv.NODE_FIELD_MIN_VERSION))
        shown = [name for name, minor in mv.NODE_FIELD_MIN_VERSION.items()
                 if name not in mv.NODE_LINK_FIELDS and name in wanted
                 and minor <= current]
        links = [sub for sub in ('ports', 'states', 'portgroups', 'volume')
                 if sub_links and fields is None
                 and mv.NODE_FIELD_MIN_VERSION[sub] <= current]
        if mv.NODE_FIELD_MIN_VERSION['links'] <= current:
            links.insert(0, 'links')
        plan = plans[key] = (
            [(n, ovo_base._get_attrname(n), _kind(n)) for n in shown],
            links, pecan.request.public_url)
    return plan


def render(node, fields=None, sub_links=True, chassis_cache=None):
    """The JSON body of a node at the request's version.

    :param fields: the names to return (None: all of them).
    :param sub_links: add the ports/states/portgroups/volume links
        (only when ``fields`` is not given, as in Ironic).
    """
    shown, links, url = _plan(fields, sub_links)
    stored = node.__dict__
    body = {}
    for name, attr, kind in shown:
        if kind == _COMPUTE:
            body[name] = field_value(node, name, chassis_cache)
            continue
        value = stored.get(attr, _MISSING)
        if value is _MISSING:
            value = getattr(node, name)  # what the object does when unset
        if kind == _TIME and value is not None:
            value = value.isoformat()
        body[name] = value
    for sub in links:
        args = node.uuid if sub == 'links' else '%s/%s' % (node.uuid, sub)
        body[sub] = link.self_and_bookmark_at(url, 'nodes', args)
    return body


# -- provisioning checks -----------------------------------------------------

def check_provision_request(node, target, body):
    """The checks of PUT .../states/provision, in Ironic's order.

    :raises: NotAcceptable (406) for a verb newer than the request;
        NodeInMaintenance (400) for active/rebuild of a node in maintenance;
        InvalidStateRequested (400) when the node's state does not allow
        the verb (whether or not the node is locked);
        InvalidParameterValue (400) for extra keys that do not go with the
        verb, or a verb ironic-lite does not carry out.
    """
    needed = mv.PROVISION_VERB_MIN_VERSION.get(target)
    if needed is not None and not utils.allows(needed):
        raise exception.NotAcceptable()
    if target in ('active', 'rebuild') and node.maintenance:
        raise exception.NodeInMaintenance(op='provisioning', node=node.uuid)
    event = states.VERBS.get(target, target)
    if not isinstance(target, str) or not states.is_actionable(
            node.provision_state, event):
        # Refused from the state alone, before any lock or RPC (a node
        # still locked by its last step does not turn this into a 409).
        raise exception.InvalidStateRequested(
            action=target, node=node.uuid, state=node.provision_state)
    if body.get('configdrive'):
        allowed = ['active']
        if utils.allows(mv.MINOR_35_REBUILD_CONFIG_DRIVE):
            allowed.append('rebuild')
        if target not in allowed:
            raise exception.InvalidParameterValue(
                err='Adding a config drive is only supported when setting '
                    'provision state to %s' % ', '.join(allowed))
        if isinstance(body['configdrive'], dict) and not utils.allows(
                mv.MINOR_56_BUILD_CONFIGDRIVE):
            raise exception.InvalidParameterValue(
                err='Providing a JSON object for configdrive is only '
                    'supported starting with API version 1.%d'
                    % mv.MINOR_56_BUILD_CONFIGDRIVE)
    if body.get('disable_ramdisk') is not None:
        if not utils.allows(mv.MINOR_70_CLEAN_DISABLE_RAMDISK):
            raise exception.NotAcceptable()
    if body.get('clean_steps') and target != 'clean':
        raise exception.InvalidParameterValue(
            err='"clean_steps" is only valid when setting target provision '
                'state to clean')
    if body.get('deploy_steps') is not None and not utils.allows(
            mv.MINOR_69_DEPLOY_STEPS):
        raise exception.NotAcceptable()
    if body.get('rescue_password') is not None and target != 'rescue':
        raise exception.InvalidParameterValue(
            err='"rescue_password" is only valid when setting target '
                'provision state to rescue')
    if (target == 'abort' and node.provision_state == 'inspect wait'
            and not utils.allows(mv.MINOR_41_INSPECTION_ABORT)):
        raise exception.NotAcceptable()
    if target == 'rescue' and not (body.get('rescue_password') or '').strip():
        raise exception.InvalidParameterValue(
            err='A non-empty "rescue_password" is required when setting '
                'target provision state to rescue')
    if target == 'clean' and not body.get('clean_steps'):
        raise exception.InvalidParameterValue(
            err='"clean_steps" is required when setting target provision '
                'state to clean')
    if target not in SUPPORTED_VERBS:
        raise exception.InvalidParameterValue(
            err='The provisioning action "%s" is not supported by this '
                'service (ironic-lite).' % target)
