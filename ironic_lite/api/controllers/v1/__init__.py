"""``/v1``: the version 1 document, listing the resources the request's
microversion has (those whose collection route exists at it)."""

import pecan

from ironic_lite.api.controllers import link
from ironic_lite.api import query as q
from ironic_lite.api import routes

# The resources GET /v1 lists, in Ironic's order.
RESOURCES = ('chassis', 'nodes', 'ports', 'portgroups', 'volume',
             'lookup', 'heartbeat', 'conductors', 'shards', 'drivers',
             'allocations')
# Release 4.0: deploy templates (1.55).
RESOURCES += ('deploy_templates',)


def index():
    from ironic_lite.api.controllers import root
    url = pecan.request.public_url
    body = {
        'id': 'v1',
        'links': [
            link.make_link('self', url, 'v1', '', bookmark=True),
            link.make_link('describedby',
                           'https://docs.openstack.org',
                           '/ironic/latest/contributor/', 'webapi.html',
                           bookmark=True, type='text/html')],
        # One object, not a list (as Ironic).
        'media_types': {
            'base': 'application/json',
            'type': 'application/vnd.openstack.ironic.v1+json'},
        'version': root.version_document(),
    }
    minor = pecan.request.version.minor
    for name in RESOURCES:
        # The agent's heartbeat is only POSTed.
        route = (routes.find('GET', '/v1/' + name)
                 or routes.find('POST', '/v1/' + name))
        if route.since <= minor:
            body[name] = link.self_and_bookmark(name, '')
    return body


ROUTES = [
    routes.Route('GET', '/v1', index, query=q.ANY_QUERY,
                 doc='version 1: its resources and microversion range'),
]
