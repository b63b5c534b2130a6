"""The contract of ``/v1/nodes/{node_ident}/traits`` (1.37).

A trait is a standard os-traits name or ``CUSTOM_`` followed by upper-case
letters, digits and ``_``, at most 255 characters (Ironic's schema).  The
trait of ``PUT .../traits/{trait}`` is a path segment: the controller
checks it against ``TRAIT``.  At most 50 traits per node is the
conductor's check (it needs the node's current traits).
"""

import os_traits

from ironic_lite.api import microversions as mv

# The pattern as Ironic's messages show it ...
CUSTOM_TRAIT_PATTERN = '^%s[A-Z0-9_]+$' % os_traits.CUSTOM_NAMESPACE
# ... and as it is checked: ``$`` also matches before a final newline
# (jsonschema searches with Python's ``re``), "CUSTOM_X\n" is no trait.
_CUSTOM_TRAIT_CHECK = CUSTOM_TRAIT_PATTERN[:-1] + r'\Z'
STANDARD_TRAITS = frozenset(os_traits.get_traits())
TRAIT = {
    'type': 'string', 'minLength': 1, 'maxLength': 255,
    'anyOf': [{'pattern': _CUSTOM_TRAIT_CHECK},
              {'enum': sorted(STANDARD_TRAITS)}],
}
# ``traits`` is not required here: a body without it gets Ironic's
# "A single node trait may be added ..." message from the controller.
TRAITS = {
    'type': 'object',
    'properties': {'traits': {'type': 'array', 'items': TRAIT}},
    'additionalProperties': False,
}

SINCE = mv.MINOR_37_NODE_TRAITS
