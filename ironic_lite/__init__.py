"""ironic-lite: a compact, rolling-upgradable, Ironic-compatible service."""

# No eventlet anywhere: oslo.service (pulled in by oslo.messaging) must use
# its threading backend.  A hook (not init_backend) keeps any explicit
# choice made by an embedding program.
from oslo_service import backend as _oslo_service_backend

_oslo_service_backend.register_backend_default_hook(
    lambda: _oslo_service_backend.BackendType.THREADING)
