"""The contract of ``/v1/nodes/{node_ident}/management``: the boot
device.  Whether the node supports the device is the conductor's answer.
"""


# Ironic's handler arguments: a string boot_device, a boolean persistent.
BOOT_DEVICE = {
    'type': 'object',
    'properties': {'boot_device': {'type': 'string'},
                   'persistent': {'type': 'boolean'}},
    'required': ['boot_device'],
    'additionalProperties': False,
}

# PUT .../management/inject_nmi (1.29): Ironic's handler takes no
# argument (openstacksdk sends an empty object).
INJECT_NMI = {'type': 'object', 'properties': {},
              'additionalProperties': False}
