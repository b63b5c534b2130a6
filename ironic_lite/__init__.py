"""ironic-lite: a compact, rolling-upgradable, Ironic-compatible service."""

# No eventlet anywhere: oslo.service (pulled in by oslo.messaging) must use
# its threading backend.  A hook (not init_backend) keeps any explicit
# choice made by an embedding program.
from oslo_service import backend as _oslo_service_backend

_oslo_service_backend.register_backend_default_hook(
    lambda: _oslo_service_backend.BackendType.THREADING)

# futurist (and oslo.concurrency, oslo.log) import eventlet when it happens
# to be installed -- oslo.service depends on it -- only to find out whether
# it monkey-patched the process.  ironic-lite never uses it, and the import
# (eventlet, dnspython) is a fifth of a command's start-up CPU and warns
# that eventlet is deprecated: unless the embedding program loaded it
# already, ``import eventlet`` fails here, as if it were not installed,
# which every one of those libraries handles.
import sys as _sys  # noqa: E402

if 'eventlet' not in _sys.modules:
    _sys.modules['eventlet'] = None
