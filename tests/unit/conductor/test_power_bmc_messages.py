"""What a BMC says reaches the node and the log bounded and scrubbed, on
every backend: a 4 MB error full of credentials stores at most
[DEFAULT]log_in_db_max_size characters, none of them a credential, and a
write the database refuses leaves a generic message, never SQL."""

import base64
import logging

import pytest

from ironic_lite.common import exception
from ironic_lite.common import states
from ironic_lite.drivers import fake_hardware
from ironic_lite import objects
from tests.unit.conductor import conftest

PASSWORD = 'hunter2-Secret'
URL_PASSWORD = 'urlPass77'
TOKEN = 'tok3n-abcdef'
SECRETS = (PASSWORD, URL_PASSWORD, TOKEN,
           base64.b64encode(('root:%s' % PASSWORD).encode()).decode())
DRIVER_INFO = {'redfish_address': 'https://bmc:%s@192.0.2.1' % URL_PASSWORD,
               'redfish_username': 'root', 'redfish_password': PASSWORD}
SQL_WORDS = ('SELECT ', 'UPDATE ', 'INSERT ', '[SQL', '[parameters')


def _echo():
    """What a hostile BMC answers: its request echoed back, credentials
    in every form, and 4 MB of padding."""
    creds = ('Authorization: Basic %s; X-Auth-Token: %s; {"Password": "%s"};'
             ' redfish_password=%s; https://bmc:%s@192.0.2.1/redfish/v1; '
             'plain %s' % (SECRETS[3], TOKEN, PASSWORD, PASSWORD,
                           URL_PASSWORD, PASSWORD))
    return creds + 'x' * (4 * 1024 * 1024) + creds


@pytest.fixture
def database(db_url, config, use_db):
    """The conductor tests' database, on each backend in turn."""
    yield from conftest.conductor_database(use_db, db_url)


def _leaks(text):
    return [s for s in SECRETS + SQL_WORDS if s in (text or '')]


def _logged(caplog):
    for record in caplog.records:
        text = record.getMessage()
        if record.exc_info:
            text += logging.Formatter().formatException(record.exc_info)
        yield text


def test_a_4mb_bmc_error_stores_4kb_without_credentials(
        monkeypatch, caplog, context, rpc_api, make_node, wait_node):
    def fail(self, task, power_state, timeout=None):
        raise exception.IronicException(_echo())
    monkeypatch.setattr(fake_hardware.FakePower, 'set_power_state', fail)
    node = make_node(provision_state='manageable', power_state='power off',
                     driver_info=DRIVER_INFO)
    caplog.set_level(logging.INFO)
    rpc_api.change_node_power_state(context, node, states.POWER_ON)
    node = wait_node(node.uuid, target_power_state=None)
    assert node.power_state == states.POWER_OFF
    assert node.last_error.startswith("Failed to change power state to "
                                      "'power on' by 'power on'. Error: ")
    assert len(node.last_error) <= 4096
    assert _leaks(node.last_error) == []
    assert '***' in node.last_error
    # driver_info holds the credentials by design (the API masks them).
    for name in set(node.fields) - {'driver_info'}:
        assert _leaks(str(getattr(node, name))) == [], name
    events = objects.NodeHistory.list_by_node_id(context, node.id)
    assert events
    for event in events:
        assert len(event.event) <= 4096 and _leaks(event.event) == []
    logged = list(_logged(caplog))
    assert logged
    for text in logged:
        assert len(text) < 3 * 4096, text[:200]
        assert _leaks(text) == [], text[:500]


def test_the_bound_is_ironics_option(config, context, make_node):
    config.set_override('log_in_db_max_size', 300)
    node = make_node(driver_info=DRIVER_INFO)
    node.last_error = _echo()
    node.maintenance_reason = 'password=%s ' % PASSWORD + 'y' * 1000
    node.save()
    stored = objects.Node.get_by_uuid(context, node.uuid)
    assert len(stored.last_error) == 300
    assert stored.last_error.endswith(' ... [truncated]')
    assert len(stored.maintenance_reason) == 300
    assert _leaks(stored.last_error + stored.maintenance_reason) == []


def test_a_refused_write_stores_no_sql(caplog, db_url, context, make_node):
    node = make_node(driver_info=DRIVER_INFO)
    # 300 characters in a 255-character column: MariaDB and PostgreSQL
    # refuse it (SQLite has no length limit: the write goes through).
    node.power_interface = 'p' * 300
    node.last_error = 'plain %s' % PASSWORD
    if db_url.startswith('sqlite'):
        node.save()
        return
    with pytest.raises(exception.DatabaseWriteRefused) as raised:
        node.save()
    message = str(raised.value)
    assert message == ('The database refused to store the changes of node '
                       '%s; the service log has the reason.' % node.uuid)
    assert raised.value.__suppress_context__
    for text in list(_logged(caplog)) + [message]:
        assert _leaks(text) == [], text
        assert 'p' * 100 not in text
