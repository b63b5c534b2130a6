"""Node history recorded by the conductor (release 5.0): every error and
provision state change of a node, through its one save path, in the
save's own transaction; and the periodic cleanup."""

from oslo_utils import timeutils
import pytest

from ironic_lite.common import context as ir_context
from ironic_lite.common import exception
from ironic_lite.conductor import node_history
from ironic_lite.conductor import task_manager
from ironic_lite.db import api as db_api
from ironic_lite.db import models
from ironic_lite import objects
from tests.unit.conductor import conftest


def _events(context, node):
    return objects.NodeHistory.list_by_node_id(context, node.id)


def test_a_failed_and_a_good_manual_clean(rpc_api, context, make_node,
                                          wait_node):
    node = make_node(provision_state='manageable', bios_interface='fake')
    user = ir_context.RequestContext(user_id='alice', project_id='p',
                                     is_admin=True, roles=['admin'],
                                     system_scope='all')
    bad = {'interface': 'bios', 'step': 'apply_configuration',
           'args': {'settings': 'bad'}}
    rpc_api.do_node_clean(user, node, [bad])
    failed = wait_node(node.uuid, 'clean failed')
    events = _events(context, node)
    assert [(e.severity, e.event_type) for e in events] == [
        ('INFO', 'cleaning'), ('ERROR', 'cleaning')]
    assert events[0].event == ('Provision state changed from manageable '
                               'to cleaning (target: manageable)')
    assert events[1].event == failed.last_error
    assert {e.conductor for e in events} == {conftest.HOST}
    assert {e.user for e in events} == {'alice'}
    # A good cleaning (another node: a failed step leaves the first in
    # maintenance): two state changes, no error.
    good = make_node(provision_state='manageable', bios_interface='fake')
    rpc_api.do_node_clean(context, good,
                          [{'interface': 'bios', 'step': 'factory_reset'}])
    wait_node(good.uuid, 'manageable', target_provision_state=None)
    events = _events(context, good)
    assert [(e.severity, e.event_type, e.user) for e in events] == [
        ('INFO', 'cleaning', None), ('INFO', 'cleaning', None)]
    assert events[-1].event == ('Provision state changed from cleaning to '
                                'manageable')


def test_power_failure_is_a_power_error(context, make_node, rpc_api,
                                        wait_node, monkeypatch):
    from ironic_lite.drivers import fake_hardware

    def broken(self, task, state, timeout=None):
        raise exception.IronicException('no power')
    monkeypatch.setattr(fake_hardware.FakePower, 'set_power_state', broken)
    node = make_node(provision_state='manageable', power_state='power off')
    rpc_api.change_node_power_state(context, node, 'power on')
    conftest.wait_for(lambda: _events(context, node), what='an event')
    event = _events(context, node)[0]
    assert (event.severity, event.event_type) == ('ERROR', 'power')
    assert 'no power' in event.event


def test_a_save_that_lost_its_lock_records_nothing(context, make_node):
    node = make_node(provision_state='manageable')
    with task_manager.acquire(context, node.id) as task:
        objects.Node.release(context, conftest.HOST, node.uuid)
        task.node.last_error = 'too late'
        with pytest.raises(exception.NodeLockLost):
            task.node.save()
        task._locked = False
    assert _events(context, node) == []


def test_a_failed_event_insert_does_not_undo_the_change(context, make_node,
                                                        monkeypatch):
    from ironic_lite.objects import node_history as history_objects
    node = make_node(provision_state='manageable')
    real = history_objects.events_for_update

    def bad_events(n, row, values):
        return [dict(e, uuid=None) for e in real(n, row, values)]
    monkeypatch.setattr(history_objects, 'events_for_update', bad_events)
    node.last_error = 'recorded?'
    node.save()
    assert objects.Node.get_by_uuid(context, node.uuid).last_error == (
        'recorded?')
    assert _events(context, node) == []


def test_recording_can_be_turned_off_and_is_off_while_pinned(
        config, context, make_node):
    node = make_node(provision_state='manageable')
    config.set_override('node_history', False, group='conductor')
    node.last_error = 'one'
    node.save()
    config.set_override('node_history', True, group='conductor')
    config.set_override('pin_release_version', '4.0')
    node.last_error = 'two'
    node.save()
    config.clear_override('pin_release_version')
    node.last_error = 'three'
    node.save()
    assert [e.event for e in _events(context, node)] == ['three']


def test_same_error_again_is_not_a_new_event(context, make_node):
    node = make_node(provision_state='manageable')
    node.last_error = 'same'
    node.save()
    node.last_error = 'same'
    node.save()
    assert len(_events(context, node)) == 1


def _add(node_id, count, age_days=0):
    created = timeutils.utcnow().replace(microsecond=0)
    with db_api.writer() as session:
        for i in range(count):
            session.add(models.NodeHistory(
                uuid='00000000-0000-4000-8000-%012d' % (node_id * 1000 + i
                                                        + age_days * 100),
                node_id=node_id, severity='INFO', event='e%d' % i,
                created_at=created.replace(year=created.year - 1)
                if age_days else created, version='1.0'))


def test_cleanup_keeps_the_newest_max_entries(config, context, make_node,
                                              conductor):
    busy, quiet = make_node(), make_node()
    _add(busy.id, 3, age_days=400)
    _add(busy.id, 2)
    _add(quiet.id, 2)
    config.set_override('node_history_max_entries', 2, group='conductor')
    assert node_history.cleanup_node_history(context, conftest.HOST) == 3
    assert sorted(e.event for e in _events(context, busy)) == ['e0', 'e1']
    assert len(_events(context, quiet)) == 2


def test_cleanup_minimum_days_and_batch_count(config, context, make_node,
                                              conductor):
    node = make_node()
    _add(node.id, 3)
    config.set_override('node_history_max_entries', 1, group='conductor')
    config.set_override('node_history_minimum_days', 1, group='conductor')
    assert node_history.cleanup_node_history(context, conftest.HOST) == 0
    config.set_override('node_history_minimum_days', 0, group='conductor')
    config.set_override('node_history_cleanup_batch_count', 0,
                        group='conductor')
    assert node_history.cleanup_node_history(context, conftest.HOST) == 0
    assert len(_events(context, node)) == 3


def test_recovery_of_interrupted_work_is_a_conductor_error(
        context, conductor, make_node, config):
    from ironic_lite.conductor import recovery
    config.set_override('interrupted_work_grace', 0, 'conductor')
    node = make_node(provision_state='deploying',
                     target_provision_state='active')
    assert recovery.recover_interrupted(context, conftest.HOST) == [
        node.uuid]
    event = _events(context, node)[-1]
    assert (event.severity, event.event_type) == ('ERROR', 'conductor')
    assert 'deployment was interrupted' in event.event
