"""The route table: every controller's ``ROUTES``, in the order of the API
reference, and the ``Router`` built from them.

It sits above the controllers: it finds and imports each of them
(``controller_modules``: a module of ``controllers/v1`` with ``ROUTES``
and its ``API_REFERENCE_ORDER``), and only the root controller
(``controllers/root.py``), the API reference and tests import it.  The
vocabulary the controllers declare their routes with is
``api/routes.py``, which imports no controller.

``GET /v1`` is declared here: its document lists the resources whose
collection route exists at the request's microversion, a question to the
table itself.
"""

import importlib
import pkgutil

import pecan
import webob.exc

from ironic_lite.api.controllers import link
from ironic_lite.api.controllers import v1 as v1_package
from ironic_lite.api.controllers.v1 import node_lookup
from ironic_lite.api.controllers import versions_index
from ironic_lite.api import query as q
from ironic_lite.api import routes
from ironic_lite.common import exception


def controller_modules():
    """The modules of ``controllers/v1`` that declare ``ROUTES``: a new
    resource's module is found here, not listed by hand.  ``_table``
    places them by their ``API_REFERENCE_ORDER``.
    """
    found = []
    for info in pkgutil.iter_modules(v1_package.__path__):
        module = importlib.import_module(
            '%s.%s' % (v1_package.__name__, info.name))
        if hasattr(module, 'ROUTES'):
            found.append(module)
    return found


def _table(modules):
    """(every route in the order of the modules' places, the resources
    GET /v1 links to).  A module with ``ROUTES`` but no place must be
    one whose routes another module includes (``node_states`` in
    ``node``)."""
    placed = sorted((m for m in modules if hasattr(m, 'API_REFERENCE_ORDER')),
                    key=lambda m: m.API_REFERENCE_ORDER)
    orders = [m.API_REFERENCE_ORDER for m in placed]
    if len(set(orders)) != len(orders):
        raise RuntimeError('Two controller modules share a place in the '
                           'route table: %s' % sorted(orders))
    table = versions_index.ROUTES + V1_ROUTES
    for module in placed:
        table += module.ROUTES
    in_table = {id(route) for route in table}
    for module in modules:
        if any(id(route) not in in_table for route in module.ROUTES):
            raise RuntimeError(
                '%s declares routes but no API_REFERENCE_ORDER, and no '
                'other module includes them' % module.__name__)
    return table, tuple(name for m in placed
                        for name in getattr(m, 'V1_RESOURCES', ()))


def v1_index():
    """The version 1 document: the resources of the request's
    microversion (those whose collection route exists at it)."""
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
        'version': versions_index.version_document(),
    }
    minor = pecan.request.version.minor
    for name in RESOURCES:
        # The agent's heartbeat is only POSTed.
        route = (find('GET', '/v1/' + name)
                 or find('POST', '/v1/' + name))
        if route.since <= minor:
            body[name] = link.self_and_bookmark(name, '')
    return body


V1_ROUTES = [
    routes.Route('GET', '/v1', v1_index, query=q.ANY_QUERY,
                 doc='version 1: its resources and microversion range'),
]

# Every route, in the order of the API reference; the resources GET /v1
# links to.
ROUTES, RESOURCES = _table(controller_modules())

ROUTER = routes.Router(ROUTES, excluded={
    'node_ident': node_lookup.SUBCONTROLLER_NAMES})


def find(method, path, minor=10 ** 6):
    """The route of ``method`` on ``path`` (None when there is none)."""
    try:
        return ROUTER.match(method, routes.path_segments(path.split('/')),
                            minor)[0]
    except (webob.exc.HTTPException, exception.IronicException):
        return None
