"""ironic-status: ``ironic-status upgrade check`` (oslo.upgradecheck).

Exit codes are oslo.upgradecheck's: 0 all checks passed, 1 a warning
(e.g. online data migrations pending), 2 a failure (the upgrade must not
proceed), 255 a check could not run.
"""

import sys
import textwrap

from oslo_upgradecheck import common_checks
from oslo_upgradecheck import upgradecheck
from oslo_utils import versionutils
import prettytable

from ironic_lite.api import microversions
from ironic_lite.common import config
from ironic_lite.common import context as ir_context
from ironic_lite.common import release_mappings
from ironic_lite.common import release_pin
from ironic_lite.common import upgrade_state
from ironic_lite import conf
from ironic_lite.conf import ironic_options
from ironic_lite.db import migration as db_migration
from ironic_lite.drivers import factory
from ironic_lite import objects
from ironic_lite.objects import migrations as obj_migrations
from ironic_lite import service_reporter
from ironic_lite import version

CONF = conf.CONF
Code = upgradecheck.Code
Result = upgradecheck.Result


# The width oslo.upgradecheck wraps the details of a result at.
DETAILS_WIDTH = 60


def wrap_details(details):
    """The details, wrapped line by line for the table.

    Each line is wrapped on its own; continuation lines are indented
    further than the line they continue.
    """
    if details is None:
        return None
    lines = []
    for line in details.splitlines():
        indent = line[:len(line) - len(line.lstrip())]
        lines.extend(textwrap.wrap(
            line, DETAILS_WIDTH, initial_indent='',
            subsequent_indent=indent + '    ',
            break_on_hyphens=False) or [''])
    return '\n'.join(lines)


def _table(title, results):
    """oslo.upgradecheck's table of (check name, Result), with the
    details laid out by ``wrap_details``."""
    table = prettytable.PrettyTable(
        [str(title)], hrules=prettytable.HRuleStyle.ALL, align='l')
    for name, result in results:
        table.add_row(['Check: %s\nResult: %s\nDetails: %s' % (
            name, upgradecheck.UPGRADE_CHECK_MSG_MAP[result.code],
            wrap_details(result.details))])
    return table


# The exit code when a check could not run (oslo.upgradecheck's).
CHECK_FAILED = 255


def _cause(err):
    """One line saying why a check could not run: no traceback, and no
    SQL statement (a database error's text can carry one)."""
    text = str(err).split('\n', 1)[0].split('[SQL:', 1)[0].strip()
    return '%s: %s' % (type(err).__name__, text or '(no message)')


def _json_requested():
    command = getattr(CONF, 'command', None)
    return bool(getattr(command, 'json', False))


def caps_lines(records):
    """What the deployment speaks: the caps of the oldest live service
    (its pin, else its release), and the services that are ``auto``."""
    if not records:
        return []
    lowest = min((upgrade_state.in_force(r) for r in records),
                 key=versionutils.convert_version_to_tuple)
    name = release_pin.release_for(lowest, version.RELEASE)
    entry = release_mappings.current_entry(name)
    objs = ', '.join('%s %s' % (obj, versions[0])
                     for obj, versions in sorted(entry['objects'].items()))
    auto = sorted('%s %s' % (r.service_type, r.name)
                  for r in records if r.auto)
    return ['In force (the oldest live service\'s): release %s, RPC %s, '
            'API up to %s; objects: %s.'
            % (name or version.RELEASE, entry['rpc'],
               entry.get('api', microversions.MAX_VERSION_STRING), objs),
            'pin_release_version = auto: %s.' % (', '.join(auto) or 'none')]


class Checks(upgradecheck.UpgradeCommands):
    """The checks an operator runs before (and after) upgrading."""

    def check(self):
        """Run the checks, print their table, return the worst code.

        oslo.upgradecheck's own table wraps the details as one paragraph,
        which folds a multi-line detail (one service per line) into a
        run-on paragraph, and it has no public hook for the layout: this
        overrides its public ``check`` and prints the same table with
        the details laid out line by line.  ``--json`` is the library's
        own output (the details unwrapped).
        """
        if _json_requested():
            return super().check()
        results, worst = [], Code.SUCCESS
        for name, check in self._upgrade_checks:
            func, kwargs = check if isinstance(check, tuple) else (check, {})
            try:
                result = func(self, **kwargs)
            except Exception as err:
                # oslo.upgradecheck would print a traceback and stop; an
                # unreachable database is a finding to report, like a bad
                # pin: the check's row says so and the others still run.
                result = Result(Code.FAILURE,
                                'The check could not run: %s' % _cause(err))
                worst = CHECK_FAILED
            results.append((name, result))
            worst = max(worst, result.code)
        print(_table(self.display_title, results))
        return worst

    def _check_pin(self):
        """The pin must name a release this code knows."""
        problem = config.pin_problem()
        if problem:
            return Result(Code.FAILURE, problem)
        if CONF.pin_release_version == release_mappings.AUTO:
            return Result(Code.SUCCESS, 'pin_release_version = auto: each '
                          'service follows the oldest live service (see '
                          'Upgrade state for what is in force).')
        return Result(Code.SUCCESS, 'Pinned to %s.' % CONF.pin_release_version
                      if CONF.pin_release_version else 'Not pinned.')

    def _check_object_versions(self):
        """Rows this release cannot read fail; pending migrations warn."""
        if not db_migration.has_tables():
            return Result(Code.SUCCESS, 'The database has no tables yet.')
        problems = obj_migrations.check_versions()
        if problems:
            return Result(Code.FAILURE, '\n'.join(
                problems + ['This release is rolled to from %s only: '
                            'run "ironic-dbsync online_data_migrations" '
                            'of the release the deployment runs until it '
                            'completes.' % ', '.join(
                                release_mappings.rolls_from())]))
        pending = obj_migrations.rows_not_at_latest()
        if pending:
            counts = ', '.join('%s: %d' % kv for kv in sorted(pending.items()))
            return Result(Code.WARNING,
                          'Rows not at the latest object version (%s); run '
                          '"ironic-dbsync online_data_migrations" once '
                          'every service runs this release unpinned.'
                          % counts)
        return Result(Code.SUCCESS)

    def _check_schema(self):
        """The database at the migrations' head revision passes.

        An older revision of this code's migrations is a schema upgrade
        still to run, step 0 of a rolling upgrade (the old services run
        on it meanwhile): a warning.  No schema at all, or a revision
        these migrations do not know (a newer release's), is a database
        this code cannot use: a failure.
        """
        current, head = db_migration.version(), db_migration.head()
        if current == head:
            return Result(Code.SUCCESS)
        if current is None:
            return Result(Code.FAILURE,
                          'The database has no schema; run "ironic-dbsync '
                          'upgrade".')
        if db_migration.unknown_revision():
            return Result(Code.FAILURE,
                          'The database schema is at revision %s, which '
                          'this release does not know (a newer '
                          'release\'s); use that release\'s commands.'
                          % current)
        return Result(Code.WARNING,
                      'The database schema is at revision %s, not %s: '
                      'run "ironic-dbsync upgrade" (step 2 of a rolling '
                      'upgrade; the services keep running).'
                      % (current, head))

    def _check_shards(self):
        """Warn when some nodes have a shard and others do not.

        Consumers that work by shard (a compute service, a network agent)
        would never see the unsharded nodes (the shard key spec asks for
        this check).
        """
        if db_migration.version() != db_migration.head():
            return Result(Code.SUCCESS, 'Skipped: the schema is not current.')
        shards = objects.Node.get_shard_list(
            ir_context.get_admin_context())
        unsharded = sum(s['count'] for s in shards if s['name'] is None)
        sharded = sum(s['count'] for s in shards if s['name'] is not None)
        if unsharded and sharded:
            return Result(Code.WARNING,
                          '%d node(s) have no shard while %d have one: '
                          'API consumers that work by shard will not see '
                          'the unsharded nodes. Set a shard on them with '
                          '"baremetal node set --shard <name>", or list '
                          'them with "baremetal node list --unsharded".'
                          % (unsharded, sharded))
        return Result(Code.SUCCESS)

    def _check_upgrade_state(self):
        """Which step of a rolling upgrade the deployment is in.

        From the services table (every live API and conductor with its
        release and pin) and the conductors table (conductors of releases
        that did not report).  Fails on an unsafe state, warns while an
        upgrade is under way, passes when none is.
        """
        if not db_migration.has_tables():
            return Result(Code.SUCCESS, 'The database has no tables yet.')
        schema_current = db_migration.version() == db_migration.head()
        records = service_reporter.deployment_records(
            ir_context.get_admin_context())
        pending = sum(obj_migrations.rows_not_at_latest().values()) \
            if schema_current else 0
        state = upgrade_state.assess(records, version.RELEASE,
                                     schema_current=schema_current,
                                     pending_rows=pending)
        lines = ['Step: %s.' % state.step,
                 'Next safe step: %s' % state.next_step]
        lines.extend('UNSAFE: %s' % p for p in state.problems)
        lines.extend('Note: %s' % n for n in state.notes)
        lines.append('Services alive (%d):' % len(records))
        lines.extend('  %s' % upgrade_state.describe(r)
                     for r in sorted(records))
        lines.extend(caps_lines(records))
        if state.problems:
            code = Code.FAILURE
        elif state.in_progress or state.notes:
            code = Code.WARNING
        else:
            code = Code.SUCCESS
        return Result(code, '\n'.join(lines))

    def _check_ironic_options(self):
        """Options of Ironic's that the configuration sets and ironic-lite
        does not implement (ignored): one per line."""
        lines = ironic_options.unimplemented(CONF)
        lines.extend('[DEFAULT]%s: %s' % (option, ', '.join(names))
                     for option, names in sorted(
                         factory.unimplemented_interfaces(True).items()))
        if not lines:
            return Result(Code.SUCCESS, 'Every option of Ironic\'s that '
                          'the configuration sets is implemented.')
        return Result(Code.WARNING, '\n'.join(
            ['Options of Ironic that ironic-lite does not implement, '
             'ignored:'] + ['  %s' % line for line in lines]))

    _upgrade_checks = (
        ('Release pin', _check_pin),
        ('Ironic options', _check_ironic_options),
        ('Database schema', _check_schema),
        ('Object versions', _check_object_versions),
        ('Node shards', _check_shards),
        ('Upgrade state', _check_upgrade_state),
        ('Policy File JSON to YAML Migration',
         (common_checks.check_policy_json, {'conf': CONF})),
    )


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv == ['--version']:
        # oslo.upgradecheck parses the command line itself, with no
        # version option: answer it as the other commands do.
        print(version.VERSION_STRING)
        return 0
    objects.register_all()
    return upgradecheck.main(
        CONF, project='ironic', upgrade_command=Checks(), argv=argv)


if __name__ == '__main__':
    sys.exit(main())
