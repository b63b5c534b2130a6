"""``GET /`` (any method, as Ironic): the versions document, and the
version object ``/v1`` repeats."""

import pecan

from ironic_lite.api.controllers import link
from ironic_lite.api import query as q
from ironic_lite.api import routes
from ironic_lite.api import versions

ID_VERSION1 = 'v1'


def version_document():
    """The v1 version object of ``/`` and ``/v1``."""
    url = pecan.request.public_url
    return {'id': ID_VERSION1,
            'links': [link.make_link('self', url, ID_VERSION1, '',
                                     bookmark=True)],
            'status': 'CURRENT',
            'min_version': str(versions.MIN_VERSION),
            'version': str(versions.max_version())}


def index():
    """The versions document (any method, as Ironic's RootController)."""
    version = version_document()
    return {
        'name': 'OpenStack Ironic API',
        'description': 'Ironic is an OpenStack project which enables '
                       'the provision and management of baremetal '
                       'machines.',
        'default_version': version,
        'versions': [version],
    }


ROUTES = [
    routes.Route('GET', '/', index, query=q.ANY_QUERY, any_method=True,
                 doc='the API versions'),
]
