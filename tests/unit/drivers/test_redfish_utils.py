"""The redfish driver_info parsing, client cache and error mapping, with
sushy mocked (no sockets)."""

import base64
import types
from unittest import mock

import pytest
import sushy

from ironic_lite.common import exception
from ironic_lite.drivers.redfish import utils

UUID = '1be26c0b-03f2-4d2e-ae87-c02d7f33c123'


def _node(**info):
    return types.SimpleNamespace(uuid=UUID, driver='redfish',
                                 driver_info=info)


@pytest.fixture(autouse=True)
def empty_cache(monkeypatch):
    monkeypatch.setattr(utils, '_clients', type(utils._clients)())


def test_parse_defaults_https_and_keeps_the_path():
    info = utils.parse_driver_info(_node(
        redfish_address='bmc.example.com:8443/custom/v1',
        redfish_username='u', redfish_password='p'))
    assert info['address'] == 'https://bmc.example.com:8443'
    assert info['root_prefix'] == '/custom/v1'
    assert (info['verify_ca'], info['auth_type'], info['system_id']) == (
        True, 'auto', None)


def test_parse_quotes_system_id_and_reads_verify_ca_strings():
    info = utils.parse_driver_info(_node(
        redfish_address='http://10.0.0.1', redfish_system_id='/S ys/1',
        redfish_verify_ca='false'))
    assert info['system_id'] == '/S%20ys/1'
    assert info['verify_ca'] is False
    assert 'root_prefix' not in info


@pytest.mark.parametrize('info, message', [
    ({}, "Missing the following Redfish properties in node %s driver_info: "
         "['redfish_address']" % UUID),
    ({'redfish_address': 'ftp://x'},
     'Invalid Redfish address ftp://x set in driver_info/redfish_address on '
     'node %s' % UUID),
    ({'redfish_address': 'http://x', 'redfish_auth_type': 'digest'},
     'Invalid value "digest" set in driver_info/redfish_auth_type on node '
     '%s. The value should be one of "basic", "session" or "auto".' % UUID),
    ({'redfish_address': 'http://x', 'redfish_verify_ca': 'maybe'},
     'Invalid value type set in driver_info/redfish_verify_ca on node %s. '
     'The value should be a Boolean or the path to a file/directory, not '
     '"maybe"' % UUID),
    ({'redfish_address': 'http://x', 'redfish_system_id': 5},
     'Invalid value "5" set in driver_info/redfish_system_id on node %s. The '
     'value should be a path (string) to the resource that the driver will '
     'interact with. For example: /redfish/v1/Systems/1' % UUID),
])
def test_parse_refuses_with_ironics_messages(info, message):
    with pytest.raises(exception.InvalidParameterValue) as err:
        utils.parse_driver_info(_node(**info))
    assert str(err.value) == message


def test_invalid_address_message_has_no_credentials():
    with pytest.raises(exception.InvalidParameterValue) as err:
        utils.parse_driver_info(_node(
            redfish_address='http://root:hunter2@bmc:99999'))
    assert 'hunter2' not in str(err.value)


def test_one_client_per_bmc_and_credentials(conf_fixture):
    with mock.patch.object(sushy, 'Sushy') as client:
        node = _node(redfish_address='http://bmc', redfish_password='a')
        utils.call(node, lambda c: None)
        utils.call(node, lambda c: None)
        assert client.call_count == 1
        node.driver_info['redfish_password'] = 'b'
        utils.call(node, lambda c: None)
        assert client.call_count == 2
        kwargs = client.call_args.kwargs
        assert (kwargs['connect_timeout'], kwargs['read_timeout']) == (30, 60)


def test_the_cache_is_bounded(conf_fixture):
    conf_fixture.config(connection_cache_size=2, group='redfish')
    with mock.patch.object(sushy, 'Sushy'):
        for n in range(5):
            utils.call(_node(redfish_address='http://bmc%d' % n),
                       lambda c: None)
    assert len(utils._clients) == 2


def _failing(err):
    def fail(client):
        raise err
    return fail


def test_connection_errors_are_retried_then_mapped(conf_fixture,
                                                   monkeypatch):
    conf_fixture.config(connection_attempts=3, group='redfish')
    sleeps = []
    monkeypatch.setattr(utils.time, 'sleep', sleeps.append)
    node = _node(redfish_address='http://admin:hunter2@bmc:8000',
                 redfish_password='hunter2')
    err = sushy.exceptions.ConnectionError(
        url='http://admin:hunter2@bmc:8000/redfish/v1/', error='refused')
    with mock.patch.object(sushy, 'Sushy'):
        with pytest.raises(exception.RedfishConnectionError) as raised:
            utils.call(node, _failing(err))
    assert len(sleeps) == 2
    assert str(raised.value) == ('Redfish connection failed for node %s: '
                                 'unable to connect to the BMC at '
                                 'http://bmc:8000' % UUID)
    assert raised.value.code == 503
    assert not utils._clients   # the failed client was dropped


def test_access_denied_is_not_retried_and_names_the_keys(conf_fixture):
    node = _node(redfish_address='http://bmc', redfish_password='pw-x')
    response = mock.Mock(status_code=401, json=mock.Mock(return_value={}))
    err = sushy.exceptions.AccessError(method='GET', url='http://bmc/x',
                                       response=response)
    calls = []

    def denied(client):
        calls.append(client)
        raise err
    with mock.patch.object(sushy, 'Sushy'):
        with pytest.raises(exception.RedfishError) as raised:
            utils.call(node, denied)
    assert len(calls) == 1
    assert raised.value.code == 400
    assert 'was denied (HTTP 401)' in str(raised.value)
    assert 'redfish_password' in str(raised.value)


def test_other_errors_are_scrubbed():
    node = _node(redfish_address='http://u:pw-secret@bmc',
                 redfish_password='pw-secret')
    err = sushy.exceptions.SushyError('boom at http://u:pw-secret@bmc with '
                                      'pw-secret')
    text = str(utils.translate(err, node))
    assert 'pw-secret' not in text
    assert 'http://bmc' in text


def _echoing(password):
    """A BMC's answer echoing the request: its credentials in every form,
    and megabytes of it."""
    basic = base64.b64encode(('root:%s' % password).encode()).decode()
    return ('HTTP GET http://u:%s@bmc/redfish/v1 returned code 500: '
            "{'Authorization': 'Basic %s'} Authorization: Basic %s "
            '{"Password": "%s"} plain %s ' % (password, basic, basic,
                                              password, password)
            + 'z' * (4 * 1024 * 1024)), basic


def test_a_bmc_echoing_credentials_is_bounded_and_scrubbed(
        conf_fixture, caplog, monkeypatch):
    conf_fixture.config(connection_attempts=1, group='redfish')
    node = _node(redfish_address='http://u:pw-secret@bmc',
                 redfish_username='root', redfish_password='pw-secret')
    text, basic = _echoing('pw-secret')
    with mock.patch.object(sushy, 'Sushy'):
        with pytest.raises(exception.RedfishError) as raised:
            utils.call(node, _failing(sushy.exceptions.SushyError(text)))
    logged = [r.getMessage() for r in caplog.records]
    assert logged
    for message in logged + [str(raised.value)]:
        assert len(message) <= 4096 + 200
        assert 'pw-secret' not in message and basic not in message
    assert 'http://bmc/redfish/v1' in str(raised.value)


def test_restoring_the_boot_device_logs_no_credentials(caplog):
    from ironic_lite.drivers.redfish import management
    node = _node(redfish_address='http://u:pw-secret@bmc',
                 redfish_username='root', redfish_password='pw-secret')
    node.driver_internal_info = {'redfish_boot_device': 'pxe'}
    text, basic = _echoing('pw-secret')
    system = mock.Mock()
    system.set_system_boot_options.side_effect = (
        sushy.exceptions.SushyError(text))
    management.restore_boot_device(types.SimpleNamespace(node=node), system)
    logged = [r.getMessage() for r in caplog.records]
    assert any('Unable to recover boot device' in m for m in logged)
    for message in logged:
        assert len(message) <= 4096 + 200
        assert 'pw-secret' not in message and basic not in message


def test_an_address_of_another_type_is_shown_without_credentials():
    node = _node(redfish_address=['https://u:pw-secret@bmc'])
    with pytest.raises(exception.InvalidParameterValue) as raised:
        utils.parse_driver_info(node)
    assert 'pw-secret' not in str(raised.value)
    assert "['https://bmc']" in str(raised.value)
