"""The contract of ``/v1/nodes/{node_ident}/traits`` (1.37).

A trait is a standard os-traits name or ``CUSTOM_`` followed by upper-case
letters, digits and ``_``, at most 255 characters (Ironic's schema).  The
trait of ``PUT .../traits/{trait}`` is a path segment: the controller
checks it against ``TRAIT``.  At most 50 traits per node is the
conductor's check (it needs the node's current traits).
"""

import os_traits

from ironic_lite.api import microversions as mv

# Ironic's pattern, shown in its messages ("Possible root cause: ...
# does not match '^CUSTOM_[A-Z0-9_]+$'") ...
CUSTOM_TRAIT_PATTERN = '^%s[A-Z0-9_]+$' % os_traits.CUSTOM_NAMESPACE
STANDARD_TRAITS = frozenset(os_traits.get_traits())
TRAIT = {
    'type': 'string', 'minLength': 1, 'maxLength': 255,
    # ... but ``$`` also matches before a final newline (jsonschema
    # searches with Python's ``re``): "CUSTOM_X\n" is no trait.
    'pattern': r'^[^\n]*\Z',
    'anyOf': [{'pattern': CUSTOM_TRAIT_PATTERN},
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
