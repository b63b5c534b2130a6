"""How long release 6.0's fill of the ports' and port groups' shard takes.

    .venv/bin/python -m tools.benchmark.fill --nodes 100000
    .venv/bin/python -m tools.benchmark.fill --reuse URL   # a --keep run's

Loads a fleet (2 ports per node, a port group per 10 nodes) into a fresh
PostgreSQL database, or takes one a ``--keep`` run of this tool or of
``shards.py`` left, then runs the fill of migration ``e7c3a9d1b5f2``
(the migration's own frozen code) as the migration does (a connection
in autocommit, a transaction per batch) and prints
the total time and the batches' median and longest: a batch is as long
as a write of the previous release's services may wait for it.

The loaded rows already carry their shard (the loader's inserts fired
the triggers).  The fill rewrites every row all the same, through the
same triggers and locks, so it costs what it costs after an upgrade from
5.0, except that ``(shard, id)`` is already indexed (the migration
builds those indexes after the fill; an unchanged key costs no index
write).

It is a tool for people, not a test: it asserts nothing about timings.
"""

import argparse
import json
import os
import statistics
import sys
import time

if __package__ in (None, ''):  # run as a file: tools/benchmark/fill.py
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))))

from alembic import config as alembic_config  # noqa: E402
from alembic import script as alembic_script  # noqa: E402
import sqlalchemy as sa  # noqa: E402

from ironic_lite.common import progress  # noqa: E402
from ironic_lite.db import migration  # noqa: E402
from tools.benchmark import dataset  # noqa: E402
from tools.benchmark import services  # noqa: E402


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--pg-server', default=dataset.PG_SERVER)
    parser.add_argument('--nodes', type=int, default=100000)
    parser.add_argument('--json', metavar='FILE', help='write results here')
    parser.add_argument('--keep', action='store_true',
                        help='keep the database at the end')
    parser.add_argument('--reuse', metavar='URL',
                        help='fill the database a --keep run left at URL')
    return parser.parse_args(argv)


def child_shards():
    """The module of the migration that fills the shard of ports."""
    config = alembic_config.Config()
    config.set_main_option('script_location', migration.script_location())
    return alembic_script.ScriptDirectory.from_config(config).get_revision(
        'e7c3a9d1b5f2').module


def timed_fill(url, revision):
    """Run the fill; returns (seconds, [seconds of each batch])."""
    batches = []
    fill_batch = revision._fill_batch

    def timed(*args, **kwargs):
        began = time.monotonic()
        try:
            return fill_batch(*args, **kwargs)
        finally:
            batches.append(time.monotonic() - began)

    engine = sa.create_engine(url, isolation_level='AUTOCOMMIT')
    revision._fill_batch = timed
    began = time.monotonic()
    try:
        with engine.connect() as conn:
            revision.fill(conn, progress=progress.Progress)
        return time.monotonic() - began, batches
    finally:
        revision._fill_batch = fill_batch
        engine.dispose()


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    db = dataset.Database('postgresql', args.pg_server, keep=args.keep,
                          url=args.reuse)
    try:
        config = services.write_config(
            os.path.join(db.tmpdir, 'ironic.conf'), db.url,
            services.free_port(), 'lite', 1)
        dataset.dbsync_upgrade(config)
        if args.reuse:
            counts = dataset.count_rows(db.url)
        else:
            counts, load_s = dataset.load(db.url, args.nodes)
            print('loaded in %.1f s' % load_s)
        revision = child_shards()
        total, batches = timed_fill(db.url, revision)
    finally:
        db.drop()
    result = {'counts': counts, 'batch_ids': revision.BATCH,
              'fill_seconds': round(total, 1), 'batches': len(batches),
              'batch_median_ms': round(statistics.median(batches) * 1e3, 1),
              'batch_max_ms': round(max(batches) * 1e3, 1)}
    print(', '.join('%d %s' % (n, t) for t, n in counts.items()))
    print('fill: %(fill_seconds).1f s in %(batches)d batches of '
          '%(batch_ids)d ids, median %(batch_median_ms).1f ms, longest '
          '%(batch_max_ms).1f ms' % result)
    if args.json:
        with open(args.json, 'w') as f:
            json.dump(result, f, indent=2)
    return 0


if __name__ == '__main__':
    sys.exit(main())
