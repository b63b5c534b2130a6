"""The contract of ``/v1/nodes/{node_ident}/management``: the boot
device.  Whether the node supports the device is the conductor's answer.
"""

from ironic_lite.api import validation as v

# Ironic's handler arguments: a string boot_device, a boolean persistent.
BOOT_DEVICE = {
    'type': 'object',
    'properties': {'boot_device': {'type': 'string'},
                   'persistent': {'type': 'boolean'}},
    'required': ['boot_device'],
    'additionalProperties': False,
}

B = '/v1/nodes/{node_ident}/management/boot_device'

ROUTES = [
    v.Route('GET', B, doc="a node's next boot device"),
    v.Route('PUT', B, body={1: BOOT_DEVICE}, what=v.ARGS,
            doc="set a node's next boot device"),
    v.Route('GET', B + '/supported', doc='the boot devices it supports'),
]
