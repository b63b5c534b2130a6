"""The contract of ``/v1/chassis`` and ``/v1/chassis/<uuid>/nodes``."""

from ironic_lite.api import schemas as s
from ironic_lite.api.schemas import node
from ironic_lite.api import validation as v

FIELDS = {'description': s.TEXT, 'extra': s.DICT, 'uuid': s.TEXT}
BODY = s.body('chassis', FIELDS)
PATCH_ALLOWED = frozenset(('description', 'extra'))
READ_ONLY = ('uuid', 'created_at', 'updated_at', 'links', 'nodes')

LIST_QUERY = s.PAGING + (s.fields_param(), s.detail_param())

C = '/v1/chassis/{chassis_uuid}'

ROUTES = [
    v.Route('GET', '/v1/chassis', query=LIST_QUERY,
            unknown=v.UNKNOWN_SCHEMA, doc='list chassis'),
    v.Route('GET', '/v1/chassis/detail', query=LIST_QUERY,
            unknown=v.UNKNOWN_SCHEMA, doc='list chassis with every field'),
    v.Route('POST', '/v1/chassis', body={1: BODY}, what='chassis',
            doc='create a chassis'),
    v.Route('GET', C, query=(s.fields_param(),), unknown=v.UNKNOWN_SCHEMA,
            doc='show a chassis'),
    v.Route('PATCH', C, body={1: s.PATCH}, what='patch',
            read_only=READ_ONLY, doc='update a chassis (JSON patch)'),
    v.Route('DELETE', C, doc='delete a chassis'),
] + node.list_routes(C + '/nodes')
