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


class carried(object):
    """``with carried(ctx):`` makes ``ctx`` the thread's current context
    (oslo.context's store, which oslo.log reads for the request id of
    every line), then puts back what was there, nothing included.

    A thread that runs work for a request (a conductor worker, a
    follow-up) carries the request's context this way, so that every line
    it logs names the request, and a pooled thread keeps no request's
    context once its work is done.  ``ctx`` None: the thread has none.
    """

    def __init__(self, ctx):
        self.ctx = ctx

    def __enter__(self):
        self._before = context.get_current()
        _set_current(self.ctx)
        return self.ctx

    def __exit__(self, *exc):
        _set_current(self._before)


def _set_current(ctx):
    if ctx is not None:
        ctx.update_store()
    else:
        # oslo.context has no public call to empty the store.
        context._request_store.context = None
