from oslo_concurrency import processutils
from oslo_config import cfg
from oslo_middleware import http_proxy_to_wsgi

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
    cfg.IntOpt('api_workers', min=0,
               help='Number of API processes of ironic-api.  The default '
                    '(unset, or 0) is the number of CPUs, but not more '
                    'than 4 (as Ironic); one when the number of CPUs '
                    'cannot be found.  With more than one, a parent '
                    'process listens and supervises the workers (see '
                    'doc/source/admin/multi-process.rst).  The all-in-one '
                    'ironic-lite command is always one process.'),
    cfg.IntOpt('threads', default=8, min=1,
               help='Number of threads serving requests in each API '
                    'process.  Reading a request and writing its response '
                    'take no thread: only the work in between does.  Not '
                    'an Ironic option (ironic-lite 5.0 named this number '
                    'api_workers).'),
    cfg.IntOpt('client_socket_timeout', default=60, min=1,
               help='Seconds a client connection may stay without '
                    'activity -- an idle keep-alive connection, or a '
                    'request sent only in part -- before ironic-api '
                    'closes it.  Such connections hold no worker thread.'),
    cfg.IntOpt('max_connections', default=100, min=1,
               help='Maximum number of client connections ironic-api keeps '
                    'open at once (all its api_workers together).  At '
                    'the limit, a new connection closes the keep-alive '
                    'connection that has been idle the '
                    'longest; when none is idle, the connection that has '
                    'been reading its request for over a second with the '
                    'slowest progress (a trickling client); when every '
                    'connection is busy being served, it waits in the '
                    'listen backlog until one closes.'),
    cfg.IntOpt('request_read_timeout', default=30, min=0,
               help='Seconds within which a request\'s headers and body '
                    'must have arrived, counted from its first byte; '
                    'otherwise ironic-api closes the connection, however '
                    'busy the client keeps it (client_socket_timeout only '
                    'counts silence).  30 seconds let a 1 MiB body (the '
                    'default [oslo_middleware]max_request_body_size) '
                    'through a link of 300 kbit/s; raise it with the body '
                    'size limit.  0 disables the deadline.'),
    cfg.IntOpt('max_connections_per_client', default=0, min=0,
               help='Maximum number of connections one client address '
                    'may hold (all api_workers together); 0 (the '
                    'default): no cap.  Many '
                    'connections from one address are normal (a client '
                    'library\'s pools, devstack, a NAT gateway), and '
                    'max_connections already makes room by closing idle '
                    'and trickling connections whatever their address.  '
                    'At the cap, a new connection of the address closes '
                    'that address\'s own connection idle the longest; '
                    'only when all of them are busy is the new one closed '
                    'at once.  The addresses of proxy_addresses are not '
                    'capped, and neither is any address when '
                    '[oslo_middleware]enable_proxy_headers_parsing is '
                    'on (the API is then behind a balancer, every '
                    'connection comes from it).'),
    cfg.ListOpt('proxy_addresses', default=[],
                help='Addresses or networks (CIDR) of the load balancers '
                     'or proxies in front of ironic-api: their '
                     'connections are not counted against '
                     'max_connections_per_client.'),
    cfg.IntOpt('max_concurrent_large_lists', min=0,
               sample_default='<2 per API process>',
               help='How many large list pages (see large_list_threshold) '
                    'are read and rendered at once; the others wait for '
                    'their turn, holding no worker thread, up to '
                    'request_queue_timeout seconds.  A figure for the '
                    'whole service, however many api_workers; unset, 2 '
                    'for each API process.  Keep it below threads, so '
                    'that light requests always find a worker thread.  '
                    '0: no bound.'),
    cfg.IntOpt('request_queue_timeout', default=30, min=1,
               help='Seconds a request held back by '
                    'max_concurrent_large_lists or '
                    'max_concurrent_hardware_calls may wait for its turn '
                    '(holding no worker thread); one that could not be '
                    'served in that time is answered 503, nothing done, '
                    'and may be retried.  Keep it below the clients\' and '
                    'any load balancer\'s timeout (HAProxy\'s "timeout '
                    'server" is often 60 s), so that the client reads the '
                    '503 rather than a proxy\'s 504.  Not an Ironic '
                    'option.'),
    cfg.IntOpt('large_list_queue', default=2, min=0,
               deprecated_for_removal=True,
               deprecated_since='6.0',
               deprecated_reason='Large list requests are no longer '
                                 'refused when a few wait: they wait for '
                                 'their turn up to request_queue_timeout.',
               help='Ignored.  (Until 6.0: how many large list requests '
                    'could wait for their turn before the next was '
                    'answered 503.)'),
    cfg.BoolOpt('project_admin_can_manage_own_nodes', default=True,
                mutable=True,
                help='If a project scoped administrative user is permitted '
                     'to create/delete baremetal nodes in their project '
                     '(policies baremetal:node:create:self_owned_node and '
                     'baremetal:node:delete:self_owned_node).'),
    cfg.IntOpt('large_list_threshold', default=100, min=1,
               help='A list page of nodes, ports or port groups is '
                    'large when it may hold more than this many items '
                    '(its limit, or max_limit) and reads them whole: any '
                    'port or port group page, a node page that is '
                    'detailed or names its fields.'),
    cfg.IntOpt('list_page_cache_size', default=32, min=0,
               help='MiB of compressed port list pages each API process '
                    'keeps, to answer a request for the same page again '
                    'while none of its ports has changed (each request '
                    'still reads the page\'s row versions from the '
                    'database: nothing committed is missed).  '
                    'PostgreSQL only; 0: no pages kept.  '
                    'Not an Ironic option.'),
    cfg.IntOpt('max_concurrent_hardware_calls', default=4, min=0,
               help='How many requests that wait for a BMC\'s answer (boot '
                    'device, indicators, NMI, interface validation, '
                    'synchronous vendor passthru) this API serves at once '
                    '(all api_workers together); '
                    'the others wait for their turn, holding no worker '
                    'thread, up to request_queue_timeout seconds.  Each '
                    'served one waits in a worker thread for up to '
                    '[DEFAULT]rpc_response_timeout seconds: keep it, with '
                    'max_concurrent_large_lists, below threads, so that '
                    'BMCs that never answer leave threads to every other '
                    'request.  0: no bound.  '
                    'Not an Ironic option.'),
    cfg.BoolOpt('restrict_lookup', default=True,
                help='Whether to restrict the lookup API (GET /v1/lookup) '
                     'to nodes in certain states (deploy, clean, inspect '
                     'and rescue, running or waiting).'),
    cfg.IntOpt('ramdisk_heartbeat_timeout', default=300, min=1,
               help='Maximum interval (in seconds) for agent heartbeats, '
                    'given to the agent in the lookup answer.'),
    cfg.StrOpt('default_portgroup_mode', default='active-backup',
               help='Bonding mode of a new port group when none is given.'),
]


# Ironic's cap on the default number of API processes (each holds its own
# copy of the application, its database pool and RPC client).
MAX_DEFAULT_WORKERS = 4


def worker_count(conf):
    """The number of API processes: [api]api_workers, or Ironic's default
    -- the CPUs (processutils.get_worker_count: 1 when unknown), at most
    MAX_DEFAULT_WORKERS."""
    return conf.api.api_workers or min(processutils.get_worker_count(),
                                       MAX_DEFAULT_WORKERS)


# Large list pages rendered at once, for each API process, unless
# [api]max_concurrent_large_lists says otherwise.
LARGE_LISTS_PER_PROCESS = 2


def large_list_line(conf, processes=1):
    """How many large list pages the service renders at once: [api]
    max_concurrent_large_lists, or LARGE_LISTS_PER_PROCESS for each of
    the service's ``processes`` (0: no bound)."""
    value = conf.api.max_concurrent_large_lists
    if value is None:
        return LARGE_LISTS_PER_PROCESS * max(1, processes)
    return value


def connections_per_client(conf):
    """[api]max_connections_per_client as it applies: 0 for no cap."""
    conf.register_opts(http_proxy_to_wsgi.OPTS, group='oslo_middleware')
    if conf.oslo_middleware.enable_proxy_headers_parsing:
        return 0
    return conf.api.max_connections_per_client


def register_opts(conf):
    conf.register_opts(opts, group='api')
