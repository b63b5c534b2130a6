"""Start-up of every command: parse the configuration, set up logging."""

import logging as stdlib_logging
import os
import re
import sys

from oslo_config import cfg
from oslo_log import log as logging

from ironic_lite.common import release_mappings
from ironic_lite import conf
from ironic_lite.conf import ironic_options
from ironic_lite import version

CONF = conf.CONF
LOG = logging.getLogger(__name__)
_LOGGING_REGISTERED = False

# oslo.service logs three INFO lines about choosing its (threading)
# backend in every command, and alembic seven "setup plugin" lines when
# it is imported after logging is set up (the objects import it through
# ironic_lite.db.migration: each process of the WSGI application did):
# nothing an operator can act on.  What alembic migrates ("Running
# upgrade ...") is still logged.
QUIET_LOGGERS = ['oslo_service.backend=WARN',
                 'alembic.runtime.plugins=WARN']


class _ClosingChannelFilter(stdlib_logging.Filter):
    """Drop py-amqp's "Received method (60, 30) during closing channel"
    warning: the broker confirming a consumer cancel (basic.cancel-ok)
    while the channel closes, which happens at every graceful stop of an
    RPC server and means nothing is wrong."""

    def filter(self, record):
        return 'during closing channel' not in record.getMessage()


def _quiet_logging():
    levels = logging.get_default_log_levels()
    logging.set_defaults(default_log_levels=levels + [
        q for q in QUIET_LOGGERS if q not in levels])
    amqp_logger = stdlib_logging.getLogger('amqp')
    if not any(isinstance(f, _ClosingChannelFilter)
               for f in amqp_logger.filters):
        amqp_logger.addFilter(_ClosingChannelFilter())


def parse_args(argv, prog, default_config_files=None, overrides=None):
    """Parse the command line and config files, as Ironic's commands do.

    The project name is ``ironic`` so ``/etc/ironic/ironic.conf`` is found
    like Ironic's.  Exits with a clear message when the configuration is
    not valid (an unknown ``pin_release_version`` above all).
    ``overrides``, when given, is called once the command line is parsed
    and before anything reads the options (a command's own options that
    override configuration options).
    """
    global _LOGGING_REGISTERED
    if not _LOGGING_REGISTERED:
        logging.register_options(CONF)
        # Logs go to stderr, so that what a command prints on stdout
        # (e.g. "ironic-dbsync version") can be read by scripts.
        CONF.set_default('use_stderr', True)
        _quiet_logging()
        _LOGGING_REGISTERED = True
    CONF(argv, project='ironic', prog=prog,
         version=version.VERSION_STRING,
         default_config_files=default_config_files)
    if overrides is not None:
        overrides()
    logging.setup(CONF, 'ironic')
    ironic_options.warn_unimplemented(CONF)
    check_pin()
    _ensure_sqlite_dir()


def _ensure_sqlite_dir():
    """Create the directory of a file-based SQLite database."""
    url = CONF.database.connection or ''
    if url.startswith('sqlite:///') and url != 'sqlite://':
        directory = os.path.dirname(url[len('sqlite:///'):])
        if directory:
            os.makedirs(directory, exist_ok=True)


def pin_problem():
    """What is wrong with ``[DEFAULT]pin_release_version``, in an
    operator's words (oslo.config's own message names its internals), or
    None when the pin is unset, names a known release or is ``auto``."""
    try:
        CONF.pin_release_version
    except (cfg.ConfigFileValueError, ValueError) as err:
        found = re.search(r"but found (.+?)\)?$", str(err))
        value = found.group(1) if found else 'the value given'
        known = ', '.join(release_mappings.pin_choices()) or '(none yet)'
        return ('[DEFAULT]/pin_release_version = %s is not a release this '
                'code knows. Valid values: %s (auto: follow the oldest '
                'live service); leave it unset to run unpinned.'
                % (value, known))
    return _too_old_pin(CONF.pin_release_version)


def _too_old_pin(pin):
    """A pin to a release this code does not roll from: its services
    cannot run beside this code, so neither can a pin to it."""
    if not pin or pin == release_mappings.AUTO or (
            release_mappings.can_roll_from(pin)):
        return None
    return ('[DEFAULT]/pin_release_version = %s names a release this code '
            'cannot run beside: it is rolled to from %s only (see the '
            'upgrade guide\'s skip-level upgrades). Upgrade the deployment '
            'to one of these first.'
            % (pin, ', '.join(release_mappings.rolls_from())))


def check_pin():
    """Stop the service when the pin names no known release."""
    problem = pin_problem()
    if problem:
        sys.exit('ERROR: ' + problem)
