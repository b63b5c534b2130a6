"""Which conductor an RPC call goes to: the hash ring's owner of the node,
in the node's conductor group, asked with the request's context."""

import uuid

import pytest

from ironic_lite.common import rpc
from ironic_lite.conductor import hash_ring
from ironic_lite.conductor import rpcapi


@pytest.fixture
def api(conf_fixture, monkeypatch):
    conf_fixture.config(transport_url='fake://')
    monkeypatch.setattr(rpc, 'TRANSPORT', None)
    client = rpcapi.ConductorAPI(topic='test-%s' % uuid.uuid4().hex)
    yield client
    rpc.cleanup()


def test_a_call_goes_to_the_owner_in_the_nodes_group(api, monkeypatch,
                                                     conf_fixture):
    conf_fixture.config(rpc_send_retries=3, group='conductor')
    asked, prepared = [], []

    def get_host(context, node_uuid, driver, conductor_group=''):
        asked.append((context, node_uuid, driver, conductor_group))
        return 'cond-%s' % conductor_group

    class Prepared(object):
        def can_send_version(self, version=None):
            return True

        def call(self, context, method, **kwargs):
            return [{'id': 'vif-1'}]

    def prepare(**kwargs):
        if 'server' in kwargs:
            prepared.append(kwargs)
        return Prepared()
    monkeypatch.setattr(hash_ring.RING_MANAGER, 'get_host', get_host)
    monkeypatch.setattr(api.client, 'prepare', prepare)
    ctx = object()
    node = type('Node', (), {'uuid': 'n1', 'driver': 'ipmi',
                             'conductor_group': 'rack-7'})()
    assert api.get_conductor_for(ctx, node) == 'cond-rack-7'
    assert api.vif_list(ctx, node) == [{'id': 'vif-1'}]
    assert asked == [(ctx, 'n1', 'ipmi', 'rack-7')] * 2
    # Sent at the method's version, retried as [conductor] says.
    # The cap in force at the call (pin_release_version = auto moves it).
    assert prepared == [{'server': 'cond-rack-7', 'version': '1.2',
                         'version_cap': rpcapi.RPC_API_VERSION,
                         'retry': 3}]
