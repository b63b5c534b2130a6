"""What every command's start-up does to logging."""

import logging

from ironic_lite.common import config


def test_commands_do_not_log_the_oslo_service_backend(tmp_path):
    conf_file = tmp_path / 'ironic.conf'
    conf_file.write_text('[DEFAULT]\nstate_path = %s\n' % tmp_path)
    config.parse_args(['--config-file', str(conf_file)], prog='test')
    assert 'oslo_service.backend=WARN' in config.CONF.default_log_levels
    assert not logging.getLogger('oslo_service.backend').isEnabledFor(
        logging.INFO)


def test_commands_do_not_log_alembic_plugins(tmp_path):
    """Every service imports alembic (ironic_lite.db.migration); its seven
    "setup plugin" INFO lines are not logged, what it migrates is."""
    conf_file = tmp_path / 'ironic.conf'
    conf_file.write_text('[DEFAULT]\nstate_path = %s\n' % tmp_path)
    config.parse_args(['--config-file', str(conf_file)], prog='test')
    assert not logging.getLogger('alembic.runtime.plugins').isEnabledFor(
        logging.INFO)
    assert logging.getLogger('alembic.runtime.migration').isEnabledFor(
        logging.INFO)


def test_amqp_closing_channel_warning_is_dropped():
    config._quiet_logging()
    amqp = logging.getLogger('amqp')
    noise = amqp.makeRecord('amqp', logging.WARNING, __file__, 1,
                            'Received method %s during closing channel %s. '
                            'This method will be ignored',
                            ((60, 30), 1), None)
    other = amqp.makeRecord('amqp', logging.WARNING, __file__, 1,
                            'Connection lost', (), None)
    assert not all(f.filter(noise) for f in amqp.filters)
    assert all(f.filter(other) for f in amqp.filters)
