"""The rules of a node update that Ironic's conductor enforces (its
update_node): when a node may become protected or retired, and the
reasons that go with those flags.  Each refusal writes nothing."""

import pytest

from ironic_lite.common import exception
from ironic_lite import objects


def _saved(context, node):
    return objects.Node.get_by_uuid(context, node.uuid)


@pytest.mark.parametrize('state', ['active', 'rescue'])
def test_protect_in_active_or_rescue(context, rpc_api, make_node, state):
    node = make_node(provision_state=state)
    node.protected = True
    node.protected_reason = 'keep'
    rpc_api.update_node(context, node)
    saved = _saved(context, node)
    assert (saved.protected, saved.protected_reason) == (True, 'keep')


@pytest.mark.parametrize('state', ['enroll', 'manageable', 'available',
                                   'deploy failed', 'error'])
def test_protect_in_other_states_is_409(context, rpc_api, make_node,
                                        state):
    node = make_node(provision_state=state)
    node.protected = True
    with pytest.raises(exception.InvalidState) as err:
        rpc_api.update_node(context, node)
    assert err.value.code == 409
    assert str(err.value) == (
        "Node %s can only be made protected in provision states 'active' "
        "or 'rescue', the current state is '%s'" % (node.uuid, state))
    assert _saved(context, node).protected is False


def test_the_state_is_the_one_read_under_the_lock(context, rpc_api,
                                                  make_node):
    node = make_node(provision_state='active')
    stale = _saved(context, node)
    node.provision_state = 'available'   # torn down meanwhile
    node.save()
    stale.protected = True
    with pytest.raises(exception.InvalidState):
        rpc_api.update_node(context, stale)
    assert _saved(context, node).protected is False


def test_unprotect_clears_the_reason(context, rpc_api, make_node):
    node = make_node(provision_state='active', protected=True,
                     protected_reason='keep')
    node.protected = False
    result = rpc_api.update_node(context, node)
    assert result.protected_reason is None
    saved = _saved(context, node)
    assert (saved.protected, saved.protected_reason) == (False, None)


def test_unprotect_with_a_reason_clears_it(context, rpc_api, make_node):
    # As Ironic: the reason is cleared first, so nothing is refused.
    node = make_node(provision_state='active', protected=True)
    node.protected = False
    node.protected_reason = 'why'
    rpc_api.update_node(context, node)
    assert _saved(context, node).protected_reason is None


def test_protected_reason_without_protection_is_400(context, rpc_api,
                                                    make_node):
    node = make_node(provision_state='active')
    node.protected_reason = 'why'
    with pytest.raises(exception.InvalidParameterValue) as err:
        rpc_api.update_node(context, node)
    assert err.value.code == 400
    assert str(err.value) == ('The protected_reason field can only be set '
                              'when protected is True')
    assert _saved(context, node).protected_reason is None


def test_protected_reason_of_a_protected_node(context, rpc_api, make_node):
    node = make_node(provision_state='manageable', protected=True)
    node.protected_reason = 'why'
    rpc_api.update_node(context, node)
    assert _saved(context, node).protected_reason == 'why'


@pytest.mark.parametrize('state', ['enroll', 'manageable', 'active',
                                   'deploy failed'])
def test_retire_outside_available(context, rpc_api, make_node, state):
    node = make_node(provision_state=state)
    node.retired = True
    node.retired_reason = 'old'
    rpc_api.update_node(context, node)
    saved = _saved(context, node)
    assert (saved.retired, saved.retired_reason) == (True, 'old')


def test_retire_an_available_node_is_409(context, rpc_api, make_node):
    node = make_node(provision_state='available')
    node.retired = True
    with pytest.raises(exception.InvalidState) as err:
        rpc_api.update_node(context, node)
    assert err.value.code == 409
    assert str(err.value) == (
        "Node %s can not have 'retired' set in provision state 'available', "
        "the current state is 'available'" % node.uuid)
    assert not _saved(context, node).retired


def test_unretire_clears_the_reason(context, rpc_api, make_node):
    # Un-retiring is allowed in any state, available included.
    node = make_node(provision_state='available', retired=True,
                     retired_reason='old')
    node.retired = False
    result = rpc_api.update_node(context, node)
    assert result.retired_reason is None
    saved = _saved(context, node)
    assert (saved.retired, saved.retired_reason) == (False, None)


def test_retired_reason_without_retirement_is_400(context, rpc_api,
                                                  make_node):
    node = make_node(provision_state='manageable')
    node.retired_reason = 'old'
    with pytest.raises(exception.InvalidParameterValue) as err:
        rpc_api.update_node(context, node)
    assert err.value.code == 400
    assert str(err.value) == ('The retired_reason field can only be set '
                              'when retired is True')
    assert _saved(context, node).retired_reason is None
