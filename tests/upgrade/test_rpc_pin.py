"""While pinned to release 1.0 the RPC client cannot send anything newer.

The process-level test (test_rolling_upgrade.py) shows the pin through the
API's behaviour; this checks the RPC client itself: constructed with
``[DEFAULT]/pin_release_version = 1.0`` its version cap is 1.0's RPC
version, and it refuses to send 1.1 (2.0's ``update_node`` with
``reset_interfaces``).  Unpinned, the cap is the code's RPC_API_VERSION.
"""

from oslo_messaging import opts as messaging_opts
import pytest

from ironic_lite.common import release_mappings
from ironic_lite.common import rpc
from ironic_lite import conf
from ironic_lite.conductor import rpcapi

CONF = conf.CONF


def _register_messaging_opts():
    # transport_url and friends, as the services register them.
    for group, opts in messaging_opts.list_opts():
        if group in (None, 'DEFAULT'):
            for opt in opts:
                if opt.dest not in CONF:
                    CONF.register_opt(opt)


@pytest.fixture
def fake_transport():
    _register_messaging_opts()
    CONF.set_override('transport_url', 'fake://')
    rpc.cleanup()
    yield
    rpc.cleanup()
    CONF.clear_override('transport_url')
    CONF.clear_override('pin_release_version')


@pytest.mark.parametrize('pin', ['1.0', 'anvil'])
def test_pinned_client_is_capped_at_1_0(fake_transport, pin):
    CONF.set_override('pin_release_version', pin)
    api = rpcapi.ConductorAPI()
    assert release_mappings.RELEASE_MAPPING['1.0']['rpc'] == '1.0'
    assert api.version_cap == '1.0'
    assert api.can_send_version('1.0')
    assert not api.can_send_version('1.1')


def test_unpinned_client_sends_the_latest(fake_transport):
    CONF.clear_override('pin_release_version')
    api = rpcapi.ConductorAPI()
    assert api.version_cap == rpcapi.RPC_API_VERSION
    assert api.version_cap == release_mappings.RELEASE_MAPPING[
        'master']['rpc']
    assert api.can_send_version(rpcapi.RPC_API_VERSION)
