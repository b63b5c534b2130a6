from oslo_config import cfg

opts = [
    cfg.HostAddressOpt('host_ip', default='0.0.0.0',
                       help='The IP address on which ironic-api listens.'),
    cfg.PortOpt('port', default=6385,
                help='The TCP port on which ironic-api listens.'),
    cfg.IntOpt('max_limit', default=1000, min=1,
               help='The maximum number of items returned in a single '
                    'response from a collection resource.'),
    cfg.StrOpt('public_endpoint',
               help='Public URL to use when building the links to the API '
                    'resources (for example, "https://ironic.rocks:6384"). '
                    'If unset, the base URL of the request is used.'),
    cfg.IntOpt('api_workers', default=8, min=1,
               help='Number of threads serving API requests.'),
    cfg.StrOpt('default_portgroup_mode', default='active-backup',
               help='Bonding mode of a new port group when none is given.'),
]


def register_opts(conf):
    conf.register_opts(opts, group='api')
