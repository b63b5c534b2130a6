"""The contract of ``/v1/nodes/{node_ident}/management``: the boot
device and the indicators.  Whether the node supports the device (or the
indicator, or its state) is the conductor's answer.
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

# PUT .../management/indicators/{indicator}: Ironic's handler argument
# ``state``, read by the handler as Ironic's args.string (a string, or
# null left to the driver).
INDICATOR_STATE = {
    'type': 'object',
    'properties': {'state': {}},
    'required': ['state'],
    'additionalProperties': False,
}
