"""Secrets a node holds for one phase are gone once it leaves it, on every
path: the rescue password after a rescue that failed or was failed by the
recovery of a dead conductor's node, the agent token after a manual
cleaning that ended, failed or was failed by recovery."""

import pytest

from ironic_lite.common import states
from ironic_lite.conductor import phase_secrets
from ironic_lite.conductor import recovery
from ironic_lite.drivers import fake_hardware

from . import conftest

TOKEN_INFO = {'agent_secret_token': 'tok-123', 'agent_url': 'http://a:9999',
              'agent_verify_ca': 'x', 'kept': 1}
RESCUE_INFO = {'rescue_password': 'plain-pw', 'hashed_rescue_password': '$5$',
               'kept': 2}


@pytest.fixture
def no_grace(config):
    config.set_override('interrupted_work_grace', 0, 'conductor')


def _stored(context, node):
    node.refresh()
    return node


def test_a_conductor_killed_mid_rescue_leaves_no_password(
        context, conductor, make_node, no_grace):
    # As a conductor killed mid-rescue leaves it: rescuing, unlocked, the
    # password stored in the clear.
    node = make_node(provision_state=states.RESCUING,
                     target_provision_state=states.RESCUE,
                     instance_info=RESCUE_INFO,
                     driver_internal_info=TOKEN_INFO)
    assert recovery.recover_interrupted(context, conftest.HOST) == [
        node.uuid]
    node = _stored(context, node)
    assert node.provision_state == states.RESCUEFAIL
    assert node.instance_info == {'kept': 2}
    assert node.driver_internal_info == {'kept': 1}


@pytest.mark.parametrize('state', [states.CLEANING, states.DEPLOYING,
                                   states.INSPECTING])
def test_recovery_leaves_no_agent_token(context, conductor, make_node,
                                        no_grace, state):
    node = make_node(provision_state=state,
                     target_provision_state=states.MANAGEABLE,
                     driver_internal_info=TOKEN_INFO)
    recovery.recover_interrupted(context, conftest.HOST)
    node = _stored(context, node)
    assert node.provision_state in states.FAILURE_STATES
    assert node.driver_internal_info == {'kept': 1}


def test_a_manual_cleaning_leaves_no_token(context, rpc_api, make_node,
                                           wait_node, monkeypatch):
    node = make_node(provision_state=states.MANAGEABLE,
                     bios_interface='fake', vendor_interface='fake')

    # A token minted (an agent's lookup) while the cleaning runs.
    record = fake_hardware._record_step

    def record_and_mint(task, interface, step):
        record(task, interface, step)
        task.node.driver_internal_info = dict(
            task.node.driver_internal_info or {}, **TOKEN_INFO)
    monkeypatch.setattr(fake_hardware, '_record_step', record_and_mint)
    rpc_api.do_node_clean(context, node,
                          [{'interface': 'bios', 'step': 'factory_reset'}])
    node = wait_node(node.uuid, states.MANAGEABLE,
                     target_provision_state=None)
    assert node.driver_internal_info.get('kept') == 1
    for key in phase_secrets.AGENT_TOKEN_KEYS:
        assert key not in node.driver_internal_info


@pytest.mark.parametrize('old,new,dropped', [
    # Within a phase: the token kept (a password only while rescued).
    (states.CLEANING, states.CLEANWAIT, ('password',)),
    (states.DEPLOYWAIT, states.DEPLOYING, ('password',)),
    (states.RESCUING, states.RESCUEWAIT, ()),
    # Out of one: the token (and the password unless still rescued).
    (states.CLEANWAIT, states.CLEANFAIL, ('token', 'password')),
    (states.CLEANING, states.MANAGEABLE, ('token', 'password')),
    (states.DEPLOYING, states.ACTIVE, ('token', 'password')),
    (states.RESCUING, states.RESCUE, ('token',)),
    (states.RESCUEWAIT, states.RESCUEFAIL, ('token', 'password')),
    (states.UNRESCUING, states.ACTIVE, ('token', 'password')),
    (states.UNRESCUING, states.UNRESCUEFAIL, ('token',)),
    (states.ACTIVE, states.DELETING, ('token', 'password')),
])
def test_which_transitions_drop_what(old, new, dropped):
    class Node(object):
        instance_info = dict(RESCUE_INFO)
        driver_internal_info = dict(TOKEN_INFO)
    node = Node()
    phase_secrets.drop_left_behind(node, old, new)
    assert ('rescue_password' not in node.instance_info) == (
        'password' in dropped)
    assert ('agent_secret_token' not in node.driver_internal_info) == (
        'token' in dropped)
    assert node.instance_info['kept'] == 2
    assert node.driver_internal_info['kept'] == 1
