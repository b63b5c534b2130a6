from oslo_config import cfg

opts = [
    cfg.IntOpt('heartbeat_interval', default=10, min=1,
               help='Seconds between conductor heartbeats.'),
    cfg.IntOpt('heartbeat_timeout', default=60, min=2,
               help='Maximum time (in seconds) since the last check-in of '
                    'a conductor.  A conductor is considered inactive when '
                    'this time has been exceeded; its reservations are then '
                    'released by the others and its nodes move to them.'),
    cfg.IntOpt('workers_pool_size', default=300, min=3,
               help='The size of the worker thread pool running node '
                    'operations and the calls to BMCs of API requests and '
                    'of the power state sync.  Threads are made as work '
                    'arrives and dropped when idle.  A call to a BMC that '
                    'does not answer keeps its worker until the redfish '
                    'timeouts end it, even after the request was answered; '
                    'beyond the pool, requests are answered 503.'),
    cfg.IntOpt('reserved_workers_pool_percentage', default=5, min=0, max=50,
               help='The percentage of the whole workers pool that will be '
                    'kept for API requests and other important tasks. '
                    'This part of the pool will not be used for periodic '
                    'tasks (the power state sync). Set to 0 to disable.'),
    cfg.IntOpt('sync_power_state_workers', default=8, min=1,
               help='The maximum number of nodes whose power state is '
                    'synced at once by the periodic power state sync.  A '
                    'node whose BMC does not answer within '
                    '[DEFAULT]rpc_response_timeout is left behind (its '
                    'worker finishes on its own) and the sync goes on.'),
    cfg.IntOpt('periodic_max_workers', default=8, min=1,
               help='Maximum number of periodic tasks running at once: the '
                    'power state sync does not delay the takeover of a '
                    'dead conductor\'s nodes, which runs beside it.'),
    cfg.IntOpt('sync_power_state_interval', default=60, min=0,
               help='Seconds between power state syncs. 0 disables it.'),
    cfg.IntOpt('check_provision_state_interval', default=60, min=0,
               help='Seconds between checks for nodes stuck in a '
                    'transitional state: locked by a dead conductor, or '
                    'owned by this one (hash ring) and locked by no one '
                    'for longer than [conductor]interrupted_work_grace. '
                    'Such nodes are moved to their failed state.  0 '
                    'disables the checks.'),
    cfg.IntOpt('interrupted_work_grace', default=30, min=0,
               help='Seconds a node must have been in a transitional state '
                    '(deploying, cleaning, deleting, verifying, inspecting, '
                    'adopting, ...) with no lock before the conductor that '
                    'owns it fails it as interrupted.  A conductor holds '
                    'the lock for the whole operation, so such a node is '
                    'left over from an operation whose last write or '
                    'release failed.'),
    cfg.IntOpt('completion_write_retry_timeout', default=300, min=0,
               help='Seconds a worker keeps retrying the final write of an '
                    'operation that succeeded (deploy done, cleaning done, '
                    '...) when the database is unreachable at that moment. '
                    'It keeps the node\'s lock meanwhile; each retry is '
                    'fenced, so it is dropped if the node was taken over. '
                    'Given up, the node is failed once the database is '
                    'back and its lock is reclaimed.'),
    cfg.IntOpt('deploy_callback_timeout', default=1800, min=0,
               help='Timeout (seconds) to wait for a callback from a '
                    'deploy ramdisk: a node in "wait call-back" whose '
                    'agent has not heartbeated for that long since the '
                    'deploy began waiting moves to "deploy failed" '
                    '(checked every [conductor]'
                    'check_provision_state_interval).  Set to 0 to '
                    'disable the timeout.'),
    cfg.IntOpt('service_callback_timeout', default=1800, min=0,
               help='Timeout (seconds) to wait for a callback from the '
                    'ramdisk doing the servicing: a node in "service wait" '
                    'that has not moved for that long moves to "service '
                    'failed" (checked every [conductor]'
                    'check_provision_state_interval).  Set to 0 to '
                    'disable the timeout.'),
    cfg.BoolOpt('poweroff_in_servicefail', default=False,
                help='If True power off nodes in the "service failed" '
                     'state.  Default False.  Option may be unsafe when '
                     'using service to perform hardware-transformative '
                     'actions such as firmware upgrade.'),
    cfg.IntOpt('inspect_wait_timeout', default=1800, min=0,
               help='Timeout (seconds) for waiting for node inspection: a '
                    'node in "inspect wait" (its ramdisk\'s agent has not '
                    'sent its data, POST /v1/continue_inspection) for that '
                    'long moves to "inspect failed" (checked every '
                    '[conductor]check_provision_state_interval).  0 - '
                    'unlimited.'),
    cfg.StrOpt('api_url',
               help='The URL of the Bare Metal API the deploy ramdisk\'s '
                    'agent talks to, passed to it as ipa-api-url by the '
                    'ramdisk deploy interface.  Unset: none is passed.'),
    cfg.IntOpt('stale_lock_reclaim_interval', default=60, min=0,
               help='Seconds between checks for node locks (reservations) '
                    'this conductor holds although none of its tasks does '
                    '(their release failed, e.g. when the database '
                    'connection dropped); such locks are released.  0 '
                    'disables the check.'),
    cfg.StrOpt('conductor_group', default='',
               help='Name of the conductor group this conductor belongs '
                    'to; it manages only nodes of the same group.'),
    cfg.IntOpt('node_locked_retry_attempts', default=3, min=0,
               help='Number of attempts to grab a node lock (read by '
                    'the API too, for the port groups it creates under '
                    'the same check).'),
    cfg.FloatOpt('node_locked_retry_interval', default=0.2, min=0,
                 help='Seconds to sleep between node lock attempts (read '
                      'by the API too).'),
    cfg.StrOpt('topic',
               help='The RPC topic conductors listen on (and the name of '
                    'their queues on the broker).  Unset: '
                    '"ironic.conductor_manager" when '
                    '[DEFAULT]/control_exchange is left at its default '
                    '("openstack" or "ironic"), else '
                    '"<control_exchange>.ironic.conductor_manager", so '
                    'that deployments sharing a RabbitMQ broker with '
                    'different control_exchange values share no queue.'),
    cfg.IntOpt('rpc_send_retries', default=2, min=0,
               help='How many times the API retries to reach the message '
                    'broker before it answers 503.'),
    cfg.BoolOpt('automated_clean', default=True,
                help='Clean nodes when they are provided or torn down, '
                     'unless the node\'s automated_clean says otherwise.'),
    cfg.BoolOpt('allow_deleting_available_nodes', default=True,
                mutable=True,
                help="Allow deleting nodes which are in state "
                     "'available'."),
    # Node history: Ironic's options.
    cfg.BoolOpt('node_history', default=True, mutable=True,
                help='Record node history events: the errors of a node '
                     'and its provision state changes (GET /v1/nodes/'
                     '<node>/history).  When off, nothing is recorded; '
                     'the periodic cleanup still runs while '
                     'node_history_cleanup_batch_count is not 0.'),
    cfg.IntOpt('node_history_max_entries', default=300, min=0,
               mutable=True,
               help='The most history events kept per node: the periodic '
                    'cleanup deletes the oldest beyond it (except those '
                    'younger than node_history_minimum_days).'),
    cfg.IntOpt('node_history_cleanup_interval', default=86400, min=0,
               help='Seconds between two runs of the node history '
                    'cleanup; 0 disables it.'),
    cfg.IntOpt('node_history_cleanup_batch_count', default=1000, min=0,
               help='How many history events a cleanup run deletes at '
                    'most (a node\'s excess goes whole, so a run may '
                    'delete a few more); 0 disables the cleanup.'),
    cfg.IntOpt('node_history_minimum_days', default=0, min=0,
               mutable=True,
               help='History events younger than this many days are kept '
                    'even beyond node_history_max_entries.'),
    cfg.IntOpt('soft_power_off_timeout', default=600, min=1, mutable=True,
               help='Timeout (in seconds) of soft reboot and soft power '
                    'off operations of hardware that waits for them '
                    '(redfish).  Always positive.'),
    cfg.IntOpt('power_state_sync_max_retries', default=3, min=1,
               help='During the power state sync, the number of failed '
                    'reads of a node\'s power state in a row after which '
                    'the node is put in maintenance (fault "power '
                    'failure").'),
    cfg.BoolOpt('enable_health_monitoring', default=True, mutable=True,
                help='Read the health of each node\'s hardware from its '
                     'BMC during the power state sync (redfish: the '
                     'system\'s Status.Health) and store it in the node\'s '
                     'health field (API 1.109); a change is recorded in the '
                     'node\'s history (Ironic\'s option).'),
    cfg.IntOpt('power_state_change_timeout', default=60, min=2,
               mutable=True,
               help='Seconds to wait for hardware (redfish) to reach the '
                    'requested power state; past it the power action '
                    'failed.'),
]

fake_opts = [
    cfg.FloatOpt('power_delay', default=0, min=0,
                 help='Seconds the fake power interface takes per action.'),
    cfg.FloatOpt('deploy_delay', default=0, min=0,
                 help='Seconds the fake deploy interface takes to deploy.'),
    cfg.FloatOpt('clean_delay', default=0, min=0,
                 help='Seconds the fake interfaces take to clean a node.'),
]


def register_opts(conf):
    conf.register_opts(opts, group='conductor')
    conf.register_opts(fake_opts, group='fake')
