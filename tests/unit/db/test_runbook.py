"""Runbook rows on every backend (db/runbook.py): a runbook with its steps
and traits written and read together, steps replaced by an update, traits
set, added and removed, a list filtered for a project, duplicates refused
and a deletion taking steps and traits."""

import pytest

from ironic_lite.common import exception
from ironic_lite.db import runbook as db_runbook

UUID_A = '11111111-1111-4111-8111-111111111111'
UUID_B = '22222222-2222-4222-8222-222222222222'
STEP = {'interface': 'deploy', 'step': 'erase_devices', 'args': {'a': 1},
        'order': 1}


def _create(uuid=UUID_A, name='wipe', **values):
    return db_runbook.create_runbook(dict(
        values, uuid=uuid, name=name, steps=[STEP], version='1.0'))


def test_written_and_read_together(any_db):
    _create(traits=['CUSTOM_B', 'CUSTOM_A', 'CUSTOM_A'], public=True)
    row = db_runbook.get_runbook_by_name('wipe')
    assert row.uuid == UUID_A and row.public is True
    assert [(s.interface, s.step, s.args, s.order) for s in row.steps] == [
        ('deploy', 'erase_devices', {'a': 1}, 1)]
    assert [t.trait for t in row.traits] == ['CUSTOM_A', 'CUSTOM_B']


def test_update_replaces_steps_and_keeps_traits(any_db):
    _create(traits=['CUSTOM_A'])
    db_runbook.update_runbook(UUID_A, {
        'extra': {'x': 1},
        'steps': [dict(STEP, order=2), dict(STEP, step='other', order=3)]})
    row = db_runbook.get_runbook_by_uuid(UUID_A)
    assert [(s.step, s.order) for s in row.steps] == [
        ('erase_devices', 2), ('other', 3)]
    assert [t.trait for t in row.traits] == ['CUSTOM_A']
    assert row.extra == {'x': 1} and row.updated_at is not None


def test_traits_set_added_removed(any_db):
    _create()
    db_runbook.set_runbook_traits(UUID_A, ['CUSTOM_A', 'CUSTOM_B'], '1.0')
    db_runbook.add_runbook_trait(UUID_A, 'CUSTOM_A', '1.0')
    db_runbook.add_runbook_trait(UUID_A, 'CUSTOM_C', '1.0')
    db_runbook.delete_runbook_trait(UUID_A, 'CUSTOM_B')
    db_runbook.delete_runbook_trait(UUID_A, 'CUSTOM_Z')
    assert [t.trait for t in db_runbook.get_runbook_by_uuid(UUID_A)
            .traits] == ['CUSTOM_A', 'CUSTOM_C']
    db_runbook.set_runbook_traits(UUID_A, ['CUSTOM_C'], '1.0')
    assert [t.trait for t in db_runbook.get_runbook_by_uuid(UUID_A)
            .traits] == ['CUSTOM_C']
    with pytest.raises(exception.RunbookNotFound):
        db_runbook.set_runbook_traits(UUID_B, [], '1.0')


def test_a_projects_list_has_its_own_and_the_public_ones(any_db):
    _create(owner='p1')
    _create(uuid=UUID_B, name='shared', public=True)
    _create(uuid='33333333-3333-4333-8333-333333333333', name='other',
            owner='p2')
    names = sorted(r.name for r in db_runbook.get_runbook_list(
        filters={'project': 'p1'}))
    assert names == ['shared', 'wipe']
    assert len(db_runbook.get_runbook_list()) == 3


def test_duplicates_and_deletion(any_db):
    _create(traits=['CUSTOM_A'])
    with pytest.raises(exception.RunbookDuplicateName):
        _create(uuid=UUID_B)
    with pytest.raises(exception.RunbookAlreadyExists):
        _create(name='other')
    db_runbook.destroy_runbook(UUID_A)
    with pytest.raises(exception.RunbookNotFound):
        db_runbook.get_runbook_by_uuid(UUID_A)
    # Its steps and traits went with it: the name is free again.
    _create(uuid=UUID_B, traits=['CUSTOM_A'])
