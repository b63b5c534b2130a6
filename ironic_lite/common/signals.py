"""The signals a service process answers.

SIGTERM and SIGINT ask for a graceful stop (whatever ``handled`` is given
to call; the launcher stops its services); SIGHUP re-reads the
configuration files, has a ``pin_release_version = auto`` service read
the live services again (``common/release_pin.py``), and keeps running.
"""

import contextlib
import signal

from oslo_log import log as logging

from ironic_lite.common import release_pin
from ironic_lite import conf

CONF = conf.CONF
LOG = logging.getLogger(__name__)

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


def reload_config(signum=None, frame=None):
    """SIGHUP: re-read the configuration files.

    Only options marked mutable change (oslo.config logs a warning for any
    other option that changed in the files: those take a restart).
    """
    LOG.info('Caught SIGHUP, reloading the configuration files')
    try:
        CONF.mutate_config_files()
    except Exception:
        LOG.exception('Reloading the configuration failed; keeping the '
                      'running configuration')
    # pin_release_version = auto: read the live services again now.
    release_pin.request_refresh()


@contextlib.contextmanager
def handled(request_stop):
    """Within the block, SIGTERM and SIGINT call ``request_stop(signum,
    frame)`` and SIGHUP reloads the configuration; the handlers before
    the block come back after it."""
    previous = {sig: signal.signal(sig, request_stop)
                for sig in STOP_SIGNALS}
    previous[signal.SIGHUP] = signal.signal(signal.SIGHUP, reload_config)
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
