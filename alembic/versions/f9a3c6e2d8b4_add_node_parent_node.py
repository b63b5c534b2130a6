"""Release 6.0: nodes.parent_node, indexed (child nodes, API 1.83).

The node a child node belongs to (a UUID), or NULL for a top-level node.
Additive only: a nullable column, which the older services (whose model
has no ``parent_node``) never read nor write, and Ironic's index
``parent_node_idx`` (a parent's children; the node list's "no parent").

On PostgreSQL the index is built ``CONCURRENTLY``, outside the
migration's transaction, so that the running release keeps writing nodes
while it is built; a build interrupted half way leaves an invalid index,
which running the upgrade again rebuilds.  MySQL/MariaDB build it in
place without blocking writes.  Frozen: this SQL is the revision's own.

Revision ID: f9a3c6e2d8b4
Revises: e7c3a9d1b5f2
Create Date: 2026-11-29

"""

from alembic import op
import sqlalchemy as sa

# revision identifiers, used by Alembic.
revision = 'f9a3c6e2d8b4'
down_revision = 'e7c3a9d1b5f2'

INDEX = 'parent_node_idx'


def upgrade():
    bind = op.get_bind()
    # A run cut short on PostgreSQL has committed the column before the
    # index: running the upgrade again goes on from there.
    if 'parent_node' not in {c['name'] for c in
                             sa.inspect(bind).get_columns('nodes')}:
        op.add_column('nodes', sa.Column('parent_node', sa.String(36),
                                         nullable=True))
    if bind.dialect.name != 'postgresql':
        op.create_index(INDEX, 'nodes', ['parent_node'])
        return
    with op.get_context().autocommit_block():
        valid = op.get_bind().execute(sa.text(
            'SELECT i.indisvalid FROM pg_index i JOIN pg_class c '
            'ON c.oid = i.indexrelid WHERE c.relname = :name '
            'AND pg_catalog.pg_table_is_visible(c.oid)'),
            {'name': INDEX}).scalar()
        if valid is False:
            op.execute('REINDEX INDEX CONCURRENTLY %s' % INDEX)
        elif valid is None:
            op.create_index(INDEX, 'nodes', ['parent_node'],
                            postgresql_concurrently=True)
