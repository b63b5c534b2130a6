"""The contract of ``/v1/conductors`` (1.49, read only)."""

from ironic_lite.api import microversions as mv
from ironic_lite.api import schemas as s
from ironic_lite.api import validation as v

SINCE = mv.CONDUCTOR_MIN_VERSION
LIST_QUERY = (
    v.Param('marker', doc='hostname of the last conductor of the previous '
                          'page'),
) + s.PAGING[1:] + (s.fields_param(since=SINCE),
                    s.detail_param(since=SINCE))

ROUTES = [
    v.Route('GET', '/v1/conductors', query=LIST_QUERY, since=SINCE,
            unknown=v.UNKNOWN_SCHEMA, doc='list conductors'),
    v.Route('GET', '/v1/conductors/{hostname}',
            query=(s.fields_param(since=SINCE),), since=SINCE,
            unknown=v.UNKNOWN_SCHEMA, doc='show a conductor'),
]
