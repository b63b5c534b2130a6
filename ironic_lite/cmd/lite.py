"""ironic-lite: API and conductor in one process (the embedded default).

Unless configured otherwise it uses SQLite under ``[DEFAULT]/state_path``
and the in-process ``fake://`` transport, and it brings the database
schema up to date at start, so it runs with no setup at all.
"""

import sys

from ironic_lite.cmd import api
from ironic_lite.common import config
from ironic_lite.common import rpc
from ironic_lite.common import service
from ironic_lite.conductor import manager
from ironic_lite import conf
from ironic_lite.db import migration

CONF = conf.CONF


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    rpc.set_default_transport_url('fake://')
    config.parse_args(argv, prog='ironic-lite')
    migration.upgrade()
    conductor = service.RPCService(manager.ConductorManager())
    # The conductor starts first and stops last: the API never routes a
    # request to a conductor that is not listening.  Each is recorded in
    # the services table before it starts and marked offline after it
    # stops.
    return service.run([
        service.ServiceReporter('conductor', conductor.host), conductor,
        api.api_reporter(), api.api_service()])


if __name__ == '__main__':
    sys.exit(main())
