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

# POST /v1/continue_inspection: Ironic's minimal inventory (its
# DATA_VALIDATOR); everything else is the agent's plugin data.  The body's
# size is bounded by [oslo_middleware]max_request_body_size.
CONTINUE_INSPECTION = {
    'type': 'object',
    'properties': {
        'inventory': {
            'type': 'object',
            'properties': {
                'bmc_address': {'type': ['string', 'null']},
                'bmc_v6address': {'type': ['string', 'null']},
                'interfaces': {
                    'type': 'array',
                    'items': {
                        'type': 'object',
                        'properties': {'mac_address': {'type': 'string'}},
                        'required': ['mac_address'],
                        'additionalProperties': True,
                    },
                    'minItems': 1,
                },
            },
            'required': ['interfaces'],
            'additionalProperties': True,
        },
    },
    'required': ['inventory'],
    'additionalProperties': True,
}
CONTINUE_INSPECTION_QUERY = (
    v.Param('node_uuid', v.UUID, doc='UUID of the node (from 1.84)'),
)
