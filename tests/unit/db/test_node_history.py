"""Node history rows on every backend (db/node_history.py): an event
written in a node update's transaction (a bad one rolled back to its
savepoint, the update kept; a fenced update that fails writes none), and
a node's deletion taking its rows."""

import pytest

from ironic_lite.common import exception
from ironic_lite.db import bios as db_bios
from ironic_lite.db import node as db_node
from ironic_lite.db import node_history as db_history


def _node():
    return db_node.create_node({'driver': 'fake-hardware'})


def _event(node_id, uuid, text):
    return {'uuid': uuid, 'node_id': node_id, 'severity': 'ERROR',
            'event': text, 'event_type': 'cleaning', 'version': '1.0'}


UUID_A = '11111111-1111-4111-8111-111111111111'
UUID_B = '22222222-2222-4222-8222-222222222222'


def test_event_written_with_the_update(any_db):
    node = _node()
    db_node.update_node(node.id, {'last_error': 'boom'}, history=lambda row,
                        values: [_event(row.id, UUID_A, values['last_error'])])
    (event,) = db_history.get_node_history_by_node_id(node.id)
    assert (event.uuid, event.event) == (UUID_A, 'boom')


def test_a_bad_event_keeps_the_update(any_db):
    node = _node()
    db_node.update_node(node.id, {'last_error': 'first'},
                        history=lambda row, values: [
                            _event(row.id, UUID_A, 'first')])
    # A duplicate UUID: the event's insert fails, the update stays.
    db_node.update_node(node.id, {'last_error': 'second'},
                        history=lambda row, values: [
                            _event(row.id, UUID_A, 'second')])
    assert db_node.get_node_by_uuid(node.uuid).last_error == 'second'
    assert [e.event for e in
            db_history.get_node_history_by_node_id(node.id)] == ['first']


def test_a_fenced_update_that_fails_writes_no_event(any_db):
    node = _node()
    with pytest.raises(exception.NodeLockLost):
        db_node.update_node(node.id, {'last_error': 'late'},
                            fence=('host', 'token'),
                            history=lambda row, values: [
                                _event(row.id, UUID_B, 'late')])
    assert db_history.get_node_history_by_node_id(node.id) == []


def test_node_deletion_takes_its_rows(any_db):
    node = _node()
    db_bios.sync_bios_settings(node.id, [{'name': 'A', 'value': '1'}], '1.0')
    db_node.update_node(node.id, {'last_error': 'x'},
                        history=lambda row, values: [
                            _event(row.id, UUID_A, 'x')])
    db_node.destroy_node(node.uuid)
    assert db_bios.get_bios_setting_list(node.id) == []
    assert db_history.get_node_history_by_node_id(node.id) == []
