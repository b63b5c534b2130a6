"""The contract of ``/v1/chassis`` and ``/v1/chassis/<uuid>/nodes``."""

from ironic_lite.api import schemas as s

FIELDS = {'description': s.TEXT, 'extra': s.DICT, 'uuid': s.TEXT}
BODY = s.body('chassis', FIELDS, uuids=('uuid',))   # CHASSIS_VALIDATOR
PATCH_ALLOWED = frozenset(('description', 'extra'))
READ_ONLY = ('uuid', 'created_at', 'updated_at', 'links', 'nodes')

LIST_QUERY = s.PAGING + (s.fields_param(), s.detail_param())
