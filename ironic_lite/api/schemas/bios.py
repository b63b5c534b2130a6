"""The contract of ``/v1/nodes/<n>/bios`` (1.40; ``detail`` and
``fields`` from 1.74, the registry fields).

Below 1.74 Ironic's query schema of the list has no property: ``detail``
and ``fields`` are then unknown parameters (its schema error); the show
takes no query parameter.
"""

from ironic_lite.api import microversions as mv
from ironic_lite.api import query as v

# The fields ?fields= may name (Ironic's index_request_query_v74 enum).
SELECTABLE_FIELDS = (
    'allowable_values', 'attribute_type', 'created_at', 'lower_bound',
    'links', 'max_length', 'min_length', 'name', 'node_uuid', 'read_only',
    'reset_required', 'unique', 'updated_at', 'value')

LIST_QUERY = (
    v.Param('fields', v.LIST, since=mv.MINOR_74_BIOS_REGISTRY,
            gate=v.GATE_UNKNOWN, doc='the fields to return (comma list)'),
    v.Param('detail', v.BOOL, since=mv.MINOR_74_BIOS_REGISTRY,
            gate=v.GATE_UNKNOWN, doc='return the registry fields too'),
)
SHOW_QUERY = ()
