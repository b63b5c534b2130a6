"""A node as the API shows it: the body at the request's version, each
field's API value, and the masking of the secret-bearing fields for a
caller who may not see them.

What a body holds at a version is worked out once per request (a list
renders many bodies the same way).
"""

import jsonpointer
from oslo_versionedobjects import fields as ovo_fields
import pecan

from ironic_lite.api.controllers.v1 import utils
from ironic_lite.api import json_patch
from ironic_lite.api import microversions as mv
from ironic_lite.api import request_scope
from ironic_lite.common import exception
from ironic_lite.common import masking
from ironic_lite.common import policy
from ironic_lite.conductor import rpcapi
from ironic_lite import objects
from ironic_lite.objects import base as objects_base

# -- masking -----------------------------------------------------------------

SECRET = '******'


def _mask_keys(value, keys):
    """Ironic's masking: password-like keys (at any depth) and ``keys``
    (at the top) -> "******"."""
    if not value:
        return {}
    masked = masking.mask_dict_password(value, SECRET)
    for key in keys:
        if masked.get(key):
            masked[key] = SECRET
    return masked


# The keys masked at the top of a field besides the password-like ones:
# SNMP keys; the config drive and the image URL (it may be a temporary
# URL with credentials).
_TOP_KEYS = {'driver_info': ('snmp_auth_key', 'snmp_priv_key'),
             'instance_info': ('configdrive', 'image_url')}


def _mask_driver_info(value):
    return _mask_keys(value, _TOP_KEYS['driver_info'])


def _mask_instance_info(value):
    return _mask_keys(value, _TOP_KEYS['instance_info'])


# The policy that lets a caller see a secret-bearing field unmasked (both
# '!' by default: nobody), and the masking applied otherwise.
_SECRETS = {'driver_info': ('show_password', _mask_driver_info),
            'instance_info': ('show_instance_secrets', _mask_instance_info)}


def shown_at(doc, pointer):
    """The value a read shows at ``pointer`` of a node's patchable
    document (None where there is none), masked as a GET masks it.

    Only the member the pointer names is masked (masking is the same for
    an object whatever holds it): the cost is that of the value read, not
    of the whole field, so a long patch stays linear.
    """
    try:
        parts = jsonpointer.JsonPointer(pointer).parts
    except jsonpointer.JsonPointerException:
        return None
    name = parts[0] if parts else None
    if name not in _SECRETS or _reveals(_request(), _SECRETS[name][0]):
        return json_patch.resolve(doc, parts)
    value, keys, rest = doc.get(name), _TOP_KEYS[name], parts[1:]
    while (len(rest) > 1 and isinstance(value, dict)
           and rest[0] not in keys and isinstance(value.get(rest[0]), dict)):
        value, keys, rest = value[rest[0]], (), rest[1:]
    if value is not None and not isinstance(value, dict):
        return json_patch.resolve(value, rest)
    if rest and value:
        if rest[0] not in value:
            return None
        value = {rest[0]: value[rest[0]]}
    return json_patch.resolve(_mask_keys(value, keys), rest)


# -- redaction for callers outside the owner project ------------------------
#
# Ironic's node_sanitize: a caller failing baremetal:node:get:filter_threshold
# (by default anyone but the system readers) has each of these fields
# checked against its own rule on the node (by default: the system, or the
# owner project's readers), and sees the text below in its place when the
# rule says no -- a lessee sees neither the BMC's address and credentials
# nor a conductor's name nor an error text.  The value is replaced even
# when empty (as Ironic).
_REDACTED = '** Redacted - requires baremetal:node:get:%s permission. **'
REDACTIONS = (
    ('last_error', '** Value Redacted - Requires baremetal:node:get:'
                   'last_error permission. **'),
    ('reservation', _REDACTED % 'reservation'),
    ('driver_internal_info', {'content': '** Redacted - Requires baremetal:'
                              'node:get:driver_internal_info permission. **'}),
    ('driver_info', {'content': _REDACTED % 'driver_info'}),
)


def _filtered(req):
    """Whether this request's caller has node fields checked one by one
    (baremetal:node:get:filter_threshold fails): once per request."""
    if req.filtered is None:
        req.filtered = not policy.check(
            'baremetal:node:get:filter_threshold',
            {'project_id': req.context.project_id}, req.context)
    return req.filtered


def _hidden(node, req):
    """The fields (of REDACTIONS) this caller may not see on ``node``:
    looked up once per request and owner/lessee pair (a list's nodes share
    a handful)."""
    key = (node.owner, node.lessee)
    hidden = req.hidden.get(key)
    if hidden is None:
        target = policy.node_target(node, req.context)
        hidden = req.hidden[key] = frozenset(
            name for name, _text in REDACTIONS if not policy.check(
                'baremetal:node:get:' + name, target, req.context))
    return hidden


def _redact(body, node, req):
    """Replace in ``body`` the fields the caller may not see on ``node``."""
    hidden = _hidden(node, req)
    for name, text in REDACTIONS:
        if name in hidden and name in body:
            body[name] = dict(text) if isinstance(text, dict) else text


def shown_for(node):
    """``shown_at`` for a patch of ``node``: a field redacted for the
    caller reads as its redaction text, so that no copy, move or test
    reveals it (driver_info is the only one a patch may read)."""
    req = _request()
    hidden = _hidden(node, req) if _filtered(req) else frozenset()
    if not hidden:
        return shown_at
    texts = dict(REDACTIONS)

    def shown(doc, pointer):
        try:
            parts = jsonpointer.JsonPointer(pointer).parts
        except jsonpointer.JsonPointerException:
            return None
        if parts and parts[0] in hidden:
            return json_patch.resolve({parts[0]: texts[parts[0]]}, parts)
        return shown_at(doc, pointer)
    return shown


# -- the request's facts -----------------------------------------------------

class _Request(object):
    """What the API values of a request's nodes depend on."""

    __slots__ = ('context', 'minor', 'shows', 'filtered', 'hidden',
                 'rings')

    def __init__(self):
        self.context = pecan.request.context
        self.minor = utils.minor()
        # rule -> whether the caller sees that secret unmasked
        self.shows = {}
        # whether fields are redacted one by one (None: not known yet), and
        # (owner, lessee) -> the fields redacted on such a node
        self.filtered = None
        self.hidden = {}
        # the conductors' hash rings, read once for the request's nodes
        self.rings = None


def _request():
    scope = request_scope.of(pecan.request.environ)
    if scope.node_facts is None:
        scope.node_facts = _Request()
    return scope.node_facts


def _reveals(req, rule):
    """Whether this request's caller passes ``rule``: checked once per
    request, not once per node of a list."""
    shows = req.shows.get(rule)
    if shows is None:
        shows = req.shows[rule] = policy.reveals(rule, req.context)
    return shows


# -- the API value of each field ---------------------------------------------
#
# Each function takes the node, the request's facts (_Request: looked up
# once per request, not once per node of a list) and the chassis UUIDs a
# list has already looked up ({chassis id: uuid}, shared by its bodies).

def _chassis_uuid(node, req, chassis_cache):
    if node.chassis_id is None:
        return None
    cache = chassis_cache if chassis_cache is not None else {}
    if node.chassis_id not in cache:
        cache[node.chassis_id] = objects.Chassis.get(
            req.context, node.chassis_id).uuid
    return cache[node.chassis_id]


def _conductor(node, req, _chassis_cache):
    """The host the hash ring maps the node to (None when none can).
    The rings are taken once per request (a page's nodes share them);
    a node none of them serves asks the ring manager, which may rebuild
    them or say why there is no host."""
    if req.rings is None:
        req.rings = rpcapi.conductor_rings(req.context)
    try:
        return rpcapi.conductor_for(req.context, node, req.rings)
    except exception.IronicException:
        return None


def _traits(node, _req, _chassis_cache):
    if not node.obj_attr_is_set('traits') or node.traits is None:
        return []
    return node.traits.get_trait_names()


def _allocation_uuid(node, req, cache):
    """The UUID of the node's allocation (a list prefetches those of its
    page into ``cache``, under ('allocation', id): one query per page)."""
    allocation_id = node.allocation_id
    if allocation_id is None:
        return None
    cache = cache if cache is not None else {}
    key = ('allocation', allocation_id)
    if key not in cache:
        try:
            cache[key] = objects.Allocation.get_by_id(
                req.context, allocation_id).uuid
        except exception.AllocationNotFound:
            cache[key] = None
    return cache[key]


def prefetch_allocations(ctx, nodes, cache):
    """Put the allocation UUIDs of ``nodes`` in ``cache``, in one query."""
    ids = sorted({n.allocation_id for n in nodes
                  if n.obj_attr_is_set('allocation_id')
                  and n.allocation_id is not None})
    if not ids:
        return
    found = {a.id: a.uuid for a in objects.Allocation.list(
        ctx, filters={'id_in': ids})}
    for allocation_id in ids:
        cache[('allocation', allocation_id)] = found.get(allocation_id)


def _provision_state(node, req, _chassis_cache):
    """The state, as a client older than the state knew it."""
    value = node.provision_state
    if value == 'available' and req.minor < mv.MINOR_2_AVAILABLE_STATE:
        return None
    if value == 'inspect wait' and req.minor < mv.MINOR_39_INSPECT_WAIT:
        return 'inspecting'
    return value


def _masked(name):
    """The function showing secret-bearing field ``name`` (see mask)."""
    rule, masker = _SECRETS[name]

    def value(node, req, _chassis_cache):
        raw = getattr(node, name)
        return raw if _reveals(req, rule) else masker(raw)
    return value


def _driver_internal_info(node, _req, _chassis_cache):
    value = dict(node.driver_internal_info or {})
    if value.get('agent_secret_token'):
        value['agent_secret_token'] = SECRET
    return value


def _conductor_group(node, _req, _chassis_cache):
    return node.conductor_group or ''


# The fields whose API value is not simply the stored one.
_API_VALUES = {
    'chassis_uuid': _chassis_uuid,
    'conductor': _conductor,
    'traits': _traits,
    'allocation_uuid': _allocation_uuid,
    'provision_state': _provision_state,
    'driver_info': _masked('driver_info'),
    'instance_info': _masked('instance_info'),
    'driver_internal_info': _driver_internal_info,
    'conductor_group': _conductor_group,
}


def _stored(node, name):
    """The stored value (a time as ISO 8601 text)."""
    value = getattr(node, name)
    if hasattr(value, 'isoformat'):
        return value.isoformat()
    return value


def field_value(node, name, chassis_cache=None):
    """The API value of one node field."""
    compute = _API_VALUES.get(name)
    if compute is None:
        return _stored(node, name)
    return compute(node, _request(), chassis_cache)


# -- the body ----------------------------------------------------------------

# How render takes a field that has no _API_VALUES function (see _kind).
_PLAIN = 'plain'
_TIME = 'time'
_STORED = 'stored'
_MISSING = object()


def _plan(fields, sub_links):
    """What a node body holds at the request's version, worked out once
    per request (a list renders many bodies with the same plan):
    ([(name, attribute, kind or compute function)], [(link name, self
    prefix, bookmark prefix, suffix)], the request's facts)."""
    key = (tuple(fields) if fields is not None else None, sub_links)
    plans = request_scope.of(pecan.request.environ).node_plans
    plan = plans.get(key)
    if plan is None:
        current = utils.minor()
        # The fields and links of a version are the same for every
        # request: worked out once per process (for the few field
        # selections clients use; any beyond _MAX_PLANS each time).
        fixed = _PLANS.get((key, current))
        if fixed is None:
            wanted = (set(fields) if fields is not None
                      else set(mv.NODE_FIELD_MIN_VERSION))
            shown = [name for name, minor
                     in mv.NODE_FIELD_MIN_VERSION.items()
                     if name not in mv.NODE_LINK_FIELDS and name in wanted
                     and minor <= current]
            links = [sub for sub in ('ports', 'states', 'portgroups',
                                     'volume')
                     if sub_links and fields is None
                     and mv.NODE_FIELD_MIN_VERSION[sub] <= current]
            if mv.NODE_FIELD_MIN_VERSION['links'] <= current:
                links.insert(0, 'links')
            fixed = (tuple((n, objects_base.field_attr(n), _kind(n))
                           for n in shown), tuple(links))
            if len(_PLANS) < _MAX_PLANS:
                _PLANS[(key, current)] = fixed
        url = pecan.request.public_url
        # Each link's self and bookmark prefixes and its suffix after the
        # node's UUID: a body's links are then two concatenations each.
        link_parts = tuple(
            (sub, url + '/v1/nodes/', url + '/nodes/',
             '' if sub == 'links' else '/' + sub) for sub in fixed[1])
        plan = plans[key] = (fixed[0], link_parts, _request())
    return plan


# (fields, sub_links, minor version) -> (fields' plan, link names).
_PLANS = {}
_MAX_PLANS = 1000


def _kind(name):
    """How render takes a field: as stored, a stored time as ISO 8601
    text, through ``_stored`` (a name that is not a Node field), or
    through its _API_VALUES function."""
    if name in _API_VALUES:
        return _API_VALUES[name]
    if name not in objects.Node.fields:
        return _STORED
    if isinstance(objects.Node.fields[name], ovo_fields.DateTimeField):
        return _TIME
    return _PLAIN


def render(node, fields=None, sub_links=True, chassis_cache=None):
    """The JSON body of a node at the request's version.

    :param fields: the names to return (None: all of them).
    :param sub_links: add the ports/states/portgroups/volume links
        (only when ``fields`` is not given, as in Ironic).
    """
    shown, links, req = _plan(fields, sub_links)
    stored = node.__dict__
    body = {}
    for name, attr, kind in shown:
        if kind is _PLAIN or kind is _TIME:
            value = stored.get(attr, _MISSING)
            if value is _MISSING:
                value = getattr(node, name)  # what the object does unset
            if kind is _TIME and value is not None:
                value = value.isoformat()
            body[name] = value
        elif kind is _STORED:
            body[name] = _stored(node, name)
        else:
            body[name] = kind(node, req, chassis_cache)
    if _filtered(req):
        _redact(body, node, req)
    uuid = stored.get('_obj_uuid') or node.uuid
    for sub, own, bookmark, suffix in links:
        body[sub] = [{'href': own + uuid + suffix, 'rel': 'self'},
                     {'href': bookmark + uuid + suffix, 'rel': 'bookmark'}]
    return body
