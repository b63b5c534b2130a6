"""A node PATCH on PostgreSQL is one statement in the conductor: the
``expected`` values the API sends (the node as it read it) are the
condition of the UPDATE (``manager._as_read``), and the checks made on
them hold for the row written.  When the row is no longer as the API
read it, the conductor reads it and decides as before: the same
refusals, from what the row holds now."""

import threading

import oslo_messaging as messaging
import pytest
import sqlalchemy as sa

from ironic_lite.common import exception
from ironic_lite.db import api as db_api
from ironic_lite.db import prepared
from ironic_lite import objects


@pytest.fixture
def pg(postgresql_url, use_db, conf_fixture, conductor, context):
    use_db(postgresql_url)
    conf_fixture.config(node_locked_retry_attempts=0, group='conductor')
    node = objects.Node(context, driver='fake-hardware',
                        provision_state='enroll', extra={'a': 1})
    node.create(context)
    return conductor.manager, objects.Node.get(context, node.uuid)


def _statements():
    """The statements this thread runs (not the conductor's heartbeat): a
    prepared one as what it runs ('EXECUTE UPDATE'), its PREPARE left
    out."""
    seen, mine = [], threading.get_ident()

    def record(conn, cursor, statement, params, ctx, many):
        if threading.get_ident() != mine:
            return
        words = statement.split()
        if words[0] == 'PREPARE':
            return
        if words[0] == 'EXECUTE':
            name = words[1].split('(')[0]
            sql = next(prepare for known, prepare, _run
                       in prepared._PREPARABLE.values() if known == name)
            words = ['EXECUTE', sql.split(' AS ', 1)[1].split()[0]]
        seen.append(' '.join(words[:2]).upper())
    engine = db_api.get_engine()
    sa.event.listen(engine, 'before_cursor_execute', record)
    return seen, lambda: sa.event.remove(engine, 'before_cursor_execute',
                                         record)


def _patch(context, node, **changes):
    """The node as the API read it, with ``changes``: (it, expected)."""
    read = objects.Node.get(context, node.uuid)
    expected = {name: getattr(read, name) for name in changes}
    for name, value in changes.items():
        setattr(read, name, value)
    return read, expected


def _refusal(call):
    with pytest.raises(messaging.ExpectedException) as err:
        call()
    return err.value.exc_info[1]


def test_a_patch_is_one_statement(pg, context):
    manager, node = pg
    read, expected = _patch(context, node, extra={'b': 2},
                            description='d')
    seen, stop = _statements()
    try:
        saved = manager.update_node(context, read, expected=expected)
    finally:
        stop()
    assert seen == ['EXECUTE UPDATE'], seen
    assert (saved.extra, saved.description) == ({'b': 2}, 'd')
    stored = objects.Node.get(context, node.uuid)
    assert (stored.extra, stored.description) == ({'b': 2}, 'd')
    assert stored.updated_at is not None


def test_a_patch_on_a_node_changed_since_the_read_is_409(pg, context):
    manager, node = pg
    read, expected = _patch(context, node, extra={'b': 2})
    other, other_expected = _patch(context, node, extra={'c': 3})
    manager.update_node(context, other, expected=other_expected)
    err = _refusal(lambda: manager.update_node(context, read,
                                               expected=expected))
    assert isinstance(err, exception.NodeChanged)
    assert objects.Node.get(context, node.uuid).extra == {'c': 3}


def test_a_patch_of_a_locked_node_is_409(pg, context):
    manager, node = pg
    read, expected = _patch(context, node, extra={'b': 2})
    objects.Node.reserve(context, 'host-b', node.id)
    err = _refusal(lambda: manager.update_node(context, read,
                                               expected=expected))
    assert isinstance(err, exception.NodeLocked)
    assert objects.Node.get(context, node.uuid).extra == {'a': 1}


def test_a_flag_checked_on_the_state_the_row_has_now(pg, context):
    """``protected`` is refused in the state the API read (enroll) -- but
    the node became active since: the conductor reads the row and lets
    it through, as it did before."""
    manager, node = pg
    read, expected = _patch(context, node, protected=True)
    now = objects.Node.get(context, node.uuid)
    now.provision_state = 'active'
    now.save(context)
    saved = manager.update_node(context, read, expected=expected)
    assert saved.protected is True
    # And refused where the row's state refuses it.
    now.provision_state = 'enroll'
    now.protected = False
    now.save(context)
    read, expected = _patch(context, node, protected=True)
    err = _refusal(lambda: manager.update_node(context, read,
                                               expected=expected))
    assert isinstance(err, exception.InvalidState)


def test_a_patch_that_changes_nothing_writes_nothing(pg, context):
    manager, node = pg
    before = objects.Node.get(context, node.uuid)
    read, expected = _patch(context, node, extra={'a': 1})
    seen, stop = _statements()
    try:
        saved = manager.update_node(context, read, expected=expected)
    finally:
        stop()
    assert seen == ['EXECUTE SELECT'], seen  # read, nothing to write
    assert saved.updated_at == before.updated_at
