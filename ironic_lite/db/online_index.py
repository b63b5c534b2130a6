"""Indexes the migrations build while the running release keeps writing.

On PostgreSQL an index is built ``CONCURRENTLY``, outside any
transaction (the caller runs in alembic's ``autocommit_block``): a plain
CREATE INDEX blocks writes to the table for the whole build.  Such a
build commits on its own, so a run of the upgrade stopped half way may
have built some indexes, and may have left one invalid (a concurrent
build interrupted; queries never use it).  Running the upgrade again
must finish the job rather than fail on them.
"""

import sqlalchemy as sa


def _valid(bind, name):
    """True/False: the index exists and is valid/invalid; None: absent."""
    return bind.execute(sa.text(
        'SELECT i.indisvalid FROM pg_index i JOIN pg_class c '
        'ON c.oid = i.indexrelid WHERE c.relname = :name '
        'AND pg_catalog.pg_table_is_visible(c.oid)'),
        {'name': name}).scalar()


def build_on_postgresql(op, name, table, columns, where):
    """Build the partial index ``name`` (``WHERE where``) concurrently,
    unless an earlier run built it; build an invalid one again."""
    valid = _valid(op.get_bind(), name)
    if valid:
        return
    if valid is False:
        op.execute('REINDEX INDEX CONCURRENTLY %s' % name)
        return
    op.create_index(name, table, columns, postgresql_where=sa.text(where),
                    postgresql_concurrently=True)
