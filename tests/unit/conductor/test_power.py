"""The power state sync and a BMC that cannot be read: maintenance with
Ironic's fault after [conductor]power_state_sync_max_retries failures in a
row, and a successful read starts the count again."""

from ironic_lite.conductor import power
from ironic_lite.drivers import fake_hardware
from ironic_lite import objects
from tests.unit.conductor.conftest import HOST


def _failing_reads(monkeypatch, outcomes):
    """FakePower.get_power_state gives the next of ``outcomes`` (an
    exception is raised)."""
    outcomes = list(outcomes)

    def read(self, task):
        outcome = outcomes.pop(0)
        if isinstance(outcome, Exception):
            raise outcome
        return outcome
    monkeypatch.setattr(fake_hardware.FakePower, 'get_power_state', read)


def test_max_retries_put_the_node_in_maintenance(context, conductor,
                                                 make_node, monkeypatch,
                                                 config):
    config.set_override('power_state_sync_max_retries', 3, 'conductor')
    node = make_node(provision_state='manageable', power_state='power on')
    failure = RuntimeError('unable to connect to the BMC')
    _failing_reads(monkeypatch, [failure, failure, 'power on', failure,
                                 failure, failure])
    for _ in range(5):
        power.sync_power_states(context, HOST)
        assert not objects.Node.get(context, node.uuid).maintenance
    power.sync_power_states(context, HOST)
    node = objects.Node.get(context, node.uuid)
    assert (node.maintenance, node.fault, node.power_state) == (
        True, 'power failure', None)
    assert node.maintenance_reason == (
        "During sync_power_state, max retries exceeded for node %s, node "
        "state None does not match expected state 'power on'. Updating DB "
        "state to 'None' Switching node to maintenance mode. Error: unable "
        "to connect to the BMC" % node.uuid)
    # In maintenance, the sync leaves it alone (no read left to give).
    power.sync_power_states(context, HOST)
