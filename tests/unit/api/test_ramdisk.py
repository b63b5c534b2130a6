"""The ramdisk agent's API (1.22): GET /v1/lookup and POST
/v1/heartbeat/{node_ident} -- shapes and codes per microversion, the
agent token's rules, its masking everywhere else, a pinned API's 409."""

import pytest

from tests.unit.api import utils

MAC = '52:54:00:12:34:56'
URL = 'http://192.0.2.10:9999'


@pytest.fixture
def waiting(client, node):
    """The node in wait call-back, with a port of MAC."""
    resp = client.post_json('/v1/ports', {'node_uuid': node['uuid'],
                                          'address': MAC})
    assert resp.status_int == 201, resp.text
    utils.set_node(node['uuid'], provision_state='wait call-back',
                   target_provision_state='active', deploy_interface='ramdisk')
    return node


def _lookup(client, query, version=None):
    return client.get('/v1/lookup?' + query, version=version)


def _heartbeat(client, ident, version=None, **body):
    body.setdefault('callback_url', URL)
    return client.post_json('/v1/heartbeat/%s' % ident, body,
                            version=version)


# -- lookup -------------------------------------------------------------------

def test_lookup_by_mac_gives_the_token_once(client, waiting, rpcapi):
    resp = _lookup(client, 'addresses=%s' % MAC.upper())
    assert resp.status_int == 200, resp.text
    body = resp.json
    assert sorted(body) == ['config', 'node']
    assert sorted(body['node']) == ['driver_internal_info', 'instance_info',
                                    'links', 'properties', 'uuid']
    assert body['node']['uuid'] == waiting['uuid']
    token = body['config']['agent_token']
    assert token == 'token-of-' + waiting['uuid']
    assert body['config']['agent_token_required'] is True
    assert body['config']['heartbeat_timeout'] == 300
    # Stored as Ironic does; masked in the lookup's own node body.
    stored = utils.stored_node(waiting['uuid']).driver_internal_info
    assert stored['agent_secret_token'] == token
    assert body['node']['driver_internal_info']['agent_secret_token'] == (
        '******')
    # A second lookup: no token for whoever asks again.
    again = _lookup(client, 'node_uuid=%s' % waiting['uuid']).json
    assert again['config']['agent_token'] == '******'
    assert rpcapi.calls[-1] == ('get_node_with_token', waiting['uuid'])


def test_lookup_ignores_invalid_macs(client, waiting):
    resp = _lookup(client, 'addresses=nonsense,%s' % MAC)
    assert resp.status_int == 200, resp.text
    assert resp.json['node']['uuid'] == waiting['uuid']


@pytest.mark.parametrize('query', ['', 'addresses=nonsense',
                                   'addresses='])
def test_lookup_needs_an_address_or_uuid(client, waiting, query):
    resp = _lookup(client, query)
    assert resp.status_int == 400, resp.text
    assert utils.faultstring(resp) == (
        "At least one of 'addresses' and 'node_uuid' parameters is "
        "required")


def test_lookup_bad_uuid_is_400(client):
    resp = _lookup(client, 'node_uuid=nope')
    assert resp.status_int == 400
    assert utils.faultstring(resp) == 'Expected UUID for node_uuid: nope'


@pytest.mark.parametrize('state', ['available', 'active', 'manageable',
                                   'deploy failed'])
def test_lookup_refused_outside_waiting_states_is_the_same_404(
        client, waiting, state, rpcapi):
    utils.set_node(waiting['uuid'], provision_state=state)
    for query in ('addresses=%s' % MAC, 'node_uuid=%s' % waiting['uuid']):
        resp = _lookup(client, query)
        assert resp.status_int == 404, resp.text
        assert utils.faultstring(resp) == 'Resource could not be found.'
    unknown = _lookup(client, 'addresses=52:54:00:99:99:99')
    assert unknown.status_int == 404
    assert utils.faultstring(unknown) == 'Resource could not be found.'
    assert 'agent_secret_token' not in utils.stored_node(
                  waiting['uuid']).driver_internal_info
    assert not [c for c in rpcapi.calls if c[0] == 'get_node_with_token']


def test_lookup_unrestricted(client, waiting):
    from ironic_lite import conf
    utils.set_node(waiting['uuid'], provision_state='available')
    conf.CONF.set_override('restrict_lookup', False, group='api')
    try:
        assert _lookup(client, 'addresses=%s' % MAC).status_int == 200
    finally:
        conf.CONF.clear_override('restrict_lookup', group='api')


def test_lookup_of_macs_on_two_nodes_is_404(client, waiting):
    other = client.post_json('/v1/nodes', {'driver': 'fake-hardware'}).json
    mac2 = '52:54:00:12:34:57'
    client.post_json('/v1/ports', {'node_uuid': other['uuid'],
                                   'address': mac2})
    resp = _lookup(client, 'addresses=%s,%s' % (MAC, mac2))
    assert resp.status_int == 404


def _macs(count, start=0x100):
    return ['52:54:01:%02x:%02x:%02x' % (i >> 16 & 255, i >> 8 & 255,
                                         i & 255)
            for i in range(start, start + count)]


def _statements(run):
    """The SELECT statements ``run()`` sends to the database, and its
    result."""
    import sqlalchemy as sa

    from ironic_lite.db import api as db_api
    seen = []

    def record(conn, cursor, statement, params, context, many):
        if statement.lstrip().upper().startswith('SELECT'):
            seen.append(statement)
    engine = db_api.get_engine()
    sa.event.listen(engine, 'before_cursor_execute', record)
    try:
        return run(), seen
    finally:
        sa.event.remove(engine, 'before_cursor_execute', record)


def test_lookup_costs_the_same_statements_for_1_or_256_macs(client,
                                                            waiting):
    from ironic_lite.api.controllers.v1 import ramdisk
    counts = {}
    _lookup(client, 'addresses=%s' % MAC)   # the token, handed out once
    for many in (0, ramdisk.MAX_LOOKUP_ADDRESSES - 1):
        query = 'addresses=' + ','.join(_macs(many) + [MAC])
        resp, seen = _statements(lambda: _lookup(client, query))
        assert resp.status_int == 200, resp.text
        assert resp.json['node']['uuid'] == waiting['uuid']
        counts[many] = len(seen)
    # One statement finds the node's id, one reads it (with its traits),
    # one more is the (fake) conductor's reading it for the token.
    assert counts[0] == counts[ramdisk.MAX_LOOKUP_ADDRESSES - 1] <= 3, (
        counts, seen)


def test_lookup_of_unknown_macs_is_one_statement(client, waiting):
    query = 'addresses=' + ','.join(_macs(200))
    resp, seen = _statements(lambda: _lookup(client, query))
    assert resp.status_int == 404
    assert len(seen) == 1, seen


def test_lookup_of_too_many_addresses_is_400_before_any_statement(
        client, waiting):
    from ironic_lite.api.controllers.v1 import ramdisk
    many = ramdisk.MAX_LOOKUP_ADDRESSES + 1
    # Invalid ones count as well: each costs a check and a log.
    for macs in (_macs(many - 1) + [MAC], ['nonsense'] * many):
        query = 'addresses=' + ','.join(macs)
        resp, seen = _statements(lambda: _lookup(client, query))
        assert resp.status_int == 400, resp.text
        assert utils.faultstring(resp) == (
            'Too many addresses: %d given, at most %d are accepted.'
            % (many, ramdisk.MAX_LOOKUP_ADDRESSES))
        assert seen == []


def test_invalid_addresses_are_logged_bounded(client, waiting, caplog):
    junk = ['x' * 1000] * 200
    resp = _lookup(client, 'addresses=' + ','.join(junk + [MAC]))
    assert resp.status_int == 200, resp.text
    logged = [r.getMessage() for r in caplog.records
              if 'are invalid' in r.getMessage()]
    assert len(logged) == 1 and len(logged[0]) < 1200, len(logged[0])


def test_lookup_before_1_62_hands_out_no_token(client, waiting, rpcapi):
    resp = _lookup(client, 'addresses=%s' % MAC, version='1.61')
    assert resp.status_int == 200, resp.text
    assert resp.json['config']['agent_token'] is None
    assert not [c for c in rpcapi.calls if c[0] == 'get_node_with_token']


def test_lookup_and_heartbeat_are_404_before_1_22(client, waiting):
    assert _lookup(client, 'addresses=%s' % MAC,
                   version='1.21').status_int == 404
    resp = _heartbeat(client, waiting['uuid'], version='1.21',
                      agent_token='x')
    assert resp.status_int == 404


def test_v1_lists_lookup_and_heartbeat_from_1_22(client):
    body = client.get('/v1', version='1.22').json
    assert body['lookup'][0]['href'].endswith('/v1/lookup/')
    assert body['heartbeat'][0]['href'].endswith('/v1/heartbeat/')
    older = client.get('/v1', version='1.21').json
    assert 'lookup' not in older and 'heartbeat' not in older


# -- heartbeat ----------------------------------------------------------------

def _token(client):
    return _lookup(client, 'addresses=%s' % MAC).json['config'][
        'agent_token']


def test_heartbeat_with_the_token_is_202_and_deploys(client, waiting,
                                                     rpcapi):
    token = _token(client)
    resp = _heartbeat(client, waiting['uuid'], agent_token=token,
                      agent_version='10.0.0')
    assert resp.status_int == 202, resp.text
    assert resp.body == b''
    assert rpcapi.calls[-1] == ('heartbeat', waiting['uuid'], URL,
                                '10.0.0', None)
    node = utils.stored_node(waiting['uuid'])
    assert node.provision_state == 'active'
    assert node.driver_internal_info['agent_url'] == URL


def test_heartbeat_by_name(client, waiting):
    token = _token(client)
    resp = _heartbeat(client, waiting['name'], agent_token=token,
                      agent_version='10.0.0')
    assert resp.status_int == 202, resp.text


def test_heartbeat_naming_the_node_in_the_body(client, waiting):
    """Tempest's client form: POST /v1/heartbeat {node_ident, ...}."""
    token = _token(client)
    old = client.post_json('/v1/heartbeat', {
        'node_ident': waiting['uuid'], 'callback_url': URL,
        'agent_token': token}, version='1.21')
    assert old.status_int == 404
    resp = client.post_json('/v1/heartbeat', {
        'node_ident': waiting['uuid'], 'callback_url': URL,
        'agent_token': token, 'agent_version': '10.0.0'})
    assert resp.status_int == 202, resp.text
    assert utils.stored_node(waiting['uuid']).provision_state == 'active'
    resp = client.post_json('/v1/heartbeat', {'callback_url': URL})
    assert resp.status_int == 400
    assert utils.faultstring(resp) == (
        'Missing mandatory parameter: node_ident')


def test_heartbeat_with_a_wrong_token_is_400(client, waiting):
    _token(client)
    resp = _heartbeat(client, waiting['uuid'], agent_token='wrong',
                      agent_version='10.0.0')
    assert resp.status_int == 400
    assert utils.faultstring(resp) == (
        'Invalid or missing agent token received.')
    stored = utils.stored_node(waiting['uuid'])
    assert stored.provision_state == 'wait call-back'


def test_heartbeat_without_a_token_is_400(client, waiting, rpcapi):
    resp = _heartbeat(client, waiting['uuid'], agent_version='10.0.0')
    assert resp.status_int == 400
    assert utils.faultstring(resp) == (
        'Agent token is required for heartbeat processing.')
    assert not [c for c in rpcapi.calls if c[0] == 'heartbeat']


@pytest.mark.parametrize('body,message', [
    ({'callback_url': 'ftp://192.0.2.1/'},
     'An issue with the supplied "callback_url" has been detected.'),
    ({'agent_status': 'sleeping'},
     'Agent status is invalid. Valid states are start,end,error.'),
    ({'callback_url': 7}, 'Expected string for callback_url: 7'),
    ({'colour': 'red'}, 'Unexpected arguments: colour'),
])
def test_heartbeat_bad_input_is_400(client, waiting, rpcapi, body,
                                    message):
    body = dict({'agent_token': 'x'}, **body)
    resp = _heartbeat(client, waiting['uuid'], **body)
    assert resp.status_int == 400, resp.text
    assert utils.faultstring(resp) == message
    assert not [c for c in rpcapi.calls if c[0] == 'heartbeat']


def test_heartbeat_needs_a_callback_url(client, waiting):
    resp = client.post_json('/v1/heartbeat/%s' % waiting['uuid'],
                            {'agent_token': 'x'})
    assert resp.status_int == 400
    assert utils.faultstring(resp) == (
        'Missing mandatory parameter: callback_url')


def test_heartbeat_with_another_callback_url_is_400(client, waiting):
    token = _token(client)
    utils.set_node(waiting['uuid'], driver_internal_info=dict(
                  utils.stored_node(waiting['uuid']).driver_internal_info,
                  agent_url='http://192.0.2.99:9999'))
    resp = _heartbeat(client, waiting['uuid'], agent_token=token,
                      agent_version='1')
    assert resp.status_int == 400
    assert utils.faultstring(resp) == (
        'Detected change in ramdisk provided "callback_url"')


@pytest.mark.parametrize('field,value,version,message', [
    ('agent_version', '1.0', '1.35', 'Field "agent_version" not recognised'),
    ('agent_status', 'start', '1.71',
     'Fields "agent_status" and "agent_status_message" not recognised.'),
    ('agent_status_message', 'hi', '1.71',
     'Fields "agent_status" and "agent_status_message" not recognised.'),
    ('agent_verify_ca', '', '1.67',
     'Field "agent_verify_ca" not recognised in this version'),
])
def test_heartbeat_fields_gated_by_version(client, waiting, field, value,
                                           version, message):
    body = {'agent_token': 'x', field: value}
    resp = _heartbeat(client, waiting['uuid'], version=version, **body)
    assert resp.status_int == 400, resp.text
    assert utils.faultstring(resp) == message
    newer = '1.%d' % (int(version.split('.')[1]) + 1)
    resp = _heartbeat(client, waiting['uuid'], version=newer, **body)
    # Past the gate: the token is checked (wrong here).
    assert utils.faultstring(resp) != message


def test_heartbeat_of_unknown_node_is_404(client):
    resp = _heartbeat(client, 'no-such-node', agent_token='x')
    assert resp.status_int == 404
    assert utils.faultstring(resp) == 'Node no-such-node could not be found.'


def test_heartbeat_bad_ident_is_400(client):
    resp = _heartbeat(client, 'a b', agent_token='x')
    assert resp.status_int == 400
    assert utils.faultstring(resp) == (
        'Expected UUID or name for node_ident: a b')


# -- the token is never shown -------------------------------------------------

def test_token_masked_in_node_get_list_detail_and_patch(client, waiting):
    token = _token(client)
    uuid = waiting['uuid']
    # A state in which the node may be patched (its token kept).
    utils.set_node(uuid, provision_state='deploy failed')
    bodies = [client.get('/v1/nodes/%s' % uuid).json,
              client.get('/v1/nodes/detail').json['nodes'][0],
              client.get('/v1/nodes?fields=uuid,driver_internal_info'
                         ).json['nodes'][0],
              client.patch_json('/v1/nodes/%s' % uuid, [
                  {'op': 'add', 'path': '/extra/a', 'value': 'b'}]).json]
    for body in bodies:
        assert 'driver_internal_info' in body, body
        assert body['driver_internal_info']['agent_secret_token'] == (
            '******')
    refused = client.patch_json('/v1/nodes/%s' % uuid, [
        {'op': 'replace', 'path': '/driver_internal_info',
         'value': {}}])
    assert refused.status_int == 400
    # A patch cannot read it either (copy, move, test name a read-only
    # field: refused before anything is applied).
    reads = [client.patch_json('/v1/nodes/%s' % uuid, [
        dict(op, **{'from': '/driver_internal_info/agent_secret_token'}
             if op['op'] != 'test' else {})]) for op in (
        {'op': 'copy', 'path': '/extra/t'},
        {'op': 'move', 'path': '/extra/t'},
        {'op': 'test', 'path': '/driver_internal_info/agent_secret_token',
         'value': token})]
    assert [r.status_int for r in reads] == [400, 400, 400]
    assert utils.stored_node(uuid).extra == {'a': 'b'}
    for resp in [client.get('/v1/nodes/%s/states' % uuid),
                 refused] + reads + [client.get(p) for p in (
                     '/v1/nodes/%s' % uuid, '/v1/nodes/detail')]:
        assert token not in resp.text


# -- a pinned API ------------------------------------------------------------

def test_pinned_to_4_0_refuses_with_409_and_writes_nothing(
        client, waiting, config_pin, rpcapi):
    config_pin('4.0')
    resp = _lookup(client, 'addresses=%s' % MAC)
    assert resp.status_int == 409, resp.text
    assert 'pinned to release 4.0' in utils.faultstring(resp)
    assert 'agent_secret_token' not in utils.stored_node(
                  waiting['uuid']).driver_internal_info
    resp = _heartbeat(client, waiting['uuid'], agent_token='x',
                      agent_version='1')
    assert resp.status_int == 409, resp.text
    node = utils.stored_node(waiting['uuid'])
    assert node.provision_state == 'wait call-back'
    assert 'agent_url' not in node.driver_internal_info
