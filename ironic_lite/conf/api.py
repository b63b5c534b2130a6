from oslo_config import cfg

opts = [
    cfg.HostAddressOpt('host_ip', default='0.0.0.0',
                       help='The IP address on which ironic-api listens.'),
    cfg.PortOpt('port', default=6385,
                help='The TCP port on which ironic-api listens.'),
    cfg.IntOpt('max_limit', default=1000, min=1,
               help='The maximum number of items returned in a single '
                    'response from a collection resource.'),
    cfg.IntOpt('max_json_body_depth', default=25, min=8,
               help='Maximum nesting depth of a JSON request body; deeper '
                    'bodies are refused with 400 before they are parsed '
                    '(as Ironic).'),
    cfg.IntOpt('max_patch_operations', default=1000, min=1,
               help='Maximum number of operations in one JSON patch '
                    '(PATCH of a node, port, port group or chassis); a '
                    'longer patch is refused with 400 before it is '
                    'applied.  Not an Ironic option: Ironic has no '
                    'limit.'),
    cfg.StrOpt('public_endpoint',
               help='Public URL to use when building the links to the API '
                    'resources (for example, "https://ironic.rocks:6384"). '
                    'If unset, the base URL of the request is used.'),
    cfg.IntOpt('api_workers', default=8, min=1,
               help='Number of threads serving API requests.  Reading a '
                    'request and writing its response take no thread: '
                    'only the work in between does.'),
    cfg.IntOpt('client_socket_timeout', default=60, min=1,
               help='Seconds a client connection may stay without '
                    'activity -- an idle keep-alive connection, or a '
                    'request sent only in part -- before ironic-api '
                    'closes it.  Such connections hold no worker thread.'),
    cfg.IntOpt('max_connections', default=100, min=1,
               help='Maximum number of client connections ironic-api keeps '
                    'open at once; beyond it, new connections wait in the '
                    'listen backlog until one closes.'),
    cfg.StrOpt('default_portgroup_mode', default='active-backup',
               help='Bonding mode of a new port group when none is given.'),
]


def register_opts(conf):
    conf.register_opts(opts, group='api')
