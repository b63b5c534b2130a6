"""The contract of ``/v1/nodes/{node_ident}/vifs`` (1.28).

Ironic's VIF body: an object with a string ``id``; other keys are allowed
(``port_uuid`` or ``portgroup_uuid`` from 1.67).  That the id is a UUID or
a logical name, and that not both port keys are given, is the
controller's check (Ironic's wording).
"""

from ironic_lite.api import microversions as mv

VIF = {
    'type': 'object',
    'properties': {'id': {'type': 'string'}},
    'required': ['id'],
    'additionalProperties': True,
}
VIF_PORT = dict(VIF, properties={
    'id': {'type': 'string'},
    'port_uuid': {'type': 'string'},
    'portgroup_uuid': {'type': 'string'},
})

SINCE = mv.MINOR_28_VIFS_SUBCONTROLLER
