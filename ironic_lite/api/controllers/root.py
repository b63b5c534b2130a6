"""``GET /`` (the version document) and the routing of everything else
under ``/v1`` (as in Ironic, ``/nodes`` is ``/v1/nodes``)."""

import pecan

from ironic_lite.api.controllers import link
from ironic_lite.api.controllers import v1
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


class RootController(object):

    @pecan.expose('json')
    def index(self):
        version = version_document()
        return {
            'name': 'OpenStack Ironic API',
            'description': 'Ironic is an OpenStack project which enables '
                           'the provision and management of baremetal '
                           'machines.',
            'default_version': version,
            'versions': [version],
        }

    @pecan.expose()
    def _route(self, args, request=None):
        request = request or pecan.request
        if not args or args == ['']:
            return self.index, []
        if args[0] == ID_VERSION1:
            args = args[1:]
        return v1.V1Controller()._route(args, request)
