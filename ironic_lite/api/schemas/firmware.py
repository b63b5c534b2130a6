"""The contract of ``GET /v1/nodes/<n>/firmware`` (1.86; the identity
fields from 1.114): ``?fields=`` and ``?detail=``, Ironic's
``index_request_query``."""

from ironic_lite.api import query as v

# The fields ?fields= may name (Ironic's enum).
SELECTABLE_FIELDS = (
    'created_at', 'updated_at', 'component', 'initial_version',
    'current_version', 'last_version_flashed', 'vendor', 'model',
    'serial_number')

LIST_QUERY = (
    v.Param('fields', v.LIST, doc='the fields to return (comma list)'),
    v.Param('detail', v.BOOL,
            doc='as Ironic: true returns the times of each component only'),
)
