"""Refused requests: the right error and code, and nothing written."""

from oslo_utils import uuidutils
import pytest

from ironic_lite.common import exception
from ironic_lite.common import states
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


@pytest.mark.parametrize('state,call', [
    ('enroll', ('do_node_deploy',)),
    ('manageable', ('do_node_deploy',)),
    ('enroll', ('do_provisioning_action', 'provide')),
    ('enroll', ('do_provisioning_action', 'inspect')),
    ('available', ('do_provisioning_action', 'inspect')),
    ('available', ('do_provisioning_action', 'abort')),
    ('active', ('do_provisioning_action', 'manage')),
    ('manageable', ('do_provisioning_action', 'clean')),
    ('manageable', ('do_provisioning_action', 'bogus')),
    ('available', ('do_node_tear_down',)),
    ('enroll', ('do_node_tear_down',)),
])
def test_invalid_transition_is_400_and_writes_nothing(context, rpc_api,
                                                      make_node, state, call):
    node = make_node(provision_state=state)
    before = _row(context, node.uuid)
    method, args = call[0], call[1:]
    with pytest.raises(exception.InvalidStateRequested) as err:
        getattr(rpc_api, method)(context, node, *args)
    assert err.value.code == 400
    assert ('can not be performed on node "%s" while it is in state "%s"'
            % (node.uuid, state)) in str(err.value)
    assert _row(context, node.uuid) == before


def test_rebuild_from_available_is_400(context, rpc_api, make_node):
    node = make_node(provision_state='available')
    before = _row(context, node.uuid)
    with pytest.raises(exception.InvalidStateRequested) as err:
        rpc_api.do_node_deploy(context, node, rebuild=True)
    assert 'The requested action "rebuild"' in str(err.value)
    assert _row(context, node.uuid) == before


def test_deploy_in_maintenance_is_refused(context, rpc_api, make_node):
    node = make_node(provision_state='available', maintenance=True)
    before = _row(context, node.uuid)
    with pytest.raises(exception.NodeInMaintenance) as err:
        rpc_api.do_node_deploy(context, node)
    assert err.value.code == 400
    assert _row(context, node.uuid) == before


@pytest.mark.parametrize('method', ['do_node_tear_down', 'rebuild'])
def test_protected_node_is_403(context, rpc_api, make_node, method):
    node = make_node(provision_state='active', protected=True)
    before = _row(context, node.uuid)
    with pytest.raises(exception.NodeProtected) as err:
        if method == 'rebuild':
            rpc_api.do_node_deploy(context, node, rebuild=True)
        else:
            rpc_api.do_node_tear_down(context, node)
    assert err.value.code == 403
    assert _row(context, node.uuid) == before


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


def test_unknown_node(context, rpc_api, make_node):
    node = make_node()
    objects.Node.get_by_uuid(context, node.uuid).destroy()
    with pytest.raises(exception.NodeNotFound) as err:
        rpc_api.do_provisioning_action(context, node, 'manage')
    assert err.value.code == 404


def test_state_constants():
    assert states.VERBS['active'] == 'deploy'
    assert states.VERBS['deleted'] == 'delete'
