"""ironic-conductor: the conductor service."""

import sys

from ironic_lite.common import config
from ironic_lite.common import launcher
from ironic_lite.common import metrics
from ironic_lite.common import rpc
from ironic_lite.conductor import manager
from ironic_lite.conductor import rpc_service
from ironic_lite.db import api as db_api
from ironic_lite import service_reporter


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    config.parse_args(argv, prog='ironic-conductor')
    rpc.check_remote_transport('ironic-conductor')
    rpc.poll_lazily()
    rpc.set_conductor_host()
    conductor = manager.ConductorManager()
    services = [
        service_reporter.ServiceReporter('conductor', conductor.host),
        rpc_service.RPCService(conductor)]
    listener = metrics.conductor_listener('ironic-conductor')
    return launcher.serve(services + ([listener] if listener else []),
                          close=[db_api.reset])


if __name__ == '__main__':
    sys.exit(main())
