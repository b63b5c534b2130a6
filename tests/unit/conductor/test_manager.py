"""The node records through the real RPC client and conductor
(conductor/manager.py): create, update and delete, the refused ones
writing nothing; and the rules of a node update that Ironic's conductor
enforces (its update_node): when a node may become protected or retired,
and the reasons that go with those flags."""

from oslo_utils import uuidutils
import pytest
import sqlalchemy as sa

from ironic_lite.common import exception
from ironic_lite import objects


# updated_at is not compared: taking and dropping the lock bumps it, as
# in Ironic.
_ROW_FIELDS = ('provision_state', 'target_provision_state', 'power_state',
               'target_power_state', 'reservation', 'last_error',
               'provision_updated_at', 'instance_info', 'driver', 'name',
               'console_interface')


def _row(context, uuid):
    node = objects.Node.get_by_uuid(context, uuid)
    return {f: getattr(node, f) for f in _ROW_FIELDS}


def _call_on_conductor(rpc_api, context, node, method, **kwargs):
    """Call the test conductor whatever the node's driver (the API
    would get NoValidHost from the hash ring first)."""
    cctxt = rpc_api.client.prepare(server='test-conductor', version='1.0')
    return cctxt.call(context, method, **kwargs)


def test_create_with_unknown_driver(context, rpc_api):
    node = objects.Node(context, driver='ipmi', conductor_group='',
                        uuid=uuidutils.generate_uuid())
    with pytest.raises(exception.DriverNotFound) as err:
        _call_on_conductor(rpc_api, context, node, 'create_node',
                           node_obj=node)
    assert err.value.code == 400
    assert 'ipmi' in str(err.value)
    assert len(objects.Node.list(context)) == 0


def test_create_with_unsupported_interface(context, rpc_api):
    node = objects.Node(context, driver='fake-hardware', conductor_group='',
                        uuid=uuidutils.generate_uuid(),
                        power_interface='ipmitool')
    with pytest.raises(exception.InvalidParameterValue) as err:
        rpc_api.create_node(context, node)
    assert err.value.code == 400
    assert 'ipmitool' in str(err.value)
    assert len(objects.Node.list(context)) == 0


def test_create_keeps_given_interfaces(config, context, rpc_api):
    # An enabled one (Ironic's [DEFAULT]enabled_console_interfaces).
    config.set_override('enabled_console_interfaces', ['fake', 'no-console'])
    node = objects.Node(context, driver='fake-hardware', conductor_group='',
                        uuid=uuidutils.generate_uuid(),
                        console_interface='fake')
    node = rpc_api.create_node(context, node)
    assert node.console_interface == 'fake'
    assert node.bios_interface == 'no-bios'


def test_update_saves_only_changes(context, rpc_api, make_node):
    node = make_node(name='old', extra={'a': 1})
    stale = objects.Node.get_by_uuid(context, node.uuid)
    # Someone else changes extra meanwhile; our update must not undo it.
    node.extra = {'a': 2}
    node.save()
    stale.name = 'new'
    result = rpc_api.update_node(context, stale)
    assert result.name == 'new'
    assert result.reservation is None
    node.refresh()
    assert node.name == 'new'
    assert node.extra == {'a': 2}
    assert node.reservation is None


def test_update_reads_the_node_once(context, conductor, make_node):
    """The update's transaction reads the node's row once (FOR UPDATE:
    the lock check, the checks and the write share it) and writes it."""
    node = make_node(name='once')
    node.extra = {'rack': 'r2'}
    statements = []

    def seen(conn, cursor, statement, *args):
        statements.append(statement.split()[0].upper())
    sa.event.listen(sa.engine.Engine, 'before_cursor_execute', seen)
    try:
        conductor.manager.update_node(context, node)
    finally:
        sa.event.remove(sa.engine.Engine, 'before_cursor_execute', seen)
    assert statements.count('SELECT') == 1, statements
    assert statements.count('UPDATE') == 1, statements
    assert objects.Node.get(context, node.uuid).extra == {'rack': 'r2'}


def test_update_to_unknown_driver(context, rpc_api, make_node):
    node = make_node()
    before = _row(context, node.uuid)
    node.driver = 'ipmi'
    with pytest.raises(exception.DriverNotFound) as err:
        _call_on_conductor(rpc_api, context, node, 'update_node',
                           node_obj=node)
    assert err.value.code == 400
    assert _row(context, node.uuid) == before


def test_update_interface_while_active(context, rpc_api, make_node):
    node = make_node(provision_state='active', console_interface='no-console')
    before = _row(context, node.uuid)
    node.console_interface = 'fake'
    with pytest.raises(exception.InvalidState) as err:
        rpc_api.update_node(context, node)
    assert err.value.code == 409
    assert 'can not have console_interface updated' in str(err.value)
    assert _row(context, node.uuid) == before


def test_update_cannot_overwrite_instance(context, rpc_api, make_node):
    node = make_node(instance_uuid=uuidutils.generate_uuid())
    node.instance_uuid = uuidutils.generate_uuid()
    with pytest.raises(exception.NodeAssociated) as err:
        rpc_api.update_node(context, node)
    assert err.value.code == 409


def test_update_leaving_maintenance_clears_reason(context, rpc_api,
                                                  make_node):
    node = make_node(maintenance=True, maintenance_reason='broken',
                     fault='power failure')
    node.maintenance = False
    node = rpc_api.update_node(context, node)
    assert node.maintenance_reason is None
    assert node.fault is None


@pytest.mark.parametrize('state', ['enroll', 'manageable', 'available',
                                   'adopt failed'])
def test_destroy_allowed(context, rpc_api, make_node, state):
    node = make_node(provision_state=state)
    rpc_api.destroy_node(context, node)
    with pytest.raises(exception.NodeNotFound):
        objects.Node.get_by_uuid(context, node.uuid)


def test_destroy_active_node_refused(context, rpc_api, make_node):
    node = make_node(provision_state='active')
    with pytest.raises(exception.InvalidState) as err:
        rpc_api.destroy_node(context, node)
    assert err.value.code == 409
    assert ('Can not delete node "%s" while it is in provision state '
            '"active"' % node.uuid) in str(err.value)
    node.refresh()
    assert node.reservation is None


def test_destroy_available_when_disallowed(config, context, rpc_api,
                                           make_node):
    config.set_override('allow_deleting_available_nodes', False,
                        'conductor')
    try:
        node = make_node(provision_state='available')
        with pytest.raises(exception.InvalidState):
            rpc_api.destroy_node(context, node)
    finally:
        config.clear_override('allow_deleting_available_nodes', 'conductor')


def test_destroy_in_maintenance_any_state(context, rpc_api, make_node):
    node = make_node(provision_state='deploy failed', maintenance=True)
    rpc_api.destroy_node(context, node)
    assert len(objects.Node.list(context)) == 0


def test_destroy_associated_and_protected(context, rpc_api, make_node):
    node = make_node(provision_state='manageable',
                     instance_uuid=uuidutils.generate_uuid())
    with pytest.raises(exception.NodeAssociated):
        rpc_api.destroy_node(context, node)
    node2 = make_node(provision_state='manageable', protected=True)
    with pytest.raises(exception.NodeProtected):
        rpc_api.destroy_node(context, node2)
    assert len(objects.Node.list(context)) == 2


def test_destroy_removes_ports(context, rpc_api, make_node):
    node = make_node(provision_state='manageable')
    objects.Port(context, node_id=node.id, address='52:54:00:12:34:56',
                 uuid=uuidutils.generate_uuid()).create(context)
    rpc_api.destroy_node(context, node)
    assert objects.Port.list(context) == []


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
