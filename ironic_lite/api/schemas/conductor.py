"""The contract of ``/v1/conductors`` (1.49, read only)."""

from ironic_lite.api import microversions as mv
from ironic_lite.api import schemas as s
from ironic_lite.api import query as v

SINCE = mv.CONDUCTOR_MIN_VERSION
LIST_QUERY = (
    v.Param('marker', doc='hostname of the last conductor of the previous '
                          'page'),
) + s.PAGING[1:] + (s.fields_param(since=SINCE),
                    s.detail_param(since=SINCE))
