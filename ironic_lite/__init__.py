"""ironic-lite: a compact, rolling-upgradable, Ironic-compatible service."""

# No eventlet anywhere: oslo.service (pulled in by oslo.messaging) must use
# its threading backend.  A hook (not init_backend) keeps any explicit
# choice made by an embedding program.
from oslo_service import backend as _oslo_service_backend

_oslo_service_backend.register_backend_default_hook(
    lambda: _oslo_service_backend.BackendType.THREADING)

# futurist imports eventlet when it happens to be installed (oslo.service
# depends on it) and eventlet warns on import; ironic-lite never uses it,
# so the warning would only confuse operators.
import warnings as _warnings  # noqa: E402

_warnings.filterwarnings('ignore', message='\\s*Eventlet is deprecated')
