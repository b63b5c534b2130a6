"""ironic-lite's command line: where the embedded default listens."""

import pytest

from ironic_lite.cmd import lite
from ironic_lite import conf

CONF = conf.CONF


@pytest.fixture
def config_file(tmp_path):
    def write(text=''):
        path = tmp_path / 'ironic.conf'
        path.write_text(text)
        return ['--config-file', str(path)]
    return write


def test_listens_on_loopback_by_default(config_file):
    lite.parse_args(config_file())
    assert (CONF.api.host_ip, CONF.api.port) == ('127.0.0.1', 6385)


def test_host_and_port_options(config_file):
    lite.parse_args(config_file() + ['--host', '0.0.0.0', '--port', '7001'])
    assert (CONF.api.host_ip, CONF.api.port) == ('0.0.0.0', 7001)


def test_the_configuration_file_still_wins_over_the_default(config_file):
    lite.parse_args(config_file('[api]\nhost_ip = 192.0.2.1\nport = 7002\n'))
    assert (CONF.api.host_ip, CONF.api.port) == ('192.0.2.1', 7002)


def test_options_win_over_the_configuration_file(config_file):
    args = config_file('[api]\nhost_ip = 192.0.2.1\nport = 7002\n')
    lite.parse_args(args + ['--port', '7003'])
    assert (CONF.api.host_ip, CONF.api.port) == ('192.0.2.1', 7003)


def test_a_bad_port_is_refused(config_file):
    with pytest.raises(SystemExit) as exc:
        lite.parse_args(config_file() + ['--port', '70000'])
    assert exc.value.code != 0


def test_state_path_option_moves_the_database(config_file, tmp_path):
    # (The connection is the default one, written out: a test before this
    # one may have cleared the defaults.)
    args = config_file(
        '[DEFAULT]\nstate_path = %s\n[database]\nconnection = '
        'sqlite:///$state_path/ironic-lite.sqlite\n' % (tmp_path / 'conf'))
    lite.parse_args(args + ['--state-path', str(tmp_path / 'cli')])
    assert CONF.state_path == str(tmp_path / 'cli')
    assert CONF.database.connection == (
        'sqlite:///%s/ironic-lite.sqlite' % (tmp_path / 'cli'))
    # The directory of the database is created where the option says.
    assert (tmp_path / 'cli').is_dir() and not (tmp_path / 'conf').exists()


def test_state_path_follows_xdg_state_home(monkeypatch, tmp_path):
    import importlib
    from ironic_lite.conf import default
    monkeypatch.setenv('XDG_STATE_HOME', str(tmp_path))
    opts = {o.name: o for o in importlib.reload(default).opts}
    assert opts['state_path'].default == str(tmp_path / 'ironic-lite')
    monkeypatch.delenv('XDG_STATE_HOME')
    opts = {o.name: o for o in importlib.reload(default).opts}
    assert opts['state_path'].default.endswith('/.local/state/ironic-lite')


def test_rpc_transport_none_is_the_in_process_transport(config_file):
    lite.parse_args(config_file('[DEFAULT]\nrpc_transport = none\n'
                                'transport_url = rabbit://h:5672/\n'))
    assert (CONF.rpc_transport, CONF.transport_url) == ('oslo', 'fake://')


def test_json_rpc_on_another_port_is_in_the_host_name(config_file):
    lite.parse_args(config_file('[DEFAULT]\nrpc_transport = json-rpc\n'
                                'host = 192.0.2.5\n'
                                '[json_rpc]\nport = 8090\n'))
    assert CONF.host == '192.0.2.5:8090'


def test_json_rpc_on_the_default_port_keeps_the_host_name(config_file):
    lite.parse_args(config_file('[DEFAULT]\nrpc_transport = json-rpc\n'
                                'host = 192.0.2.5\n'))
    assert CONF.host == '192.0.2.5'
