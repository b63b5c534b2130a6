"""The ramdisk's agent (1.22): ``GET /v1/lookup`` finds the node booting
the ramdisk (by MAC address or UUID) and hands the agent its token and
configuration; ``POST /v1/heartbeat/{node_ident}`` tells the conductor
the agent is alive (and a deploy waiting for it goes on).

Both are public, as in Ironic: no credentials are needed (api/app.py's
``PUBLIC_PATHS``), the policies ``baremetal:driver:ipa_lookup`` and
``baremetal:node:ipa_heartbeat`` allow anyone by default, and the agent
proves itself with its token.  The token (from 1.62) comes from the
conductor (RPC 1.10, ``get_node_with_token``): a pinned API refuses
(409) and the agent retries.
"""

from urllib import parse

from oslo_log import log as logging
import pecan

from ironic_lite.api.controllers.v1 import node_lookup
from ironic_lite.api.controllers.v1 import node_render
from ironic_lite.api.controllers.v1 import utils
from ironic_lite.api import body_schema
from ironic_lite.api import microversions as mv
from ironic_lite.api import routes
from ironic_lite.api.schemas import ramdisk as schema
from ironic_lite.common import exception
from ironic_lite.common import messages
from ironic_lite.common import policy
from ironic_lite.common import states
from ironic_lite.common import utils as common_utils
from ironic_lite import conf
from ironic_lite import objects

CONF = conf.CONF
LOG = logging.getLogger(__name__)

# Ironic's: the node fields the lookup shows, and where it is allowed.
LOOKUP_FIELDS = ['uuid', 'properties', 'instance_info',
                 'driver_internal_info']
LOOKUP_ALLOWED_STATES = (states.DEPLOYING, states.DEPLOYWAIT,
                         states.CLEANING, states.CLEANWAIT,
                         states.INSPECTING, states.INSPECTWAIT,
                         states.RESCUING, states.RESCUEWAIT,
                         states.SERVICEWAIT)
AGENT_VALID_STATES = ('start', 'end', 'error')
# The most MAC addresses one lookup may give: more than a server has
# ports, and (as 18 bytes each) within the 8 KB request line of common
# front ends.  The lookup is public: its cost must stay bounded.
MAX_LOOKUP_ADDRESSES = 256
# Out-of-band management whose BMC address is known: the agent need not
# look for it (Ironic's agent_skip_bmc_detect).
_KNOWN_BMC = ('redfish', 'idrac-redfish')


def agent_config(token, node):
    """The ``config`` of a lookup answer: Ironic's keys the agent reads,
    with Ironic's defaults for what ironic-lite has no option for."""
    return {
        'metrics': {'backend': 'noop', 'prepend_host': False,
                    'prepend_uuid': False, 'prepend_host_reverse': True,
                    'global_prefix': None},
        'metrics_statsd': {'statsd_host': 'localhost', 'statsd_port': 8125},
        'heartbeat_timeout': CONF.api.ramdisk_heartbeat_timeout,
        'agent_token': token,
        'agent_token_required': True,
        'agent_md5_checksum_enable': False,
        'disable_deep_image_inspection': False,
        'permitted_image_formats': ['raw', 'qcow2', 'iso'],
        'agent_skip_bmc_detect': node.management_interface in _KNOWN_BMC,
    }


def valid_macs(addresses):
    """The valid MAC addresses, normalized; the others are logged and
    ignored (Ironic's ``get_valid_mac_addresses``).  More than
    ``MAX_LOOKUP_ADDRESSES`` is a 400 (Ironic has no limit)."""
    if len(addresses or ()) > MAX_LOOKUP_ADDRESSES:
        raise exception.InvalidParameterValue(
            err='Too many addresses: %d given, at most %d are accepted.'
                % (len(addresses), MAX_LOOKUP_ADDRESSES))
    valid, invalid = [], []
    for addr in addresses or ():
        try:
            valid.append(common_utils.validate_and_normalize_mac(addr))
        except exception.InvalidMAC:
            invalid.append(addr)
    if invalid:
        # Bounded: the lookup is public, one line per request at most.
        LOG.warning('The following MAC addresses "%s" are invalid and will '
                    'be ignored by the lookup request',
                    messages.safe(', '.join(invalid), limit=1024))
    return valid


def _found(ctx, macs, node_uuid):
    """The node looked up; the same 404 whether it does not exist or is
    in a state the lookup is not allowed in (Ironic's)."""
    try:
        node = (objects.Node.get_by_uuid(ctx, node_uuid) if node_uuid
                else objects.Node.get_by_port_addresses(ctx, macs))
    except exception.NotFound as err:
        LOG.error('No node has been found during lookup: %s', err)
        raise exception.NotFound()
    if (CONF.api.restrict_lookup
            and node.provision_state not in LOOKUP_ALLOWED_STATES):
        LOG.error('Lookup is not allowed for node %s in the provision '
                  'state %s', node.uuid, node.provision_state)
        raise exception.NotFound()
    return node


def lookup(addresses=None, node_uuid=None):
    """The node of the agent, with its token (once) and configuration."""
    ctx = pecan.request.context
    policy.authorize('baremetal:driver:ipa_lookup', {}, ctx)
    macs = valid_macs(addresses)
    if not macs and not node_uuid:
        raise exception.InvalidParameterValue(
            err="At least one of 'addresses' and 'node_uuid' parameters "
                "is required")
    node = _found(ctx, macs, node_uuid)
    token = None
    if utils.allows(mv.MINOR_62_AGENT_TOKEN):
        node = pecan.request.rpcapi.get_node_with_token(ctx, node)
        token = node.driver_internal_info.get('agent_secret_token')
    # Below 1.62 no token is handed out (Ironic shows one stored).
    return {'node': node_render.render(node, fields=LOOKUP_FIELDS),
            'config': agent_config(token, node)}


# -- the heartbeat ------------------------------------------------------------

# Ironic's version gates of the heartbeat's fields: (fields, minimum
# version, Ironic's 400 message).
_FIELD_GATES = (
    (('agent_version',), mv.MINOR_36_AGENT_VERSION_HEARTBEAT,
     'Field "agent_version" not recognised'),
    (('agent_status', 'agent_status_message'), mv.MINOR_72_HEARTBEAT_STATUS,
     'Fields "agent_status" and "agent_status_message" not recognised.'),
    (('agent_verify_ca',), mv.MINOR_68_HEARTBEAT_VERIFY_CA,
     'Field "agent_verify_ca" not recognised in this version'),
)


def _check_gates(body, gates, given=bool):
    for names, since, message in gates:
        if (any(given(body.get(n)) for n in names)
                and not utils.allows(since)):
            raise exception.InvalidParameterValue(err=message)


def _callback_url(node, url):
    """Ironic's checks of ``callback_url``: an http(s) URL (or empty, a
    one-way agent), the same as the one the agent gave before."""
    if url != '' and 'http' not in parse.urlparse(url).scheme:
        raise exception.InvalidParameterValue(
            err='An issue with the supplied "callback_url" has been '
                'detected.')
    known = (node.driver_internal_info or {}).get('agent_url')
    if known is not None and known != url:
        LOG.error('Received heartbeat for node %s with callback URL %s. '
                  'This is not expected, and the heartbeat will not be '
                  'processed.', node.uuid, url)
        raise exception.Invalid('Detected change in ramdisk provided '
                                '"callback_url"')


def heartbeat(node_ident, body):
    """202: the heartbeat is with the node's conductor."""
    ctx = pecan.request.context
    _check_gates(body, _FIELD_GATES[:2])
    policy.authorize('baremetal:node:ipa_heartbeat', {}, ctx)
    _check_gates(body, _FIELD_GATES[2:], given=lambda v: v is not None)
    node = node_lookup.get_node(node_ident)
    _callback_url(node, body['callback_url'])
    if body.get('agent_token') is None:
        LOG.error('Agent heartbeat received for node %s without an agent '
                  'token.', node_ident)
        raise exception.InvalidParameterValue(
            err='Agent token is required for heartbeat processing.')
    status = body.get('agent_status')
    if status is not None and status not in AGENT_VALID_STATES:
        raise exception.InvalidParameterValue(
            err='Agent status is invalid. Valid states are %s.'
                % ','.join(AGENT_VALID_STATES))
    pecan.request.rpcapi.heartbeat(
        ctx, node, body['callback_url'],
        agent_version=body.get('agent_version'),
        agent_token=body['agent_token'],
        agent_verify_ca=body.get('agent_verify_ca'),
        agent_status=status,
        agent_status_message=body.get('agent_status_message'))
    pecan.response.status = 202
    pecan.request.pecan['content_type'] = None
    pecan.response.content_type = None
    return ''


def heartbeat_by_body(body):
    """``POST /v1/heartbeat`` with ``node_ident`` in the body: Ironic's
    controller takes its arguments from the body or the path alike
    (pecan merges them), and Tempest's client sends this form."""
    body = dict(body)
    node_ident = body.pop('node_ident')
    utils.uuid_or_name_arg('node_ident')(node_ident)
    return heartbeat(node_ident, body)


# Its place in the route table and the API reference (route_table.py).
API_REFERENCE_ORDER = 160
# The links of GET /v1 to it.
V1_RESOURCES = ('lookup', 'heartbeat')

ROUTES = [
    routes.Route('GET', '/v1/lookup', lookup,
                 since=mv.MINOR_22_LOOKUP_HEARTBEAT,
                 query=schema.LOOKUP_QUERY,
                 doc="the ramdisk agent's node, token and configuration "
                     "(public)"),
    routes.Route('POST', '/v1/heartbeat/{node_ident}', heartbeat,
                 since=mv.MINOR_22_LOOKUP_HEARTBEAT,
                 body={mv.MINOR_22_LOOKUP_HEARTBEAT: schema.HEARTBEAT},
                 what=body_schema.ARGS, empty=True,
                 path_args={'node_ident':
                            utils.uuid_or_name_arg('node_ident')},
                 doc="a heartbeat of the ramdisk's agent (public)"),
    routes.Route('POST', '/v1/heartbeat', heartbeat_by_body,
                 since=mv.MINOR_22_LOOKUP_HEARTBEAT,
                 body={mv.MINOR_22_LOOKUP_HEARTBEAT:
                       schema.HEARTBEAT_BY_BODY},
                 what=body_schema.ARGS, empty=True,
                 doc='the same, naming the node in the body '
                     '(``node_ident``)'),
]
