"""What a list page holds, in one short row: the version of a page.

A page of ports is the same page -- the same bytes, rendered at the same
microversion for the same URL -- as long as it holds the same rows and
none of them was written since.  PostgreSQL stamps every version of a
row with the transaction that wrote it (the ``xmin`` system column): an
UPDATE writes a new version with a new stamp, a deleted row leaves the
page, an inserted one enters it with its own.  The digest of the page's
(id, xmin) pairs, taken by the very query that reads the page (its
filters, sort and marker), therefore changes whenever anything the page
shows from its own table changes; what it shows from other tables must
never change (a port's node and port group UUIDs).

Only PostgreSQL has such a stamp: on other databases there is no
version (None), and the page is read in full as before.
"""

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql

from ironic_lite.db import api


def of_page(query, model, limit, marker, sort_key, sort_dir,
            ids_first=False):
    """'<rows>:<md5 of the ids and xmins>' of the page ``api.paginate``
    reads from ``query`` (the same arguments), or None when the session
    is not on PostgreSQL.  One statement, one row: the server hashes the
    page (about half a millisecond for 1,000 ports, 1.6 ms for those of
    a shard)."""
    if query.session.get_bind().dialect.name != 'postgresql':
        return None
    table = model.__table__
    stamp = sa.literal_column('%s.xmin' % table.name)
    if ids_first and limit:
        # As paginate: the page's ids from an index alone, then the
        # stamps of those rows (a walk of the shard's rows to sort them
        # took 11 ms).
        ids = api.paged(query.with_entities(model.id), model, limit,
                        marker, sort_key, sort_dir).subquery()
        page = (sa.select(table.c.id.label('id'), stamp.label('stamp'))
                .where(table.c.id == sa.any_(sa.func.array(
                    sa.select(ids.c.id).scalar_subquery())))
                .subquery())
    else:
        page = api.paged(query.with_entities(model.id.label('id'),
                                             stamp.label('stamp')),
                         model, limit, marker, sort_key, sort_dir).subquery()
    pair = (sa.cast(page.c.id, sa.Text) + sa.literal('.')
            + sa.cast(page.c.stamp, sa.Text))
    # Hashed in id order: the same rows in the same versions are the same
    # page, in the same order (the sort reads only what they hold).
    digest = sa.func.md5(sa.func.string_agg(
        pair, postgresql.aggregate_order_by(sa.literal(','), page.c.id)))
    rows, md5 = query.session.execute(
        sa.select(sa.func.count(), digest)).one()
    return '%d:%s' % (rows, md5 or '')
