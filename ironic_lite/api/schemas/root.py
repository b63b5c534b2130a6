"""The contract of ``/`` and ``/v1`` (the version documents)."""

from ironic_lite.api import validation as v

ROUTES = [
    v.Route('GET', '/', query=v.ANY_QUERY, doc='the API versions'),
    v.Route('GET', '/v1', query=v.ANY_QUERY,
            doc='version 1: its resources and microversion range'),
]
