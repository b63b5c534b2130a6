"""The request context passed through every layer and over RPC."""

from oslo_config import cfg
from oslo_context import context

CONF = cfg.CONF


class RequestContext(context.RequestContext):
    """Ironic's request context: oslo.context with policy values."""

    def to_policy_values(self):
        # A plain dict: oslo.context's own mapping takes every key added
        # to it for a deprecated one, and warns each time oslo.policy (or
        # the target built from it) reads one -- but these keys are part
        # of the policy defaults, Ironic's "service_role" rule included.
        values = dict(super().to_policy_values())
        values['project_name'] = self.project_name
        # As Ironic: the "service_role" rule matches the service project
        # only when the operator gives service users elevated access.
        if (CONF.rbac_service_role_elevated_access
                and CONF.rbac_service_project_name):
            values['config.service_project_name'] = (
                CONF.rbac_service_project_name)
        return values

    @classmethod
    def from_dict(cls, values, **kwargs):
        kwargs.setdefault('auth_token', values.get('auth_token'))
        return super().from_dict(values, **kwargs)


def get_admin_context():
    """A context for internal work (periodic tasks, commands)."""
    return RequestContext(is_admin=True, overwrite=False,
                          roles=['admin'], system_scope='all')
