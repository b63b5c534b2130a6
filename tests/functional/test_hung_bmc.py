"""BMCs that accept a connection and never answer (issue 35), against a
silent listener: requests to them end with a 503 in Ironic's error body
within ``[DEFAULT]rpc_response_timeout`` while every other request is
served -- in the all-in-one ``ironic-lite`` and with ``ironic-api`` and
``ironic-conductor`` over RabbitMQ; power actions on hung BMCs leave the
other nodes' actions served; a dead conductor's node is taken over while
the power sync waits for a hung BMC.
"""

import datetime
import json
import os
import socket
import threading
import uuid as uuid_mod

import pytest
import sqlalchemy as sa

from tests.functional import conftest
from tests.functional import procs
from tests import timeouts

# The bound of the tests: a hung request ends within it (the conductor
# answers a little earlier, at 8 s), after waiting for its turn up to
# QUEUE_TIMEOUT ([api]request_queue_timeout); a call with no bound would
# take the redfish timeouts below times the attempts (10 x 10 s and more).
RPC_TIMEOUT = 10
QUEUE_TIMEOUT = 10
REDFISH = {'connection_attempts': 10, 'connection_retry_interval': 1,
           'connect_timeout': 2, 'read_timeout': 10}


class SilentBMC(object):
    """Accepts TCP connections; never reads, never answers."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(('127.0.0.1', 0))
        self.sock.listen(1024)
        self.address = 'http://127.0.0.1:%d' % self.sock.getsockname()[1]
        self.accepted = []
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def _accept(self):
        while True:
            try:
                self.accepted.append(self.sock.accept()[0])
            except OSError:
                return

    def close(self):
        self.sock.close()
        for conn in self.accepted:
            conn.close()


@pytest.fixture(scope='module')
def bmc():
    silent = SilentBMC()
    yield silent
    silent.close()


def _config(directory, **conductor):
    return {
        'DEFAULT': {'state_path': os.path.join(directory, 'state'),
                    'host': conftest.CONDUCTOR_HOST,
                    'rpc_response_timeout': RPC_TIMEOUT},
        # 64 clients at once from one address: no cap per client.
        'api': {'host_ip': '127.0.0.1', 'port': procs.free_port(),
                'max_connections': 200,
                'request_queue_timeout': QUEUE_TIMEOUT},
        'conductor': dict({'heartbeat_interval': 1,
                           'enabled_hardware_types': 'fake-hardware,redfish',
                           'sync_power_state_interval': 0}, **conductor),
        'redfish': REDFISH,
    }


def _start_lite(directory, **conductor):
    sections = _config(directory, **conductor)
    config = procs.write_config(os.path.join(directory, 'ironic.conf'),
                                sections)
    service = procs.Service('ironic-lite', config, directory)
    service.base = 'http://127.0.0.1:%d' % sections['api']['port']
    procs.wait_http(service.base + '/v1', service)
    return service


@pytest.fixture(scope='module')
def lite(tmp_path_factory):
    service = _start_lite(str(tmp_path_factory.mktemp('hung')))
    yield service.base
    conftest.stop_lite(service)


def _faultstring(body):
    """The message of Ironic's error body (a JSON document in a string)."""
    return json.loads(body['error_message'])['faultstring']


def _call(base, method, path, body=None):
    status, _headers, parsed = procs.http(method, base + path, body)
    return status, parsed


def _enroll(base, bmc, count):
    info = {'redfish_address': bmc.address, 'redfish_username': 'admin',
            'redfish_password': 'secret'}
    uuids = []
    for _ in range(count):
        status, node = _call(base, 'POST', '/v1/nodes',
                             {'driver': 'redfish', 'driver_info': info})
        assert status == 201, node
        uuids.append(node['uuid'])
    return uuids


def _light_node(base):
    status, node = _call(base, 'POST', '/v1/nodes',
                         {'driver': 'fake-hardware'})
    assert status == 201, node
    return node['uuid']


def _in_threads(func, args_list):
    """Start ``func(*args)`` for each; (threads, results) -- results
    fill as they end."""
    results = []

    def run(*args):
        results.append(func(*args))
    threads = [threading.Thread(target=run, args=args, daemon=True)
               for args in args_list]
    for thread in threads:
        thread.start()
    return threads, results


def _hung_requests_leave_the_api_serving(base, bmc, count):
    hung = _enroll(base, bmc, count)
    light = _light_node(base)

    def boot_device(uuid):
        return _call(base, 'GET',
                     '/v1/nodes/%s/management/boot_device' % uuid)
    before = len(bmc.accepted)
    threads, results = _in_threads(boot_device, [(u,) for u in hung])
    # Wait until BMC calls are really pending, then ask for other things.
    procs.wait_for(lambda: len(bmc.accepted) > before,
                   what='a call to the silent BMC')
    served = []
    for _ in range(5):
        for method, path, body in (
                ('GET', '/v1/nodes/%s' % light, None),
                ('GET', '/v1/nodes?limit=5', None),
                ('PATCH', '/v1/nodes/%s' % light,
                 [{'op': 'add', 'path': '/extra/n', 'value': len(served)}])):
            status, answer = _call(base, method, path, body)
            assert status == 200, answer
            served.append(len(results) < count)
    # Answered while hung requests were still pending.
    assert served[0] and served.count(True) >= 3, served
    for thread in threads:
        thread.join(timeouts.HANG)
    assert len(results) == count
    for status, body in results:
        # A 503 in Ironic's error body: the BMC's deadline, or no turn
        # among the requests waiting for BMCs in time (nothing sent).  The
        # message is the proof that a bound ended the call (no time is
        # asserted): a call with no bound would end, after the redfish
        # attempts (10 x 10 s), with sushy's connection error instead.
        assert status == 503, body
        message = _faultstring(body)
        assert ('did not answer within' in message
                or 'waiting for a BMC' in message), message
        assert 'Traceback' not in str(body)
    assert any('BMC of node' in _faultstring(body)
               for _s, body in results)


@pytest.mark.long(60)
@pytest.mark.parametrize('count', [8, 64])
def test_hung_bmcs_in_the_all_in_one(lite, bmc, count):
    _hung_requests_leave_the_api_serving(lite, bmc, count)


@pytest.mark.long(60)
@pytest.mark.backend
@pytest.mark.parametrize('count', [8, 64])
def test_hung_bmcs_in_a_split_deployment(tmp_path, postgresql_url,
                                         rabbit_url, bmc, count):
    common = _config(str(tmp_path))
    common['DEFAULT'].update(
        transport_url=rabbit_url,
        control_exchange='hung-%s' % uuid_mod.uuid4().hex[:8])
    common['database'] = {'connection': postgresql_url}
    with procs.api_and_conductor(tmp_path, common, 'api-hung',
                                 'cond-hung') as split:
        _hung_requests_leave_the_api_serving(split.base, bmc, count)


@pytest.mark.long(60)
def test_power_actions_on_hung_bmcs_leave_others_served(lite, bmc):
    hung = _enroll(lite, bmc, 16)
    for uuid in hung:
        status, body = _call(lite, 'PUT', '/v1/nodes/%s/states/power' % uuid,
                             {'target': 'power on'})
        assert status == 202, body
    light = _light_node(lite)
    status, body = _call(lite, 'PUT', '/v1/nodes/%s/states/power' % light,
                         {'target': 'power on'})
    assert status == 202, body
    procs.wait_power_state(lite, light, 'power on')
    # Served while the hung power actions were still running.
    pending = [uuid for uuid in hung if _call(
        lite, 'GET', '/v1/nodes/%s' % uuid)[1]['target_power_state']]
    assert pending


def _dead_conductor_deploying(db_url, uuid):
    """A conductor whose heartbeat stopped an hour ago, holding ``uuid``
    in ``deploying`` (as after kill -9 mid-deploy)."""
    engine = sa.create_engine(db_url)
    old = datetime.datetime.utcnow() - datetime.timedelta(hours=1)
    try:
        with engine.begin() as conn:
            conn.execute(sa.text(
                "INSERT INTO conductors (hostname, drivers, online, "
                "conductor_group, created_at, updated_at) VALUES "
                "('dead-host', '[\"fake-hardware\"]', :t, '', :old, :old)"),
                {'old': old, 't': True})
            conn.execute(sa.text(
                "UPDATE nodes SET provision_state = 'deploying', "
                "target_provision_state = 'active', "
                "reservation = 'dead-host' WHERE uuid = :uuid"),
                {'uuid': uuid})
    finally:
        engine.dispose()


def _locked(base, uuid):
    return _call(base, 'GET', '/v1/nodes/%s' % uuid)[1]['reservation']


def _taken_over(base, uuid):
    node = _call(base, 'GET', '/v1/nodes/%s' % uuid)[1]
    return (node['provision_state'] == 'deploy failed'
            and node['reservation'] is None and bool(node['last_error']))


@pytest.mark.long(90)
def test_takeover_while_the_power_sync_waits_for_a_hung_bmc(tmp_path,
                                                            monkeypatch):
    """The sync's call waits for the BMC for a whole read timeout (60 s)
    and holds the node's lock meanwhile; the dead conductor's node is
    taken over before it ends."""
    monkeypatch.setitem(REDFISH, 'read_timeout', 60)
    bmc = SilentBMC()
    service = _start_lite(str(tmp_path), sync_power_state_interval=1,
                          sync_power_state_workers=1,
                          check_provision_state_interval=1,
                          heartbeat_timeout=5)
    base = service.base
    try:
        [hung] = _enroll(base, bmc, 1)
        db_url = 'sqlite:///%s' % os.path.join(str(tmp_path), 'state',
                                               'ironic-lite.sqlite')
        engine = sa.create_engine(db_url)
        with engine.begin() as conn:
            conn.execute(sa.text("UPDATE nodes SET provision_state = "
                                 "'manageable' WHERE uuid = :u"), {'u': hung})
        engine.dispose()
        # The power sync is now waiting for the silent BMC, holding the
        # node's lock.
        procs.wait_for(lambda: _locked(base, hung),
                       what='the power sync calling the hung BMC')
        orphan = _light_node(base)
        _dead_conductor_deploying(db_url, orphan)
        # Taken over: failed and unlocked (the state is saved under the
        # lock, released just after; the power sync, every second, also
        # locks the node a moment -- so both are awaited together).
        procs.wait_for(lambda: _taken_over(base, orphan),
                       what='the dead conductor\'s node taken over')
        # Taken over while the sync still waited for the hung BMC.
        assert _locked(base, hung)
    finally:
        bmc.close()   # the BMC's calls now fail at once
        conftest.stop_lite(service)
