"""The floor under a write: one bare RPC round trip and one database
commit, measured beside ironic-lite's writes in the same run.

    .venv/bin/python -m tools.benchmark.rpc_floor
    .venv/bin/python -m tools.benchmark.rpc_floor --calls 2000 --writes 400
    .venv/bin/python -m tools.benchmark.rpc_floor --transport json-rpc

A write through the API (node create, port create, node PATCH) cannot
take less than what it must do: the API's call to the conductor and its
reply, and the conductor's commit.  This tool measures those two alone,
with nothing of ironic-lite's services in the path:

* **RPC over RabbitMQ** (``--transport oslo``): an oslo.messaging RPC
  server in a separate process (threading executor, one endpoint that
  returns its argument) and a client here, calling it one call after
  another over the same RabbitMQ, on a topic unique to the run;
* **RPC over JSON-RPC** (``--transport json-rpc``): ironic-lite's own
  JSON-RPC server in a separate process, answering each call with its
  argument without any dispatcher, and its JSON-RPC client here (HTTP
  keep-alive over loopback, as between an API and a conductor);
* **commit**: one ``UPDATE`` of a one-row table and its ``COMMIT`` on
  PostgreSQL, through SQLAlchemy and psycopg2 as the services use them
  (a connection from the pool, as a conductor's write takes one);

and, per transport, the split layout (``ironic-api`` +
``ironic-conductor`` over that transport, on a fresh PostgreSQL database
with a small fleet): each write of ``write_profile.WRITES`` from one
client, and one node's GET (an API request with one read and no RPC,
which a write makes too and neither floor figure holds).  The echo
server, the commits and the services all run at once, and are measured
in ``--rounds`` rounds of each in turn: on a host whose speed drifts
over minutes (a shared virtual machine), floor and writes are timed
under the same conditions.  It prints the medians and each write's
ratio to its transport's floor (RPC + commit), and to the floor plus
that GET.  ``--transport both`` (the default) measures both in one run.

It is a tool for people, not a test: it asserts nothing about timings.
"""

import argparse
import os
import statistics
import subprocess
import sys
import time
import uuid

if __package__ in (None, ''):  # run as a file
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))))

from tools.benchmark import dataset  # noqa: E402
from tools.benchmark import measure  # noqa: E402
from tools.benchmark import services  # noqa: E402
from tools.benchmark import write_profile  # noqa: E402


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--calls', type=int, default=1000,
                        help='bare RPC calls and commits timed')
    parser.add_argument('--writes', type=int, default=300,
                        help='API requests timed per write')
    parser.add_argument('--nodes', type=int, default=500)
    parser.add_argument('--rounds', type=int, default=5,
                        help='rounds of floor and writes measured in turn')
    parser.add_argument('--transport', default='both',
                        choices=('oslo', 'json-rpc', 'both'))
    parser.add_argument('--serve', metavar='TOPIC',
                        help=argparse.SUPPRESS)  # the echo server's process
    parser.add_argument('--serve-json-rpc', action='store_true',
                        help=argparse.SUPPRESS)  # the same over JSON-RPC
    return parser.parse_args(argv)


def _transport():
    from oslo_config import cfg
    import oslo_messaging as messaging
    # The global configuration: oslo.messaging registers some of its
    # options (tracing) there only.
    cfg.CONF([], project='rpc-floor', default_config_files=[])
    return messaging.get_rpc_transport(cfg.CONF, url=services.RABBIT)


class _Echo(object):
    def echo(self, ctxt, value):
        return value


def serve(topic):
    """The echo server: until stdin closes (the parent went away)."""
    import oslo_messaging as messaging
    server = messaging.get_rpc_server(
        _transport(), messaging.Target(topic=topic, server='floor'),
        [_Echo()])
    server.start()
    print('ready', flush=True)
    sys.stdin.read()
    server.stop()
    server.wait()


def _json_rpc_conf(port=0):
    """ironic-lite's configuration object with ``[json_rpc]`` for a
    loopback server on ``port`` without authentication."""
    from oslo_messaging import opts

    from ironic_lite import conf
    for group, options in opts.list_opts():
        if group is None:  # the server's thread count is one of these
            conf.CONF.register_opts(options)
    conf.CONF([], project='rpc-floor', default_config_files=[])
    conf.CONF.set_override('auth_strategy', 'noauth', 'json_rpc')
    conf.CONF.set_override('host_ip', '127.0.0.1', 'json_rpc')
    conf.CONF.set_override('port', port, 'json_rpc')
    return conf.CONF


def serve_json_rpc():
    """The JSON-RPC echo server: prints its port, answers every call with
    its ``value`` until stdin closes."""
    from ironic_lite.common import json_rpc_server
    server = json_rpc_server.Server(
        _json_rpc_conf(), lambda ctxt, message: message['args']['value'])
    server.start()
    print('ready %s' % server.port, flush=True)
    sys.stdin.read()
    server.stop()
    server.wait()


class _Oslo(object):
    """An oslo.messaging client of the echo server (``--serve``)."""

    def __init__(self):
        import oslo_messaging as messaging
        self.topic = 'rpc-floor-%s' % uuid.uuid4().hex[:12]
        self.argv = ['--serve', self.topic]
        self.transport = _transport()
        self.client = messaging.get_rpc_client(
            self.transport,
            messaging.Target(topic=self.topic, server='floor'), timeout=30)

    def started(self, _ready_line):
        pass

    def call(self, payload):
        return self.client.call({}, 'echo', value=payload)

    def close(self):
        self.transport.cleanup()


class _JsonRpc(object):
    """ironic-lite's JSON-RPC client of the echo server
    (``--serve-json-rpc``)."""

    argv = ['--serve-json-rpc']

    def __init__(self):
        import oslo_messaging as messaging
        self.conf = _json_rpc_conf()
        self.serializer = messaging.NoOpSerializer()
        self.client = None

    def started(self, ready_line):
        from ironic_lite.common import json_rpc_client
        self.client = json_rpc_client.Client(
            self.conf, self.serializer, timeout=30,
            server='127.0.0.1:%s' % ready_line.split()[1])

    def call(self, payload):
        return self.client.call({}, 'echo', value=payload)

    def close(self):
        from ironic_lite.common import json_rpc_client
        json_rpc_client.POOLS.clear()


class _EchoClient(object):
    """An echo server in another process over ``transport`` and its
    client here, for as long as the ``with`` block lasts."""

    def __init__(self, transport):
        self.transport = transport

    def __enter__(self):
        self.rpc = _Oslo() if self.transport == 'oslo' else _JsonRpc()
        self.server = subprocess.Popen(
            [sys.executable, '-m', 'tools.benchmark.rpc_floor']
            + self.rpc.argv,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        try:
            ready = self.server.stdout.readline().strip()
            if not ready.startswith('ready'):
                raise RuntimeError('the echo server did not start')
            self.rpc.started(ready)
            self.payload = {'node': uuid.uuid4().hex,
                            'extra': {'k': 'v' * 64}}
            for _ in range(50):  # a warm-up that opens the connections
                if self.rpc.call(self.payload) != self.payload:
                    raise RuntimeError('the echo server answered otherwise')
        except BaseException:
            self.__exit__()
            raise
        return self

    def sample(self, calls):
        """Seconds of each of ``calls`` sequential calls."""
        times = []
        for _ in range(calls):
            start = time.perf_counter()
            self.rpc.call(self.payload)
            times.append(time.perf_counter() - start)
        return times

    def __exit__(self, *exc):
        self.server.stdin.close()
        self.server.wait(30)
        self.rpc.close()


class _Commits(object):
    """One-row UPDATE + COMMIT transactions on a database of their own,
    for as long as the ``with`` block lasts."""

    def __enter__(self):
        import sqlalchemy as sa
        self.db = dataset.Database('postgresql')
        self.engine = sa.create_engine(self.db.url)
        try:
            with self.engine.begin() as conn:
                conn.execute(sa.text('CREATE TABLE floor_probe '
                                     '(id integer PRIMARY KEY, n integer)'))
                conn.execute(sa.text('INSERT INTO floor_probe '
                                     'VALUES (1, 0)'))
            self.update = sa.text(
                'UPDATE floor_probe SET n = n + 1 WHERE id = 1')
            self.sample(50)  # warm-up
        except BaseException:
            self.__exit__()
            raise
        return self

    def sample(self, calls):
        """Seconds of each of ``calls`` transactions."""
        times = []
        for _ in range(calls):
            start = time.perf_counter()
            with self.engine.begin() as conn:
                conn.execute(self.update)
            times.append(time.perf_counter() - start)
        return times

    def __exit__(self, *exc):
        self.engine.dispose()
        self.db.drop()


# The read timed beside the writes: an API request with one database
# read and no RPC, the part of a write that neither floor figure holds.
READ = 'get-node'


def _ms(times):
    return statistics.median(times) * 1e3, measure.percentile(times, 90) * 1e3


TRANSPORTS = {'oslo': 'RabbitMQ', 'json-rpc': 'JSON-RPC'}


def measure_transport(transport, args):
    """(RPC figures, commit figures, {write: [seconds]}) of
    ``transport``: the echo server, the commits and the split layout
    (on a database of its own) all running, measured in ``args.rounds``
    rounds of each in turn -- a host whose speed drifts (a shared
    virtual machine) slows floor and writes alike."""
    rounds = max(1, args.rounds)
    rpc, commit = [], []
    found = {READ: []}
    found.update((write, []) for write in write_profile.WRITES)
    db = dataset.Database('postgresql')
    procs = []
    try:
        with _EchoClient(transport) as echo, _Commits() as commits:
            client, node = write_profile.start_split(db, args.nodes, procs,
                                                     transport)
            path = '/v1/nodes/%s' % node
            for _ in range(30):  # warm-up
                client.call('GET', path, version=measure.MICROVERSION)
                for write in write_profile.WRITES:
                    write_profile._send(client, write, node)
            for _ in range(rounds):
                rpc += echo.sample(args.calls // rounds)
                commit += commits.sample(args.calls // rounds)
                found[READ] += [
                    client.call('GET', path, version=measure.MICROVERSION)[0]
                    for _ in range(args.writes // rounds)]
                for write in sorted(write_profile.WRITES):
                    found[write] += [write_profile._send(client, write, node)
                                     for _ in range(args.writes // rounds)]
            client.close()
    finally:
        services.stop(procs)
        db.drop()
    return _ms(rpc), _ms(commit), found


def report(results):
    print('%-30s %9s %9s' % ('', 'median ms', 'p90 ms'))
    for transport, (rpc, commit, writes) in results:
        name = TRANSPORTS[transport]
        floor = rpc[0] + commit[0]
        print('%-30s %9.2f %9.2f' % (('RPC round trip (%s)' % name,) + rpc))
        print('%-30s %9.2f %9.2f' % (('PostgreSQL commit',) + commit))
        print('%-30s %9.2f' % ('floor (%s RPC + commit)' % name, floor))
        read = _ms(writes[READ])
        print('  %-28s %9.2f %9.2f   (an API request, no RPC)'
              % ((READ,) + read))
        for write, times in sorted(writes.items()):
            if write == READ:
                continue
            median, p90 = _ms(times)
            print('  %-28s %9.2f %9.2f   %.2f x floor, %.2f x (floor + %s)'
                  % (write, median, p90, median / floor,
                     median / (floor + read[0]), READ))


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.serve:
        serve(args.serve)
        return 0
    if args.serve_json_rpc:
        serve_json_rpc()
        return 0
    transports = (('oslo', 'json-rpc') if args.transport == 'both'
                  else (args.transport,))
    report([(transport, measure_transport(transport, args))
            for transport in transports])
    return 0


if __name__ == '__main__':
    sys.exit(main())
