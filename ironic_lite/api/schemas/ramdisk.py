"""The contract of the ramdisk's agent API: ``GET /v1/lookup`` and
``POST /v1/heartbeat/{node_ident}`` (1.22).

The heartbeat's body keys are Ironic's handler arguments (its messages:
``Missing mandatory parameter: callback_url``, ``Unexpected arguments:
x``); the fields newer than the request's version are refused by the
handler, with Ironic's messages.  Each string has a length limit (Ironic
has none): what the conductor keeps of it goes to the node's
``driver_internal_info``.
"""

from ironic_lite.api import query as v

LOOKUP_QUERY = (
    v.Param('addresses', v.LIST,
            doc='MAC addresses of the node (comma list; invalid ones are '
                'ignored)'),
    v.Param('node_uuid', v.UUID, doc='UUID of the node'),
)

_LIMITS = {'callback_url': 2048, 'agent_version': 255, 'agent_token': 255,
           'agent_verify_ca': 16384, 'agent_status': 32,
           'agent_status_message': 4096}


def _prop(name):
    types = ['string'] if name == 'callback_url' else ['string', 'null']
    return {'type': types, 'maxLength': _LIMITS[name]}


HEARTBEAT = {
    'type': 'object',
    'properties': {name: _prop(name) for name in _LIMITS},
    'required': ['callback_url'],
    'additionalProperties': False,
}

# POST /v1/heartbeat: the node named in the body (Ironic's controller reads
# its arguments from the path or the body alike).
HEARTBEAT_BY_BODY = dict(
    HEARTBEAT,
    properties=dict(HEARTBEAT['properties'],
                    node_ident={'type': 'string', 'maxLength': 255}),
    required=['node_ident', 'callback_url'])
