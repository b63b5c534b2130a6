"""ironic-dbsync: schema migrations and online data migrations.

Sub-commands (Ironic's names)::

    ironic-dbsync upgrade [--revision REV]
    ironic-dbsync version
    ironic-dbsync create_schema
    ironic-dbsync stamp REVISION
    ironic-dbsync revision [-m MESSAGE] [--autogenerate]
    ironic-dbsync online_data_migrations [--max-count N]
                                         [--option MIGRATION.KEY=VALUE ...]
    ironic-dbsync import-ironic --source-connection URL

Exit codes (see ``EXIT_CODES``): 0 done; 1 run again (online migrations
left work because of ``--max-count``) or a command failed; 2 the database
holds rows this release cannot read (``upgrade`` refuses); 3 an online data
migration raised an error (Ironic exits 1 for this too; a distinct code
lets a deployment tool tell "run again" from "broken"); 127 bad arguments.
"""

import argparse
import sys
import time

from oslo_config import cfg

from ironic_lite.common import config
from ironic_lite.common import interfaces
from ironic_lite.common import context as ir_context
from ironic_lite.common import progress as progress_lib
from ironic_lite.common import release_mappings
from ironic_lite import conf
from ironic_lite.db import ironic_import
from ironic_lite.db import migration as db_migration
from ironic_lite.objects import migrations as obj_migrations

CONF = conf.CONF

EXIT_OK = 0
EXIT_RUN_AGAIN = 1
EXIT_INCOMPATIBLE_DB = 2
EXIT_MIGRATION_ERROR = 3
EXIT_BAD_ARGS = 127

EXIT_CODES = """exit codes:
  0    done
  1    online_data_migrations: there is more to migrate (--max-count was
       reached); run the command again.  Other commands: the command failed.
  2    upgrade: the database holds object rows this release cannot read;
       run "ironic-dbsync online_data_migrations" of a release this one
       is rolled to from (skip-level upgrades included) first
  3    online_data_migrations: a migration raised an error
  127  invalid arguments
"""

# Batch size when --max-count is not given (Ironic's).
DEFAULT_BATCH = 50


def _positive_int(text):
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value <= 0:
        raise argparse.ArgumentTypeError(
            '--max-count must be a positive integer, not %r' % text)
    return value


def add_command_parsers(subparsers):
    """Register the sub-commands (the handler of the ``command`` opt)."""
    def add(name, func, help_text):
        parser = subparsers.add_parser(
            name, help=help_text, description=help_text, epilog=EXIT_CODES,
            formatter_class=argparse.RawDescriptionHelpFormatter)
        parser.set_defaults(func=func)
        return parser

    parser = add('upgrade', do_upgrade,
                 'Upgrade the database schema to the latest revision (or '
                 '--revision).  Refuses (exit 2) when rows are too old for '
                 'this release.')
    parser.add_argument('--revision', default='head')
    add('version', do_version, 'Print the current schema revision.')
    add('create_schema', do_create_schema,
        'Create the schema from the models on an empty database and stamp '
        'it at the latest revision.')
    parser = add('stamp', do_stamp,
                 'Mark the database as being at REVISION without migrating.')
    parser.add_argument('revision')
    parser = add('revision', do_revision,
                 'Create a new migration script (for developers).')
    parser.add_argument('-m', '--message')
    parser.add_argument('--autogenerate', action='store_true')
    parser = add('online_data_migrations', do_online_data_migrations,
                 'Run the online data migrations in batches; each batch '
                 'commits on its own and is safe while services run.')
    parser.add_argument(
        '--max-count', metavar='N', type=_positive_int,
        help='Migrate at most N rows, then exit 1 if more are left.  '
             'Without it, batches of %d run until all is done.'
             % DEFAULT_BATCH)
    parser.add_argument(
        '--option', metavar='MIGRATION.KEY=VALUE', action='append',
        default=[], help='An option for one migration; may be repeated.')
    parser = add('import-ironic', do_import_ironic,
                 'Copy an OpenStack Ironic database (left untouched) into '
                 'this empty ironic-lite database, after "upgrade", in one '
                 'transaction; print what was imported and what was not.  '
                 'Exit 1 when refused or failed (nothing written).')
    parser.add_argument(
        '--source-connection', metavar='URL', required=True,
        help="Ironic's [database]connection, e.g. "
             'mysql+pymysql://ironic:PASSWORD@HOST/ironic')


command_opt = cfg.SubCommandOpt('command', title='Command',
                                help='Available commands',
                                handler=add_command_parsers)


# -- schema commands ----------------------------------------------------------

def do_upgrade():
    unknown = db_migration.unknown_revision()
    if unknown:
        print('ERROR: the database schema is at revision %s, which this '
              'release does not know: it was upgraded by a newer release. '
              'Run the newer release\'s ironic-dbsync instead.' % unknown,
              file=sys.stderr)
        return EXIT_INCOMPATIBLE_DB
    problems = obj_migrations.check_versions()
    if problems:
        print('The database is not compatible with this release:')
        for problem in problems:
            print('  - %s' % problem)
        print('This release is rolled to from release(s) %s only. Run '
              '"ironic-dbsync online_data_migrations" with the code of the '
              'release the deployment runs until it completes (upgrading '
              'to one of those releases first if it is older), then run '
              'this upgrade again.'
              % ', '.join(release_mappings.rolls_from()))
        return EXIT_INCOMPATIBLE_DB
    db_migration.upgrade(CONF.command.revision)
    return EXIT_OK


def do_version():
    print(db_migration.version())
    return EXIT_OK


def do_create_schema():
    try:
        db_migration.create_schema()
    except RuntimeError as err:
        print('ERROR: %s' % err, file=sys.stderr)
        return 1
    return EXIT_OK


def do_stamp():
    db_migration.stamp(CONF.command.revision)
    return EXIT_OK


def do_revision():
    db_migration.revision(message=CONF.command.message,
                          autogenerate=CONF.command.autogenerate)
    return EXIT_OK


# -- online data migrations ---------------------------------------------------

def parse_migration_options(values):
    """['name.key=value', ...] -> {name: {key: value}}; ValueError if bad."""
    known = {name for name, _func in obj_migrations.ONLINE_MIGRATIONS}
    options = {}
    for value in values:
        name_key, sep, val = value.partition('=')
        name, dot, key = name_key.partition('.')
        if not (sep and dot and name and key):
            raise ValueError('--option %r is not MIGRATION.KEY=VALUE'
                             % value)
        if name not in known:
            raise ValueError('--option %r: no migration named %r (known: %s)'
                             % (value, name, ', '.join(sorted(known))))
        options.setdefault(name, {})[key] = val
    return options


class Progress(object):
    """Per-migration totals of a run, and the progress lines it prints.

    ``total`` is what a migration needed when the run first called it;
    ``done`` sums its batches; ``errors`` counts the batches that raised.
    When standard error is a terminal, a bar there tells the rows done of
    all the migrations (common/progress.py), and the batch lines are
    printed only when standard output is not that terminal too.
    """

    def __init__(self, out=None, err=None):
        self.out = out or sys.stdout
        self.started = time.monotonic()
        self.rows = {}
        err = err or sys.stderr
        self.bar = None
        if progress_lib.is_terminal(err):
            self.bar = progress_lib.Progress('online_data_migrations', 0,
                                             stream=err)
        self.lines = self.bar is None or not progress_lib.is_terminal(
            self.out)

    def entry(self, name):
        return self.rows.setdefault(name, {'total': None, 'done': 0,
                                           'errors': 0})

    def record(self, batch, name, total, done):
        entry = self.entry(name)
        if entry['total'] is None:
            entry['total'] = total
        entry['done'] += done
        entry['last'] = (total, done)
        if self.bar is not None:
            self.bar.total = sum(e['total'] or 0 for e in self.rows.values())
            self.bar.add(done)
        if not self.lines:
            return
        elapsed = max(time.monotonic() - self.started, 1e-6)
        print('batch %d: %s: %d/%d migrated (%.0f rows/s)'
              % (batch, name, entry['done'], entry['total'],
                 entry['done'] / elapsed), file=self.out, flush=True)

    def error(self, name):
        self.entry(name)['errors'] += 1

    def left(self):
        """Whether the last batch left rows behind (counted by each
        migration's own last call: rows another run migrated meanwhile
        are not left)."""
        return any(e.get('last', (0, 0))[0] > e.get('last', (0, 0))[1]
                   for e in self.rows.values())

    def print_summary(self):
        if self.bar is not None:
            self.bar.finish()
        names = list(self.rows)
        width = max([len('Migration')] + [len(n) for n in names])
        line = '+-%s-+-%s-+-%s-+-%s-+' % ('-' * width, '-' * 12, '-' * 9,
                                          '-' * 6)
        print(line, file=self.out)
        print('| %-*s | %12s | %9s | %6s |' % (
            width, 'Migration', 'Total Needed', 'Completed', 'Errors'),
            file=self.out)
        print(line, file=self.out)
        for name in names:
            e = self.rows[name]
            print('| %-*s | %12d | %9d | %6d |' % (
                width, name, e['total'] or 0, e['done'], e['errors']),
                file=self.out)
        print(line, file=self.out)


def run_batch(context, max_count, options, progress, batch=1):
    """Run the migrations in order, migrating at most ``max_count`` rows.

    :returns: (batch_full, error): whether ``max_count`` was reached, and
        (name, exception) of a migration that raised, or None.
    """
    migrated = 0
    for name, func in obj_migrations.ONLINE_MIGRATIONS:
        try:
            total, done = func(context, max_count - migrated,
                               **options.get(name, {}))
        except Exception as err:  # reported, exit code 3
            progress.error(name)
            return False, (name, err)
        progress.record(batch, name, total, done)
        migrated += done
        if migrated >= max_count:
            return True, None
    return False, None


def run_online_data_migrations(context, max_count, options):
    """Batches until done (or one batch of ``max_count``); the exit code."""
    progress = Progress()
    size = max_count or DEFAULT_BATCH
    if not max_count:
        print('Running batches of %d until the migrations have completed.'
              % size)
    batch = 0
    while True:
        batch += 1
        full, error = run_batch(context, size, options, progress, batch)
        if error or max_count or not full:
            break
    if not (error or full) and progress.left():
        # Rows counted but not migrated by this run: another run (a
        # second operator, a deployment tool) migrated them meanwhile.
        # One more batch tells whether any are really left.
        full, error = run_batch(context, size, options, progress,
                                batch + 1)
    progress.print_summary()
    if error:
        print('ERROR: online data migration %s failed: %s'
              % (error[0], error[1]), file=sys.stderr)
        return EXIT_MIGRATION_ERROR
    if full or progress.left():
        print('There are more objects to migrate; run this command again.')
        return EXIT_RUN_AGAIN
    print('Data migrations have completed.')
    return EXIT_OK


def do_online_data_migrations():
    try:
        options = parse_migration_options(CONF.command.option)
    except ValueError as err:
        print('ERROR: %s' % err, file=sys.stderr)
        return EXIT_BAD_ARGS
    return run_online_data_migrations(ir_context.get_admin_context(),
                                      CONF.command.max_count, options)


# -- moving from Ironic -------------------------------------------------------

def enabled_values():
    """{node column: enabled values}: what the import reports nodes
    against (what the conductor will load, as it reads the options)."""
    # Here, not at the top: the other sub-commands need no driver.
    from ironic_lite.drivers import factory
    enabled = {'driver': {n for n in CONF.enabled_hardware_types
                          if n in factory.HARDWARE_TYPES}}
    for iface in interfaces.ALL_INTERFACES:
        enabled['%s_interface' % iface] = set(
            factory.enabled_interfaces(iface))
    return enabled


def do_import_ironic():
    try:
        report = ironic_import.import_database(
            CONF.command.source_connection, enabled_values())
    except ironic_import.Refused as err:
        print('ERROR: nothing imported: %s' % err, file=sys.stderr)
        return 1
    except ironic_import.Failed as err:
        print('ERROR: the import failed and was rolled back, nothing is '
              'imported: %s' % err, file=sys.stderr)
        return 1
    for line in report.lines():
        print(line)
    return EXIT_OK


# -- entry point --------------------------------------------------------------

def _parse(argv):
    """Parse the command line; an exit code on bad arguments, else None."""
    try:
        config.parse_args(argv, prog='ironic-dbsync')
    except SystemExit as exit_:
        if exit_.code in (0, None):  # --help
            return EXIT_OK
        if not isinstance(exit_.code, int):
            print(exit_.code, file=sys.stderr)
        return EXIT_BAD_ARGS
    except cfg.Error as err:
        print('ERROR: %s' % err, file=sys.stderr)
        return EXIT_BAD_ARGS
    return None


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if command_opt.name not in CONF:
        CONF.register_cli_opt(command_opt)
    code = _parse(argv)
    if code is not None:
        return code
    return CONF.command.func()


if __name__ == '__main__':
    sys.exit(main())
