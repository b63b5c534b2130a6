"""The contract of ``/v1/drivers``.

What the contract cannot say stays in the controller: the value of
``?type=`` ("classic" or "dynamic"), ``?detail=`` together with
``?fields=``, and which field names exist at the request's version.
"""

from ironic_lite.api import microversions as mv
from ironic_lite.api import schemas as s
from ironic_lite.api import query as v

LIST_QUERY = (
    v.Param('type', since=mv.MINOR_30_DYNAMIC_DRIVERS,
            doc='"classic" (always empty) or "dynamic"'),
    v.Param('detail', v.BOOL, since=mv.MINOR_30_DYNAMIC_DRIVERS,
            doc='return the interfaces too'),
    s.fields_param(since=mv.MINOR_77_DRIVER_FIELDS_SELECTOR))
SHOW_QUERY = (s.fields_param(since=mv.MINOR_77_DRIVER_FIELDS_SELECTOR),)
