"""The contract of ``/v1/nodes/<n>/history`` (1.78).

Ironic's handler arguments: ``detail``, ``marker``, ``limit``,
``sort_key``, ``sort_dir``; and ``fields``, which Ironic writes into the
``next`` link of a page (ironic-lite accepts it, to select fields).
"""

from ironic_lite.api import query as v
from ironic_lite.api import schemas as s

LIST_QUERY = s.PAGING + (
    v.Param('detail', v.BOOL, doc='return every field of each event'),
    v.Param('fields', v.LIST, doc='the fields to return (comma list)'),
)
