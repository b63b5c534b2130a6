"""Deploy steps (release 4.0, RPC 1.7): which steps a deploy runs, in which
order, and how it fails, through the real RPC client and conductor."""

from oslo_utils import uuidutils
import pytest

from ironic_lite.common import exception
from ironic_lite.conductor import rpcapi
from ironic_lite import objects
from tests.unit.conductor import test_rpcapi_versions

BIOS = {'interface': 'bios', 'step': 'apply_configuration',
        'args': {'settings': [{'name': 'LogicalProc', 'value': 'Enabled'}]},
        'priority': 150}
RAID = {'interface': 'raid', 'step': 'create_configuration', 'args': {},
        'priority': 50}


def _template(context, name, steps):
    template = objects.DeployTemplate(
        context, uuid=uuidutils.generate_uuid(), name=name, steps=steps,
        extra={})
    template.create()
    return template


@pytest.fixture
def deployable(context, make_node):
    """A node ready to deploy, with fake BIOS and RAID interfaces, whose
    instance asks for the traits given."""
    def make(*traits):
        node = make_node(provision_state='available', bios_interface='fake',
                         raid_interface='fake',
                         instance_info={'traits': list(traits)})
        if traits:
            objects.TraitList.create(context, node.id, list(traits))
        return objects.Node.get_by_uuid(context, node.uuid)
    return make


def _ran(node):
    return [(s['interface'], s['step'], s['priority'])
            for s in node.driver_internal_info['fake_deploy_steps']]


def test_template_steps_run_by_priority_around_the_core_step(
        context, rpc_api, deployable, wait_node):
    _template(context, 'CUSTOM_X', [RAID, BIOS])
    _template(context, 'CUSTOM_UNUSED', [dict(RAID, priority=300)])
    node = deployable('CUSTOM_X')
    rpc_api.do_node_deploy(context, node)
    node = wait_node(node.uuid, 'active', target_provision_state=None)
    assert _ran(node) == [('bios', 'apply_configuration', 150),
                          ('deploy', 'deploy', 100),
                          ('raid', 'create_configuration', 50)]
    assert not node.deploy_step
    internal = node.driver_internal_info
    assert 'deploy_steps' not in internal
    assert 'deploy_step_index' not in internal
    assert node.last_error is None


def test_user_steps_override_template_steps_and_tie_by_interface(
        context, rpc_api, deployable, wait_node):
    _template(context, 'CUSTOM_X', [RAID, BIOS])
    node = deployable('CUSTOM_X')
    # The user's RAID step replaces the template's (same interface and
    # step); at the BIOS step's priority, bios runs before raid.
    rpc_api.do_node_deploy(context, node, deploy_steps=[
        dict(RAID, priority='150'),
        {'interface': 'bios', 'step': 'factory_reset', 'args': {},
         'priority': 10}])
    node = wait_node(node.uuid, 'active', target_provision_state=None)
    assert _ran(node) == [('bios', 'apply_configuration', 150),
                          ('raid', 'create_configuration', 150),
                          ('deploy', 'deploy', 100),
                          ('bios', 'factory_reset', 10)]
    assert 'user_deploy_steps' not in node.driver_internal_info


def test_priority_zero_disables_a_step(context, rpc_api, deployable,
                                       wait_node):
    _template(context, 'CUSTOM_X', [dict(BIOS, priority=0), RAID])
    node = deployable('CUSTOM_X')
    rpc_api.do_node_deploy(context, node)
    node = wait_node(node.uuid, 'active', target_provision_state=None)
    assert _ran(node) == [('deploy', 'deploy', 100),
                          ('raid', 'create_configuration', 50)]


def test_without_templates_the_core_step_alone(context, rpc_api, deployable,
                                               wait_node):
    node = deployable()
    rpc_api.do_node_deploy(context, node)
    node = wait_node(node.uuid, 'active', target_provision_state=None)
    assert _ran(node) == [('deploy', 'deploy', 100)]


def test_unknown_template_step_fails_the_deploy(context, rpc_api, deployable,
                                                wait_node):
    _template(context, 'CUSTOM_X', [
        {'interface': 'bios', 'step': 'no_such_step', 'args': {},
         'priority': 10}])
    node = deployable('CUSTOM_X')
    rpc_api.do_node_deploy(context, node)
    node = wait_node(node.uuid, 'deploy failed')
    assert node.last_error.startswith(
        'Failed to validate the final deploy steps list for node %s: '
        "Validation of deploy steps from deploy templates matching this "
        "node's instance traits failed. Matching deploy templates: "
        'CUSTOM_X. Errors: node does not support this deploy step: '
        % node.uuid)
    assert 'no_such_step' in node.last_error
    assert node.power_state == 'power off'
    assert 'fake_deploy_steps' not in node.driver_internal_info


def test_step_of_an_interface_the_node_lacks_fails(context, rpc_api,
                                                   make_node, wait_node):
    _template(context, 'CUSTOM_X', [BIOS])
    node = make_node(provision_state='available', bios_interface='no-bios',
                     instance_info={'traits': ['CUSTOM_X']})
    objects.TraitList.create(context, node.id, ['CUSTOM_X'])
    rpc_api.do_node_deploy(context, node)
    node = wait_node(node.uuid, 'deploy failed')
    assert 'node does not support this deploy step' in node.last_error


@pytest.mark.parametrize('steps,message', [
    ([dict(BIOS, args={})], 'is missing these required arguments: settings'),
    ([dict(RAID, args={'x': 1})], 'has these unexpected arguments: x'),
    ([{'interface': 'deploy', 'step': 'deploy', 'args': {},
       'priority': 10}], 'is a core step and cannot be overridden'),
])
def test_invalid_user_steps_are_refused_before_anything(
        context, rpc_api, deployable, steps, message):
    node = deployable()
    with pytest.raises(exception.InstanceDeployFailure) as err:
        rpc_api.do_node_deploy(context, node, deploy_steps=steps)
    assert err.value.code == 400
    assert str(err.value).startswith(
        'Failed to validate deploy or power info for node %s: Validation '
        'of deploy steps from "deploy steps" argument failed.' % node.uuid)
    assert message in str(err.value)
    node.refresh()
    assert node.provision_state == 'available'
    assert node.reservation is None


def test_instance_traits_must_be_node_traits(context, rpc_api, make_node):
    node = make_node(provision_state='available',
                     instance_info={'traits': ['CUSTOM_X']})
    with pytest.raises(exception.InstanceDeployFailure) as err:
        rpc_api.do_node_deploy(context, node)
    assert err.value.code == 400
    assert ('Cannot specify instance traits that are not also set on the '
            'node. Node %s is missing traits CUSTOM_X' % node.uuid
            in str(err.value))
    node.refresh()
    assert node.provision_state == 'available'


def test_deploy_steps_are_sent_at_1_7(context, rpc_api, deployable,
                                      monkeypatch, wait_node):
    sent = test_rpcapi_versions._spy(rpc_api, monkeypatch)
    node = deployable()
    rpc_api.do_node_deploy(context, node)
    wait_node(node.uuid, 'active', target_provision_state=None)
    node = deployable()
    rpc_api.do_node_deploy(context, node, deploy_steps=[RAID])
    wait_node(node.uuid, 'active', target_provision_state=None)
    assert sent == [
        ('1.0', 'do_node_deploy', ['configdrive', 'node_id', 'rebuild']),
        ('1.7', 'do_node_deploy', ['configdrive', 'deploy_steps', 'node_id',
                                   'rebuild'])]


def test_pinned_to_3_0_refuses_deploy_steps_and_downgrades_without(
        config, conductor, context, deployable, monkeypatch, wait_node):
    config.set_override('pin_release_version', '3.0')
    try:
        pinned = rpcapi.ConductorAPI()
        sent = test_rpcapi_versions._spy(pinned, monkeypatch)
        node = deployable()
        with pytest.raises(exception.PinnedRelease) as err:
            pinned.do_node_deploy(context, node, deploy_steps=[RAID])
        assert err.value.code == 409
        assert sent == []
        node.refresh()
        assert node.provision_state == 'available'
        pinned.do_node_deploy(context, node)
        wait_node(node.uuid, 'active', target_provision_state=None)
        assert sent == [('1.0', 'do_node_deploy',
                         ['configdrive', 'node_id', 'rebuild'])]
    finally:
        config.clear_override('pin_release_version')


def test_server_takes_a_deploy_without_deploy_steps(conductor, context,
                                                    deployable, wait_node):
    # A 3.0 API's call (RPC 1.0: no deploy_steps argument).
    node = deployable()
    conductor.manager.do_node_deploy(context, node.uuid, rebuild=False,
                                     configdrive=None)
    node = wait_node(node.uuid, 'active', target_provision_state=None)
    assert _ran(node) == [('deploy', 'deploy', 100)]
