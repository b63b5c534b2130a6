"""A node's update on PostgreSQL in two Core statements (``db/plain_write``)
answers as the ORM's did: the same row written and returned, the same
refusals, no UPDATE when nothing changes, the update made under the
row's lock when another write came between the read and the write, and
the ORM still where the update needs it (history events, an instance
removed, a transaction block)."""

import threading

import datetime

import pytest
import sqlalchemy as sa

from ironic_lite.common import exception
from ironic_lite.db import api as db_api
from ironic_lite.db import models
from ironic_lite.db import node as db_node
from ironic_lite.db import port as db_port
from ironic_lite.db import portgroup as db_portgroup
from ironic_lite.db import plain_write


@pytest.fixture
def pg(postgresql_url, use_db):
    use_db(postgresql_url)
    rows = [db_node.create_node({'driver': 'fake-hardware', 'name': name,
                                 'extra': {'a': 1}, 'version': '1.5'})
            for name in ('n-1', 'n-2')]
    return [row.uuid for row in rows]


def _statements(autocommit=None):
    """The statements run (their first two words), and in ``autocommit``
    (a list), whether each ran in autocommit."""
    seen = []

    def record(conn, cursor, statement, params, context, many):
        words = statement.split()[:2]
        if words[0] == 'PREPARE':  # once per connection
            return
        # A prepared statement, by what it runs.
        seen.append(_prepared(words[1]) if words[0] == 'EXECUTE'
                    else ' '.join(words).upper())
        if autocommit is not None:
            autocommit.append(conn.connection.dbapi_connection.autocommit)
    engine = db_api.get_engine()
    sa.event.listen(engine, 'before_cursor_execute', record)
    return seen, lambda: sa.event.remove(engine, 'before_cursor_execute',
                                         record)


def _prepared(name):
    """'PREPARED <its first word>' of the prepared statement ``name``."""
    name = name.split('(')[0]
    sql = next(prepare for known, prepare, _run
               in plain_write.prepared._PREPARABLE.values() if known == name)
    return 'PREPARED ' + sql.split(' AS ', 1)[1].split()[0].upper()


def _columns(row):
    return {name: getattr(row, name) for name in models.Node.__table__.c.keys()
            if name not in ('id', 'uuid', 'name', 'created_at',
                            'updated_at', 'provision_updated_at')}


def _through_the_orm(monkeypatch):
    monkeypatch.setattr(plain_write, 'plain_update',
                        lambda values, history: False)


def test_the_same_row_as_the_orm_in_two_statements(pg, monkeypatch):
    values = {'extra': {'b': [1, 2]}, 'provision_state': 'manageable',
              'driver_info': {'x': 'y'}, 'maintenance': True,
              'version': '1.5'}
    autocommit = []
    seen, stop = _statements(autocommit)
    fast = db_node.update_node(pg[0], dict(values))
    stop()
    assert seen == ['PREPARED SELECT', 'PREPARED UPDATE']
    assert autocommit == [True, True]      # each its own transaction
    _through_the_orm(monkeypatch)
    slow = db_node.update_node(pg[1], dict(values))
    assert _columns(fast) == _columns(slow)
    # The state changed: both stamped it.
    assert fast.provision_updated_at and slow.provision_updated_at
    assert fast.updated_at is not None
    with db_api.reader() as session:
        stored = session.get(models.Node, fast.id)
        assert _columns(stored) == _columns(fast)
        assert stored.provision_updated_at == fast.provision_updated_at


def test_no_update_when_nothing_changes(pg):
    row = db_node.update_node(pg[0], {'extra': {'a': 2}})
    seen, stop = _statements()
    again = db_node.update_node(pg[0], {'extra': {'a': 2}})
    stop()
    assert seen == ['PREPARED SELECT']
    assert again.updated_at == row.updated_at


@pytest.mark.parametrize('orm', (False, True))
def test_the_same_refusals(pg, monkeypatch, orm):
    if orm:
        _through_the_orm(monkeypatch)
    with pytest.raises(exception.NodeNotFound):
        db_node.update_node('1be26c0b-03f2-4d2e-ae87-c02d7f33c123',
                            {'extra': {}})
    with pytest.raises(exception.DuplicateName):
        db_node.update_node(pg[0], {'name': 'n-2'})
    with pytest.raises(exception.ObjectVersionTooNew):
        db_node.update_node(pg[0], {'extra': {}}, known_version='1.4')
    reserved = db_node.reserve_node('host-a', pg[0])
    with pytest.raises(exception.NodeLocked):
        db_node.update_node(pg[0], {'extra': {}}, unlocked=lambda row: None)
    with pytest.raises(exception.NodeLockLost):
        db_node.update_node(pg[0], {'extra': {}},
                            fence=('host-a', 'another token'))
    held = db_node.update_node(
        pg[0], {'extra': {'held': 1}},
        fence=('host-a', reserved.reservation_token))
    assert held.extra == {'held': 1}
    # A refusal by the caller's check writes nothing.
    db_node.release_node('host-a', pg[0])

    def refuse(row):
        raise exception.InvalidState('no')
    with pytest.raises(exception.InvalidState):
        db_node.update_node(pg[0], {'extra': {'no': 1}}, unlocked=refuse)
    assert db_node.get_node_by_uuid(pg[0]).extra == {'held': 1}


def _write_meanwhile(uuid, extra):
    """Another writer's committed update of node ``uuid``."""
    table = models.Node.__table__
    with db_api.get_engine().begin() as conn:
        conn.execute(table.update().where(table.c.uuid == uuid)
                     .values(extra=extra))


def test_a_write_between_the_read_and_the_write_is_not_lost(pg):
    """The update is made only on the version of the row it checked:
    after another writer's update, it is checked and made again under
    the row's lock, from the values asked (not those a first check
    added)."""
    checked = []

    def unlocked(row):
        checked.append(dict(row.extra))
        if len(checked) == 1:
            _write_meanwhile(pg[0], {'other': 1})

    seen, stop = _statements()
    row = db_node.update_node(pg[0], {'name': 'renamed'}, unlocked=unlocked)
    stop()
    assert checked == [{'a': 1}, {'other': 1}]
    assert seen == ['PREPARED SELECT', 'UPDATE NODES', 'PREPARED UPDATE',
                    'SELECT NODES.ID,', 'UPDATE NODES']
    assert (row.name, row.extra) == ('renamed', {'other': 1})
    stored = db_node.get_node_by_uuid(pg[0])
    assert (stored.name, stored.extra) == ('renamed', {'other': 1})


def test_a_check_made_again_sees_what_was_written_meanwhile(pg):
    """A refusal the row written meanwhile calls for is made."""
    def unlocked(row):
        if row.extra == {'a': 1}:
            _write_meanwhile(pg[0], {'locked-out': True})
        elif row.extra.get('locked-out'):
            raise exception.InvalidState('no')

    with pytest.raises(exception.InvalidState):
        db_node.update_node(pg[0], {'extra': {'mine': 1}}, unlocked=unlocked)
    assert db_node.get_node_by_uuid(pg[0]).extra == {'locked-out': True}


@pytest.mark.parametrize('commit', (True, False))
def test_a_write_in_progress_is_waited_for(pg, commit):
    """Another transaction holding the row when the update comes: the
    update waits for it, and is made as read only if it wrote nothing
    (rolled back); else again under the lock."""
    table = models.Node.__table__
    holding, release = threading.Event(), threading.Event()

    def other():
        with db_api.get_engine().connect() as conn:
            trans = conn.begin()
            conn.execute(table.update().where(table.c.uuid == pg[0])
                         .values(extra={'other': 1}))
            holding.set()
            release.wait(30)
            trans.commit() if commit else trans.rollback()

    checks = []

    def unlocked(row):
        checks.append(dict(row.extra))
        if len(checks) == 1:
            thread.start()
            assert holding.wait(30)
            # The update below waits for the other transaction.
            threading.Timer(0.3, release.set).start()

    thread = threading.Thread(target=other)
    row = db_node.update_node(pg[0], {'name': 'mine'}, unlocked=unlocked)
    thread.join(30)
    expected_extra = {'other': 1} if commit else {'a': 1}
    assert checks == ([{'a': 1}, {'other': 1}] if commit else [{'a': 1}])
    assert (row.name, row.extra) == ('mine', expected_extra)


def test_an_update_whose_prepared_statement_is_gone(pg, monkeypatch):
    """A pooler that gave the update another server connection than the
    one it was prepared on: the update is made as text, once, and the
    process prepares no more (``prepared.execute_with``)."""
    monkeypatch.setattr(plain_write.prepared._Preparing, 'on', True)
    db_node.update_node(pg[0], {'extra': {'b': 1}})  # prepared, both
    engine = db_api.get_engine()
    engine.dispose()
    with engine.connect() as conn:
        # Believed prepared on this connection, but not on its server.
        conn.connection.info[plain_write.prepared._PREPARED] = {
            name for name, prepare, _run
            in plain_write.prepared._PREPARABLE.values()
            if ' AS UPDATE ' in prepare}
    seen, stop = _statements()
    try:
        row = db_node.update_node(pg[0], {'extra': {'b': 2}})
    finally:
        stop()
    assert plain_write.prepared._Preparing.on is False
    # The read prepared, the update's EXECUTE refused, then made as text.
    assert seen == ['PREPARED SELECT', 'PREPARED UPDATE', 'UPDATE NODES']
    assert row.extra == {'b': 2}
    assert db_node.get_node_by_uuid(pg[0]).extra == {'b': 2}
    # The update's time is set as SQLAlchemy sets it (whole seconds).
    assert row.updated_at is not None and row.updated_at.microsecond == 0


def test_the_orm_where_the_update_needs_it(pg):
    when = datetime.datetime(2026, 1, 1)
    assert plain_write.plain_update({'extra': {}}, None)
    assert not plain_write.plain_update({'extra': {}}, history=lambda r, v: [])
    assert not plain_write.plain_update({'instance_uuid': None}, None)
    assert not plain_write.plain_update({'traits': []}, None)
    with db_api.writer():
        assert not plain_write.plain_update({'extra': {}}, None)
        # Inside a block, the update joins its transaction (the ORM's).
        row = db_node.update_node(pg[0], {'provision_updated_at': when})
    assert row.provision_updated_at == when


def test_sqlite_keeps_the_orm(use_db, sqlite_url):
    use_db(sqlite_url)
    assert not plain_write.plain_update({'extra': {}}, None)


def _as_the_orm_writes(model, fast, values):
    """``fast`` (a row inserted by a Core statement) holds, stored and
    as returned, what the ORM's insert of ``values`` (another address
    and name) writes."""
    slow = db_api.create_row(model, dict(values), lambda err, v: None)
    with db_api.reader() as session:
        stored = {row.id: _all_columns(row, model)
                  for row in session.query(model)}
    assert stored[fast.id] == stored[slow.id] == _all_columns(fast, model)
    assert fast.created_at is not None


def _all_columns(row, model):
    return {name: getattr(row, name) for name in model.__table__.c.keys()
            if name not in ('id', 'uuid', 'name', 'address', 'created_at')}


@pytest.mark.parametrize('model, values', [
    (models.Node, {'driver': 'fake-hardware', 'version': '1.5'}),
    (models.Chassis, {'description': 'c', 'version': '1.0'}),
    (models.Port, {'address': '52:54:00:12:34:56', 'version': '1.1'}),
])
def test_an_insert_writes_what_the_orms_did(pg, monkeypatch, model, values):
    if model is models.Port:
        values = dict(values, node_id=db_node.get_node_by_uuid(pg[0]).id)
    autocommit = []
    seen, stop = _statements(autocommit)
    fast = db_api.create_row(model, dict(values), lambda err, v: None)
    stop()
    # One statement, its own transaction: no BEGIN, no COMMIT.
    assert seen == ['PREPARED INSERT'] and autocommit == [True]
    monkeypatch.setattr(plain_write, 'plain_create', lambda m, v: False)
    if model is models.Port:
        values['address'] = '52:54:00:12:34:57'
    _as_the_orm_writes(model, fast, values)


def test_an_insert_refused_as_before(pg):
    with pytest.raises(exception.DuplicateName):
        db_node.create_node({'driver': 'fake-hardware', 'name': 'n-1'})
    assert not plain_write.plain_create(models.Node, {'traits': []})
    with db_api.writer():
        assert not plain_write.plain_create(models.Node, {'name': 'x'})


def test_a_connection_used_in_autocommit_goes_back_as_it_came(pg):
    # The pool's connections after an insert in autocommit: a writer
    # block that fails still rolls back its work.
    for number in range(3):
        db_node.create_node({'driver': 'fake-hardware',
                             'name': 'extra-%d' % number})
    with pytest.raises(RuntimeError):
        with db_api.writer() as session:
            session.execute(sa.update(models.Node).where(
                models.Node.uuid == pg[0]).values(name='renamed'))
            raise RuntimeError('refused')
    assert db_node.get_node_by_uuid(pg[0]).name == 'n-1'


# -- a port's or port group's creation, unless its node is locked ---------

def _port_values(node_id, address='52:54:00:aa:bb:01'):
    return {'node_id': node_id, 'address': address, 'version': '1.1',
            'extra': {'k': [1]}, 'pxe_enabled': True,
            'local_link_connection': {'switch_id': 'x'}}


@pytest.mark.parametrize('model, values', [
    (models.Port, {}),
    (models.Portgroup, {'name': 'pg-1', 'address': '52:54:00:aa:bb:09',
                        'version': '1.1', 'mode': 'active-backup',
                        'properties': {'a': 1}}),
])
def test_a_child_created_in_one_statement_as_the_orm_did(pg, monkeypatch,
                                                         model, values):
    node = db_node.get_node_by_uuid(pg[0])
    values = dict(values or _port_values(node.id), node_id=node.id)
    create = (db_port.create_port_unless_node_locked if model is models.Port
              else db_portgroup.create_portgroup_unless_node_locked)
    autocommit = []
    seen, stop = _statements(autocommit)
    fast = create(dict(values))
    stop()
    # One statement, its own transaction, reading the node FOR SHARE.
    assert seen == ['PREPARED INSERT'] and autocommit == [True]
    monkeypatch.setattr(plain_write, 'plain_create', lambda m, v: False)
    assert create(dict(values)) is None       # not PostgreSQL: the caller's
    values.update(address='52:54:00:aa:bb:02',
                  **({'name': 'pg-2'} if model is models.Portgroup else {}))
    _as_the_orm_writes(model, fast, values)


def test_no_child_created_while_the_node_is_locked_or_gone(pg):
    node = db_node.get_node_by_uuid(pg[0])
    db_node.reserve_node('host-a', pg[0])
    assert db_port.create_port_unless_node_locked(
        _port_values(node.id)) is None
    db_node.release_node('host-a', pg[0])
    assert db_port.create_port_unless_node_locked(
        _port_values(node.id + 1000)) is None
    with db_api.reader() as session:
        assert session.query(models.Port).count() == 0
    row = db_port.create_port_unless_node_locked(_port_values(node.id))
    assert row.node_id == node.id
    with pytest.raises(exception.MACAlreadyExists):
        db_port.create_port_unless_node_locked(_port_values(node.id))


@pytest.mark.parametrize('commit', (True, False))
def test_a_lock_being_taken_is_waited_for(pg, commit):
    """A task taking the node's lock in a transaction not yet committed:
    the insert waits for it, and inserts nothing if it committed (the
    node is locked), the port if it rolled back."""
    node = db_node.get_node_by_uuid(pg[0])
    table = models.Node.__table__
    holding, release = threading.Event(), threading.Event()

    def other():
        with db_api.get_engine().connect() as conn:
            trans = conn.begin()
            conn.execute(table.update().where(table.c.id == node.id)
                         .values(reservation='host-b'))
            holding.set()
            release.wait(30)
            trans.commit() if commit else trans.rollback()

    thread = threading.Thread(target=other)
    thread.start()
    assert holding.wait(30)
    threading.Timer(0.3, release.set).start()
    row = db_port.create_port_unless_node_locked(_port_values(node.id))
    thread.join(30)
    assert (row is None) == commit
    with db_api.reader() as session:
        assert session.query(models.Port).count() == (0 if commit else 1)


# -- a node's update on the values another read (update_node_as_read) ------

def _as_read_update(uuid, values, as_read, known_version='1.5'):
    return db_node.update_node(uuid, dict(values), known_version,
                               unlocked=lambda row: None, as_read=as_read)


def test_an_update_on_the_values_read_is_one_statement(pg):
    autocommit = []
    seen, stop = _statements(autocommit)
    row = _as_read_update(pg[0], {'extra': {'b': 2}, 'maintenance': True},
                          {'extra': {'a': 1}, 'maintenance': False,
                           'provision_state': None, 'owner': None})
    stop()
    assert seen == ['PREPARED UPDATE'] and autocommit == [True]
    assert (row.extra, row.maintenance) == ({'b': 2}, True)
    assert row.updated_at is not None
    stored = db_node.get_node_by_uuid(pg[0])
    assert (stored.extra, stored.maintenance) == ({'b': 2}, True)


@pytest.mark.parametrize('why', ('value', 'reserved', 'version', 'gone'))
def test_an_update_on_values_no_longer_there_reads_the_row(pg, why):
    """The row differs from what the caller read (or is locked, newer
    than the writer knows, gone): nothing is written by the statement,
    and the update reads the row and decides on what it finds."""
    uuid, as_read = pg[0], {'extra': {'a': 1}}
    if why == 'value':
        _write_meanwhile(uuid, {'other': 1})
    elif why == 'reserved':
        db_node.reserve_node('host-a', uuid)
    elif why == 'gone':
        uuid = '1be26c0b-03f2-4d2e-ae87-c02d7f33c123'
    known = '1.4' if why == 'version' else '1.5'
    seen, stop = _statements()
    try:
        if why == 'value':
            row = _as_read_update(uuid, {'name': 'mine'}, as_read, known)
            assert (row.name, row.extra) == ('mine', {'other': 1})
        else:
            error = {'reserved': exception.NodeLocked,
                     'version': exception.ObjectVersionTooNew,
                     'gone': exception.NodeNotFound}[why]
            with pytest.raises(error):
                _as_read_update(uuid, {'name': 'mine'}, as_read, known)
    finally:
        stop()
    # The statement (not run at all for a version it cannot write), then
    # the row read.
    assert seen[-1 if why != 'value' else -2] == 'PREPARED SELECT', seen
    if why != 'version':
        assert seen[0] == 'PREPARED UPDATE', seen
    if why != 'value':
        assert db_node.get_node_by_uuid(pg[0]).name == 'n-1'


def test_an_update_on_the_values_read_refused_as_before(pg):
    with pytest.raises(exception.DuplicateName):
        _as_read_update(pg[0], {'name': 'n-2'}, {'name': 'n-1'})
    assert db_node.get_node_by_uuid(pg[0]).name == 'n-1'
    # Without a check of its own (``unlocked``: the API's update), the
    # update is the statement alone: a row that differs is not read, and
    # nothing is written.
    seen, stop = _statements()
    assert db_node.update_node(pg[0], {'extra': {'c': 1}}, '1.5',
                               as_read={'extra': {'z': 9}}) is None
    stop()
    assert seen == ['PREPARED UPDATE'], seen
    assert db_node.get_node_by_uuid(pg[0]).extra == {'a': 1}
    # On the values the row has, it is written, in that one statement.
    row = db_node.update_node(pg[0], {'extra': {'c': 1}}, '1.5',
                              as_read={'extra': {'a': 1}})
    assert row.extra == db_node.get_node_by_uuid(pg[0]).extra == {'c': 1}
    # A task's write (fenced) is never one on values as read.
    with pytest.raises(ValueError):
        db_node.update_node(pg[0], {'extra': {'c': 1}}, '1.5',
                            as_read={'extra': {}}, fence=('h', 't'))


def test_values_read_the_statement_cannot_compare_take_the_reading_path(pg):
    """A value as read that its column's type refuses (a list for a JSON
    dict column): the statement fails, nothing is written by it, and the
    update reads the row -- no error of the shortcut reaches the caller."""
    seen, stop = _statements()
    try:
        row = _as_read_update(pg[0], {'extra': {'b': 1}},
                              {'extra': ['not', 'a', 'dict']})
    finally:
        stop()
    assert row.extra == {'b': 1}
    assert seen[0] == 'PREPARED SELECT', seen
