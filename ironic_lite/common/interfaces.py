"""The hardware interfaces a node is made of, named once for every layer.

A hardware type (``ironic_lite.drivers``) composes one implementation per
interface; a node names the implementation it uses of each in its
``<name>_interface`` field (the node object, the API contract, the
per-field update policy).
"""

# Ironic's order.
ALL_INTERFACES = ('bios', 'boot', 'console', 'deploy', 'firmware',
                  'inspect', 'management', 'network', 'power', 'raid',
                  'rescue', 'storage', 'vendor')
# The node fields, ``<name>_interface``, in the same order.
INTERFACE_FIELDS = tuple('%s_interface' % i for i in ALL_INTERFACES)

# The interfaces whose clean steps a manual cleaning may name (Ironic's
# CLEANING_INTERFACE_PRIORITY, highest priority first; the firmware
# interface from release 6.0, API 1.86).
CLEAN_STEP_INTERFACES = ('vendor', 'power', 'management', 'firmware',
                         'deploy', 'bios', 'raid')
