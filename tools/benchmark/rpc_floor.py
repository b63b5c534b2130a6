"""The floor under a write: one bare RPC round trip and one database
commit, measured beside ironic-lite's writes in the same run.

    .venv/bin/python -m tools.benchmark.rpc_floor
    .venv/bin/python -m tools.benchmark.rpc_floor --calls 2000 --writes 400

A write through the API (node create, port create, node PATCH) cannot
take less than what it must do: the API's call to the conductor and its
reply over the broker, and the conductor's commit.  This tool measures
those two alone, with nothing of ironic-lite in the path:

* **RPC**: an oslo.messaging RPC server in a separate process (threading
  executor, one endpoint that returns its argument) and a client here,
  calling it one call after another over the same RabbitMQ, on a topic
  unique to the run;
* **commit**: one ``UPDATE`` of a one-row table and its ``COMMIT`` on
  PostgreSQL, through SQLAlchemy and psycopg2 as the services use them
  (a connection from the pool, as a conductor's write takes one);

then starts the split layout (``ironic-api`` + ``ironic-conductor`` over
that RabbitMQ, on a fresh PostgreSQL database with a small fleet) and
times each write of ``write_profile.WRITES`` from one client.  It prints
the medians and each write's ratio to the floor (RPC + commit).

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
    parser.add_argument('--serve', metavar='TOPIC',
                        help=argparse.SUPPRESS)  # the echo server's process
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


def rpc_round_trips(calls):
    """Seconds of each of ``calls`` sequential calls to a server in
    another process (after a warm-up that opens the connections)."""
    import oslo_messaging as messaging
    topic = 'rpc-floor-%s' % uuid.uuid4().hex[:12]
    server = subprocess.Popen(
        [sys.executable, '-m', 'tools.benchmark.rpc_floor', '--serve', topic],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    transport = _transport()
    try:
        if server.stdout.readline().strip() != 'ready':
            raise RuntimeError('the echo server did not start')
        client = messaging.get_rpc_client(
            transport, messaging.Target(topic=topic, server='floor'),
            timeout=30)
        payload = {'node': uuid.uuid4().hex, 'extra': {'k': 'v' * 64}}
        for _ in range(50):
            client.call({}, 'echo', value=payload)
        times = []
        for _ in range(calls):
            start = time.perf_counter()
            client.call({}, 'echo', value=payload)
            times.append(time.perf_counter() - start)
        return times
    finally:
        server.stdin.close()
        server.wait(30)
        transport.cleanup()


def commits(url, calls):
    """Seconds of each of ``calls`` one-row UPDATE + COMMIT transactions."""
    import sqlalchemy as sa
    engine = sa.create_engine(url)
    try:
        with engine.begin() as conn:
            conn.execute(sa.text('CREATE TABLE floor_probe '
                                 '(id integer PRIMARY KEY, n integer)'))
            conn.execute(sa.text('INSERT INTO floor_probe VALUES (1, 0)'))
        update = sa.text('UPDATE floor_probe SET n = n + 1 WHERE id = 1')
        times = []
        for number in range(calls + 50):
            start = time.perf_counter()
            with engine.begin() as conn:
                conn.execute(update)
            if number >= 50:
                times.append(time.perf_counter() - start)
        with engine.begin() as conn:
            conn.execute(sa.text('DROP TABLE floor_probe'))
        return times
    finally:
        engine.dispose()


def api_writes(db, args, procs):
    """{write: [seconds]} of each write of write_profile.WRITES."""
    client, node = write_profile.start_split(db, args.nodes, procs)
    found = {}
    for write in sorted(write_profile.WRITES):
        for _ in range(30):  # warm-up
            write_profile._send(client, write, node)
        found[write] = [write_profile._send(client, write, node)
                        for _ in range(args.writes)]
    client.close()
    return found


def _ms(times):
    return statistics.median(times) * 1e3, measure.percentile(times, 90) * 1e3


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.serve:
        serve(args.serve)
        return 0
    db = dataset.Database('postgresql')
    procs = []
    try:
        rpc = _ms(rpc_round_trips(args.calls))
        commit = _ms(commits(db.url, args.calls))
        floor = rpc[0] + commit[0]
        writes = api_writes(db, args, procs)
    finally:
        services.stop(procs)
        db.drop()
    print('%-28s %9s %9s' % ('', 'median ms', 'p90 ms'))
    print('%-28s %9.2f %9.2f' % (('RPC round trip (RabbitMQ)',) + rpc))
    print('%-28s %9.2f %9.2f' % (('PostgreSQL commit',) + commit))
    print('%-28s %9.2f' % ('floor (RPC + commit)', floor))
    for write, times in sorted(writes.items()):
        median, p90 = _ms(times)
        print('%-28s %9.2f %9.2f   %.2f x floor'
              % (write, median, p90, median / floor))
    return 0


if __name__ == '__main__':
    sys.exit(main())
