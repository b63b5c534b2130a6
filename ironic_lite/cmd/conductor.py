"""ironic-conductor: the conductor service."""

import sys

from ironic_lite.common import config
from ironic_lite.common import service
from ironic_lite.conductor import manager


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    config.parse_args(argv, prog='ironic-conductor')
    conductor = manager.ConductorManager()
    return service.run([service.ServiceReporter('conductor', conductor.host),
                        service.RPCService(conductor)])


if __name__ == '__main__':
    sys.exit(main())
