"""Runbooks (API 1.92, traits 1.112) through openstacksdk's runbook
resource and ``set_node_provision_state(..., runbook=...)``, unmodified,
against a real ironic-lite (the embedded default: SQLite, in-process
RPC): the calls of openstacksdk's own runbook functional tests, then a
manual cleaning with a runbook."""

from openstack import connection
from openstack import exceptions
import pytest

from tests.functional import procs
from tests import timeouts

STEPS = [{'interface': 'bios', 'step': 'factory_reset', 'args': {},
          'order': 1},
         {'interface': 'bios', 'step': 'cache_bios_settings', 'args': {},
          'order': 2}]


def _connect(base):
    return connection.Connection(auth_type='none',
                                 auth={'endpoint': base}).baremetal


def test_runbook_crud_and_traits(lite_service):
    bm = _connect(lite_service.base)
    runbook = bm.create_runbook(name='CUSTOM_WIPE', steps=STEPS,
                                extra={'team': 'a'})
    assert runbook.name == 'CUSTOM_WIPE'
    assert [s['step'] for s in runbook.steps] == ['factory_reset',
                                                  'cache_bios_settings']
    assert [r.name for r in bm.runbooks()] == ['CUSTOM_WIPE']
    assert [r.steps for r in bm.runbooks(details=True)] == [STEPS]
    assert bm.get_runbook('CUSTOM_WIPE').id == runbook.id
    assert bm.get_runbook(runbook.id, fields=['name']).name == 'CUSTOM_WIPE'

    runbook.extra = {'team': 'b'}
    runbook.description = 'wipe the disks'
    runbook = bm.update_runbook(runbook)
    assert (runbook.extra, runbook.description) == ({'team': 'b'},
                                                    'wipe the disks')
    runbook = bm.patch_runbook(runbook, [
        {'op': 'replace', 'path': '/name', 'value': 'wipe.disks'}])
    assert bm.get_runbook('wipe.disks').name == 'wipe.disks'

    bm.set_runbook_traits(runbook, ['CUSTOM_A', 'CUSTOM_B'])
    bm.add_runbook_trait(runbook, 'CUSTOM_C')
    bm.remove_runbook_trait(runbook, 'CUSTOM_A')
    assert bm.get_runbook(runbook.id).traits == ['CUSTOM_B', 'CUSTOM_C']

    bm.delete_runbook(runbook, ignore_missing=False)
    with pytest.raises(exceptions.NotFoundException):
        bm.get_runbook(runbook.id)
    assert list(bm.runbooks()) == []


def test_clean_with_a_runbook(lite_service):
    bm = _connect(lite_service.base)
    bm.create_runbook(name='CUSTOM_WIPE', steps=STEPS)
    node = bm.create_node(driver='fake-hardware', name='rb-node',
                          bios_interface='fake')
    bm.set_node_provision_state(node, 'manage', wait=True,
                                timeout=timeouts.HANG)
    # No trait named as the runbook: refused, the node stays.
    # (The proxy's set_node_provision_state has no runbook: the
    # resource's method has.)
    with pytest.raises(exceptions.BadRequestException):
        bm.get_node(node.id).set_provision_state(bm, 'clean',
                                                 runbook='CUSTOM_WIPE')
    bm.add_node_trait(node, 'CUSTOM_WIPE')
    bm.get_node(node.id).set_provision_state(bm, 'clean',
                                             runbook='CUSTOM_WIPE')
    done = procs.wait_for(
        lambda: (lambda n: n if n.provision_state == 'manageable'
                 and not n.target_provision_state
                 and not n.reservation else None)(bm.get_node(node.id)),
        what='node %s cleaned' % node.id)
    assert done.last_error is None
    events = [e['event'] for e in bm.get(
        '/nodes/%s/history' % node.id,
        microversion='1.78').json()['history']]
    assert 'Provision state changed from cleaning to manageable' in ' '.join(
        events), events
