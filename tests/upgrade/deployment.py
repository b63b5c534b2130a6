"""A real multi-process deployment on this machine, for rolling restarts.

Two (or more) ``ironic-api`` and ``ironic-conductor`` processes, each a
separate OS process with its own host name and config file, sharing one
database and one RabbitMQ broker.  Each process runs from a "release": the
``bin`` directory of a virtualenv, so an old release's real code and the
working tree's code can run side by side.
"""

import os
import uuid

import sqlalchemy as sa

from tests import conftest
from tests.functional import procs
from tests import timeouts

# The release of a process being stopped for a restart (Deployment.layout).
STOPPING = 'stopping'

# The tables behind the versioned objects, by object name.
OBJECT_TABLES = {'Node': 'nodes', 'Port': 'ports', 'Portgroup': 'portgroups',
                 'Chassis': 'chassis', 'Conductor': 'conductors',
                 'Service': 'services', 'Trait': 'node_traits',
                 'VolumeConnector': 'volume_connectors',
                 'VolumeTarget': 'volume_targets'}


class Release(object):
    """An installed release: a name and the bin directory of its venv."""

    def __init__(self, name, bin_dir):
        self.name = name
        self.bin_dir = bin_dir

    def command(self, name):
        return os.path.join(self.bin_dir, name)


class Deployment(object):
    # Options a kind of deployment adds to every process's file, by
    # section; they override the defaults below (see tests/faults).
    EXTRA_CONFIG = {}

    def __init__(self, workdir, db_url, rabbit_url, ring_interval=2):
        self.workdir = workdir
        self.db_url = db_url
        self.rabbit_url = rabbit_url
        # A topic and exchange of its own: no message of another test run
        # can reach these conductors.
        tag = uuid.uuid4().hex[:8]
        self.topic = 'ironic.conductor_manager.%s' % tag
        self.exchange = 'ironic-%s' % tag
        self.ring_interval = ring_interval
        self.services = {}      # label -> procs.Service
        self.layout = {}        # label -> (kind, release name, pin)
        self.api_ports = {}     # label -> port
        # Options of one release's conductors: release name -> {section:
        # {option: value}} (the new code's enable hardware types the old
        # release does not have).
        self.release_config = {}

    # -- configuration --------------------------------------------------

    def config(self, label, kind, pin=None, extra=None):
        values = self.values(label, kind, pin)
        for more in (self.EXTRA_CONFIG, extra or {}):
            for section, options in more.items():
                values[section] = dict(values.get(section, {}), **options)
        path = os.path.join(self.workdir, '%s.conf' % label)
        return procs.write_config(path, values)

    def values(self, label, kind, pin=None):
        """{section: {option: value}} of a process's file, before
        EXTRA_CONFIG and the release's options."""
        values = {
            'DEFAULT': {'host': label,
                        'transport_url': self.rabbit_url,
                        'control_exchange': self.exchange,
                        'state_path': self.workdir,
                        'hash_ring_reset_interval': self.ring_interval,
                        'graceful_shutdown_timeout': timeouts.HANG},
            # Bounded pools: two hops on one PostgreSQL server (its
            # default max_connections is 100) beside the functional tests
            # would otherwise pass it with oslo.db's defaults (5 + 50
            # overflow per process) under the workload.
            'database': {'connection': self.db_url, 'max_pool_size': 5,
                         'max_overflow': 5},
            'conductor': {'topic': self.topic,
                          'heartbeat_interval': 1,
                          # Every stop here is graceful (the conductor
                          # leaves the ring itself): no test needs a dead
                          # conductor detected, and on a loaded machine a
                          # live one's heartbeat can lag well over 10 s
                          # ("No ironic-conductor is alive" 503s seen).
                          'heartbeat_timeout': 60,
                          'sync_power_state_interval': 5},
            'oslo_messaging_rabbit': conftest.RABBIT_TEST_OPTIONS,
        }
        if pin:
            values['DEFAULT']['pin_release_version'] = pin
        if kind == 'api':
            # 8 threads: an old release reads it from its default
            # api_workers (threads until 6.0), this tree from threads
            # (api_workers, processes here, is set in start()).
            values['api'] = {'host_ip': '127.0.0.1',
                             'port': self.api_ports[label],
                             'threads': 8}
        return values

    @staticmethod
    def api_release_options(release):
        """This tree's API runs one process, as in the functional tests'
        splits (procs.api_and_conductor): a process per core in every API
        of every deployment costs the upgrade tests minutes on two cores,
        and the worker processes have tests of their own.  An old release
        reads ``api_workers`` as its thread count: it keeps its default."""
        if release.bin_dir != procs.BIN:
            return None
        return {'api': {'api_workers': 1}}

    # -- the database, read directly --------------------------------------

    def row_versions(self):
        """{object name: {version column value: row count}}.

        Read with plain SQL, as an operator would check, independent of
        either release's code.  A table the schema does not have yet (the
        old release's schema) is left out.
        """
        engine = sa.create_engine(self.db_url)
        try:
            found = {}
            existing = set(sa.inspect(engine).get_table_names())
            with engine.connect() as conn:
                for name, table in sorted(OBJECT_TABLES.items()):
                    if table not in existing:
                        continue
                    rows = conn.execute(sa.text(
                        'SELECT version, COUNT(*) FROM %s GROUP BY version'
                        % table))
                    found[name] = {ver: count for ver, count in rows}
            return found
        finally:
            engine.dispose()

    # -- processes ------------------------------------------------------

    def dbsync(self, release, *args, check=True):
        config = self.config('dbsync', 'dbsync')
        return procs.run_command(release.command('ironic-dbsync'),
                                 '--config-file', config, *args, check=check)

    def status(self, release):
        config = self.config('status', 'status')
        return procs.run_command(release.command('ironic-status'),
                                 '--config-file', config, 'upgrade',
                                 'check', check=False)

    def start(self, label, kind, release, pin=None):
        if kind == 'api' and label not in self.api_ports:
            self.api_ports[label] = procs.free_port()
        if kind == 'conductor':
            extra = self.release_config.get(release.name)
        else:
            extra = self.api_release_options(release)
        config = self.config(label, kind, pin, extra)
        name = 'ironic-api' if kind == 'api' else 'ironic-conductor'
        service = procs.Service(name, config, self.workdir, label=label,
                                executable=release.command(name))
        self.services[label] = service
        self.layout[label] = (kind, release.name, pin)
        if kind == 'api':
            procs.wait_http(self.api_url(label) + '/v1', service)
        else:
            procs.wait_for(lambda: self._conductor_online(label, service),
                           what='%s registered' % label)
        return service

    def start_refused(self, label, kind, release, pin=None):
        """Start a process that must refuse to start (exit 1) at once;
        returns what it printed."""
        if kind == 'api' and label not in self.api_ports:
            self.api_ports[label] = procs.free_port()
        name = 'ironic-api' if kind == 'api' else 'ironic-conductor'
        result = procs.run_command(release.command(name), '--config-file',
                                   self.config(label, kind, pin),
                                   check=False)
        output = result.stdout + result.stderr
        assert result.returncode == 1, output
        assert 'Refusing to start %s %s' % (kind, label) in output, output
        return output

    def _conductor_online(self, label, service):
        # Every release logs this line once it has joined the hash ring.
        if not service.alive():
            raise AssertionError('%s died:\n%s' % (label, service.log()))
        return 'Conductor %s started' % self.conductor_host(label) in (
            service.log())

    def conductor_host(self, label):
        """The host name the conductor of ``label`` registers."""
        return label

    def stop(self, label):
        """Graceful stop; returns the exit code."""
        code = self.services[label].stop()
        assert code == 0, '%s exited %s:\n%s' % (
            label, code, self.services[label].log()[-8000:])
        return code

    def restart(self, label, release, pin=None):
        kind = self.layout[label][0]
        # A graceful stop takes the process out of the services table
        # before it exits (on a slow machine, seconds before): meanwhile
        # the auto-pinned services may already see it gone and uncap.
        # Its release is in force nowhere until the new one starts.
        self.layout[label] = (kind, STOPPING, None)
        self.stop(label)
        return self.start(label, kind, release, pin)

    def stop_all(self):
        """Stop every process, then delete the deployment's exchange and
        queues from the broker (reply queues expire by themselves)."""
        for label, service in list(self.services.items()):
            if service.alive():
                service.stop()
        self.clean_broker()

    def clean_broker(self):
        conductors = [lbl for lbl, (kind, _, _) in self.layout.items()
                      if kind == 'conductor']
        try:
            conftest.delete_from_broker(
                [self.exchange],
                [self.topic] + ['%s.%s' % (self.topic, c)
                                for c in conductors])
        except Exception:
            pass    # a broker outage must not hide the test's own result

    def api_labels(self):
        return sorted(lbl for lbl, (kind, _, _) in self.layout.items()
                      if kind == 'api')

    def api_url(self, label):
        return 'http://127.0.0.1:%d' % self.api_ports[label]

    def api_urls(self):
        return [self.api_url(lbl) for lbl in self.api_labels()]

    def describe(self):
        """'api-1=2.0, api-2=3.0(pin 2.0), ...' for the step table."""
        parts = []
        for label in sorted(self.layout):
            _, release, pin = self.layout[label]
            parts.append('%s=%s%s' % (label, release,
                                      '(pin %s)' % pin if pin else ''))
        return ', '.join(parts)


class JsonRpcDeployment(Deployment):
    """The same deployment with ``rpc_transport = json-rpc``: no broker.

    A conductor's host must be its address: each listens on 127.0.0.1 on
    a port of its own, and so registers as "127.0.0.1:<port>"
    (``rpc.set_conductor_host``).
    """

    def __init__(self, workdir, db_url, heartbeat_timeout=60, **kwargs):
        super().__init__(workdir, db_url, None, **kwargs)
        self.rpc_ports = {}     # conductor label -> JSON-RPC port
        self.heartbeat_timeout = heartbeat_timeout

    def values(self, label, kind, pin=None):
        values = super().values(label, kind, pin)
        for name in ('transport_url', 'control_exchange'):
            values['DEFAULT'].pop(name)
        values.pop('oslo_messaging_rabbit')
        values['DEFAULT']['rpc_transport'] = 'json-rpc'
        values['conductor']['heartbeat_timeout'] = self.heartbeat_timeout
        if kind == 'conductor':
            port = self.rpc_ports.setdefault(label, procs.free_port())
            values['DEFAULT']['host'] = '127.0.0.1'
            values['json_rpc'] = {'host_ip': '127.0.0.1', 'port': port}
        return values

    def conductor_host(self, label):
        return '127.0.0.1:%d' % self.rpc_ports[label]

    def clean_broker(self):
        pass    # there is none
