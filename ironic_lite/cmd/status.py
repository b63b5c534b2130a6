"""ironic-status: ``ironic-status upgrade check`` (oslo.upgradecheck).

Exit codes are oslo.upgradecheck's: 0 all checks passed, 1 a warning
(e.g. online data migrations pending), 2 a failure (the upgrade must not
proceed), 255 a check could not run.
"""

import sys

from oslo_config import cfg
from oslo_upgradecheck import common_checks
from oslo_upgradecheck import upgradecheck

from ironic_lite.common import context as ir_context
from ironic_lite import conf
from ironic_lite.db import migration as db_migration
from ironic_lite import objects
from ironic_lite.objects import migrations as obj_migrations

CONF = conf.CONF
Code = upgradecheck.Code
Result = upgradecheck.Result


class Checks(upgradecheck.UpgradeCommands):
    """The checks an operator runs before (and after) upgrading."""

    def _check_object_versions(self):
        """Rows this release cannot read fail; pending migrations warn."""
        if not db_migration.has_tables():
            return Result(Code.SUCCESS, 'The database has no tables yet.')
        problems = obj_migrations.check_versions()
        if problems:
            return Result(Code.FAILURE, '\n'.join(
                problems + ['Run the previous release\'s "ironic-dbsync '
                            'online_data_migrations" until it completes.']))
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
        """The database must be at the migrations' head revision."""
        current, head = db_migration.version(), db_migration.head()
        if current != head:
            return Result(Code.FAILURE,
                          'The database schema is at revision %s, not %s; '
                          'run "ironic-dbsync upgrade".' % (current, head))
        return Result(Code.SUCCESS)

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

    _upgrade_checks = (
        ('Database schema', _check_schema),
        ('Object versions', _check_object_versions),
        ('Node shards', _check_shards),
        ('Policy File JSON to YAML Migration',
         (common_checks.check_policy_json, {'conf': CONF})),
    )


def main(argv=None):
    objects.register_all()
    return upgradecheck.main(
        CONF, project='ironic', upgrade_command=Checks(),
        argv=sys.argv[1:] if argv is None else argv)


if __name__ == '__main__':
    sys.exit(main())
