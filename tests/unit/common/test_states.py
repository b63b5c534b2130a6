"""The provision state machine (common/states.py: Ironic's transitions and
targets, and its verbs)."""

import pytest

from ironic_lite.common import exception
from ironic_lite.common import states


@pytest.mark.parametrize('state,event,expected', [
    ('enroll', 'manage', ('verifying', 'manageable')),
    ('verifying', 'done', ('manageable', None)),
    ('verifying', 'fail', ('enroll', None)),
    ('manageable', 'provide', ('cleaning', 'available')),
    ('cleaning', 'done', ('available', None)),
    ('cleaning', 'fail', ('clean failed', 'available')),
    ('available', 'deploy', ('deploying', 'active')),
    ('deploying', 'done', ('active', None)),
    ('deploying', 'fail', ('deploy failed', 'active')),
    ('deploy failed', 'rebuild', ('deploying', 'active')),
    ('active', 'rebuild', ('deploying', 'active')),
    ('active', 'delete', ('deleting', 'available')),
    ('deleting', 'clean', ('cleaning', 'available')),
    ('deleting', 'fail', ('error', None)),
    ('error', 'delete', ('deleting', 'available')),
    ('manageable', 'inspect', ('inspecting', 'manageable')),
    ('inspect wait', 'abort', ('inspect failed', 'manageable')),
    ('clean wait', 'abort', ('clean failed', 'available')),
    ('available', 'manage', ('manageable', None)),
    ('manageable', 'adopt', ('adopting', 'active')),
    # the hold step and the unhold verb (API 1.85), as Ironic 39
    ('cleaning', 'hold', ('clean hold', 'available')),
    ('clean wait', 'hold', ('clean hold', 'available')),
    ('clean hold', 'unhold', ('clean wait', 'available')),
    ('clean hold', 'abort', ('clean failed', 'available')),
    ('deploying', 'hold', ('deploy hold', 'active')),
    ('wait call-back', 'hold', ('deploy hold', 'active')),
    ('deploy hold', 'unhold', ('wait call-back', 'active')),
    ('deploy hold', 'abort', ('deploy failed', 'active')),
])
def test_transitions(state, event, expected):
    assert states.next_state('uuid', state, event) == expected


@pytest.mark.parametrize('state,event', [
    ('enroll', 'deploy'), ('available', 'delete'), ('active', 'deploy'),
    ('available', 'abort'), ('manageable', 'bogus'), ('no-such', 'manage'),
    ('clean wait', 'unhold'), ('active', 'unhold'), ('clean hold', 'resume'),
    ('deploy hold', 'resume'),
])
def test_invalid(state, event):
    with pytest.raises(exception.InvalidStateRequested) as err:
        states.next_state('uuid', state, event)
    assert err.value.code == 400
    assert not states.is_actionable(state, event)


def test_target_override():
    assert states.next_state('u', 'manageable', 'clean',
                             target_state='manageable') == (
        'cleaning', 'manageable')


def test_every_state_is_stable_or_has_a_target():
    for state in states.machine.states:
        assert states.is_stable(state) or state in states.TARGETS


def test_lists_match_ironic():
    assert states.DELETE_ALLOWED_STATES == ('manageable', 'enroll',
                                            'adopt failed')
    assert 'deploy failed' in states.UPDATE_ALLOWED_STATES
    assert states.power_target('rebooting') == 'power on'
    assert states.power_target('soft power off') == 'power off'


def test_state_constants():
    assert states.VERBS['active'] == 'deploy'
    assert states.VERBS['deleted'] == 'delete'
    assert states.VERBS['unhold'] == 'unhold'
