"""Online data migrations and the database's object-version checks.

``ONLINE_MIGRATIONS`` is the list ``ironic-dbsync online_data_migrations``
runs, in order.  Each entry is ``(name, function)``; the function takes
``(context, max_count, **options)`` and returns ``(total, done)``: rows that
needed the migration when it started and rows it migrated now.  A migration
is idempotent and safe while services run; each batch commits on its own.
``update_to_latest_versions`` always runs last.
"""


from ironic_lite.common import release_mappings
from ironic_lite.db import migration as db_migration
from ironic_lite import objects


def _registered():
    objects.register_all()
    return {name: getattr(objects, name)
            for name in db_migration.object_tables()}


def update_to_latest_versions(context, max_count, **options):
    """Move every row of every object table to its object's VERSION.

    Only rows at a version this release reads (its own or the previous
    release's) move; the objects' conversions are additive, so moving a
    row is rewriting its version.  Rows at versions it cannot read are left
    for ``ironic-dbsync upgrade`` and ``ironic-status`` to report.
    """
    total = done = 0
    remaining = max_count
    readable = release_mappings.supported_object_versions()
    for name, cls in sorted(_registered().items()):
        model = db_migration.object_tables()[name]
        old = sorted(readable.get(name, set()) - {cls.VERSION})
        if max_count and remaining <= 0:
            # Count what is still left without migrating it.
            counts = db_migration.version_counts(model)
            total += sum(c for v, c in counts.items() if v in old)
            continue
        t, d = db_migration.bump_versions(model, old, cls.VERSION,
                                          remaining if max_count else None)
        total += t
        done += d
        if max_count:
            remaining -= d
    return total, done


ONLINE_MIGRATIONS = [
    # (name, function): "update_to_latest_versions" stays last.
    ('update_to_latest_versions', update_to_latest_versions),
]


def check_versions(own_release=None):
    """Find rows this release cannot read.

    :returns: a list of human-readable problems (empty when all is well).
    """
    if not db_migration.has_tables():
        return []
    supported = release_mappings.supported_object_versions(own_release)
    problems = []
    for name, model in sorted(db_migration.object_tables().items()):
        known = supported.get(name, set())
        for ver, count in sorted(db_migration.version_counts(model).items(),
                                 key=lambda kv: str(kv[0])):
            if ver not in known:
                problems.append(
                    '%d %s row(s) at version %s; this release reads %s'
                    % (count, name, ver, ', '.join(sorted(known)) or
                       'none'))
    return problems


def rows_not_at_latest():
    """{object name: count of rows not at the object's latest VERSION}."""
    pending = {}
    for name, cls in sorted(_registered().items()):
        counts = db_migration.version_counts(
            db_migration.object_tables()[name])
        behind = sum(c for v, c in counts.items() if v != cls.VERSION)
        if behind:
            pending[name] = behind
    return pending
