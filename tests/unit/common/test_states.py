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
    # servicing (API 1.87) and abort from wait call-back (1.110), as
    # Ironic 39's state machine
    ('active', 'service', ('servicing', 'active')),
    ('servicing', 'done', ('active', None)),
    ('servicing', 'fail', ('service failed', 'active')),
    ('servicing', 'wait', ('service wait', 'active')),
    ('servicing', 'hold', ('service hold', 'active')),
    ('service wait', 'hold', ('service hold', 'active')),
    ('service wait', 'resume', ('servicing', 'active')),
    ('service wait', 'fail', ('service failed', 'active')),
    ('service wait', 'abort', ('service failed', 'active')),
    ('service wait', 'delete', ('deleting', 'available')),
    ('service hold', 'service', ('servicing', 'active')),
    ('service hold', 'unhold', ('service wait', 'active')),
    ('service hold', 'fail', ('service failed', 'active')),
    ('service hold', 'abort', ('service failed', 'active')),
    ('service failed', 'service', ('servicing', 'active')),
    ('service failed', 'rescue', ('rescuing', 'rescue')),
    ('service failed', 'wait', ('service wait', 'active')),
    ('service failed', 'hold', ('service hold', 'active')),
    ('service failed', 'delete', ('deleting', 'available')),
    ('service failed', 'abort', ('active', None)),
    ('wait call-back', 'abort', ('deploy failed', 'active')),
])
def test_transitions(state, event, expected):
    assert states.next_state('uuid', state, event) == expected


@pytest.mark.parametrize('state,event', [
    ('enroll', 'deploy'), ('available', 'delete'), ('active', 'deploy'),
    ('available', 'abort'), ('manageable', 'bogus'), ('no-such', 'manage'),
    ('clean wait', 'unhold'), ('active', 'unhold'), ('clean hold', 'resume'),
    ('deploy hold', 'resume'),
    ('available', 'service'), ('manageable', 'service'),
    ('servicing', 'service'), ('service wait', 'service'),
    ('servicing', 'abort'), ('service hold', 'delete'),
    ('service failed', 'unhold'),
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
    assert states.VERBS['service'] == 'service'


def test_servicing_state_lists_match_ironic():
    assert 'service failed' in states.FAILURE_STATES
    assert {'servicing', 'service wait'} <= set(states.UNSTABLE_STATES)
    assert 'servicing' in states.STUCK_STATES_TREATED_AS_FAIL
    assert {'service hold', 'service failed'} <= set(
        states.UPDATE_ALLOWED_STATES)
