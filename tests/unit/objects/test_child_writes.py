"""A port group's creation written by the API as under its node's lock:
tried again while a task holds the lock, refused (nothing written) when
it keeps it, and written from a copy of the object on each attempt."""

import threading

import pytest

from ironic_lite.common import exception
from ironic_lite import objects
from ironic_lite.objects import child_writes

objects.register_all()


@pytest.fixture
def node(sqlite_db):
    node = objects.Node(None, driver='fake-hardware', name='n-1')
    node.create()
    return node


def _group(node, name):
    return objects.Portgroup(None, node_id=node.id, name=name,
                             address='52:54:00:00:00:01',
                             mode='active-backup',
                             standalone_ports_supported=True)


def _names(node):
    return sorted(g.name for g in objects.Portgroup.list_by_node_id(
        None, node.id))


def test_written_when_no_task_holds_the_node(node):
    group = _group(node, 'pg-1')
    written = child_writes.write_here(None, group, 'create')
    assert written.id is not None and written.name == 'pg-1'
    # The object as received is left as it was (a copy is written): an
    # attempt run again after a failed commit starts from what was sent.
    assert not group.obj_attr_is_set('id')
    assert _names(node) == ['pg-1']


def test_refused_while_a_task_keeps_the_lock(node, conf_fixture):
    conf_fixture.config(node_locked_retry_attempts=2,
                        node_locked_retry_interval=0.01, group='conductor')
    objects.Node.reserve(None, 'other-host', node.uuid)
    with pytest.raises(exception.NodeLocked) as err:
        child_writes.write_here(None, _group(node, 'pg-1'), 'create')
    assert 'other-host' in str(err.value)
    assert _names(node) == []


def test_written_once_the_task_lets_the_node_go(node, conf_fixture,
                                                monkeypatch):
    # Enough attempts that only a hang runs out of them (a busy machine
    # may be slow to run the thread that lets the node go).
    conf_fixture.config(node_locked_retry_attempts=1200,
                        node_locked_retry_interval=0.05, group='conductor')
    objects.Node.reserve(None, 'other-host', node.uuid)
    tried = threading.Event()
    real = objects.Node.write_unless_locked

    def watched(context, node_id, write):
        tried.set()
        return real(context, node_id, write)
    release = threading.Thread(target=lambda: (
        tried.wait(30),
        objects.Node.release(None, 'other-host', node.uuid)))
    monkeypatch.setattr(objects.Node, 'write_unless_locked',
                        staticmethod(watched))
    release.start()
    try:
        written = child_writes.write_here(None, _group(node, 'pg-1'),
                                          'create')
    finally:
        release.join(30)
    assert written.name == 'pg-1'
    assert _names(node) == ['pg-1']
