"""The conductors' topic carries a non-default control_exchange."""

import pytest

from ironic_lite.common import rpc
from ironic_lite.conductor import base_manager
from ironic_lite.conductor import rpcapi


@pytest.mark.parametrize('exchange, topic, expected', [
    ('ironic', None, 'ironic.conductor_manager'),
    ('openstack', None, 'ironic.conductor_manager'),
    ('ironic-staging', None, 'ironic-staging.ironic.conductor_manager'),
    ('ironic-staging', 'mine', 'mine'),
    ('ironic', 'mine', 'mine'),
])
def test_conductor_topic(conf_fixture, exchange, topic, expected):
    rpc._register_transport_opts()
    conf_fixture.config(control_exchange=exchange, transport_url='fake://')
    conf_fixture.config(topic=topic, group='conductor')
    assert rpc.conductor_topic() == expected
    # The client and the server agree.
    assert rpcapi.ConductorAPI().topic == expected
    assert base_manager.BaseConductorManager(host='h').topic == expected
    rpc.cleanup()


def test_the_default_exchange_keeps_the_released_topic(conf_fixture):
    """Services that do not set control_exchange (oslo.messaging's
    default) keep the topic of releases 1.0 and 2.0."""
    rpc._register_transport_opts()
    assert rpc.conductor_topic() == 'ironic.conductor_manager'
