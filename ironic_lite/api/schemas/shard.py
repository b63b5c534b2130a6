"""The contract of ``/v1/shards`` (1.82, read only, no parameters)."""

from ironic_lite.api import microversions as mv
from ironic_lite.api import validation as v

ROUTES = [
    v.Route('GET', '/v1/shards', since=mv.SHARDS_MIN_VERSION,
            unknown=v.UNKNOWN_SCHEMA,
            doc='the shards and how many nodes each has'),
]
