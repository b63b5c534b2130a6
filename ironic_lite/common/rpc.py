"""oslo.messaging plumbing: one transport per process, threading executor."""

import oslo_messaging as messaging
from oslo_messaging.rpc import dispatcher

from ironic_lite.common import context as ir_context
from ironic_lite import conf
from ironic_lite.objects import base as objects_base

CONF = conf.CONF
TRANSPORT = None

# Exceptions raised by a conductor are re-raised, with their HTTP code, in
# the API that made the call.
ALLOWED_EXMODS = ['ironic_lite.common.exception']


def init(conf_=None):
    global TRANSPORT
    if TRANSPORT is None:
        TRANSPORT = messaging.get_rpc_transport(
            conf_ or CONF, allowed_remote_exmods=ALLOWED_EXMODS)
    return TRANSPORT


def set_default_transport_url(url):
    """Change the default of ``[DEFAULT]/transport_url`` (before parsing)."""
    from oslo_messaging import opts as messaging_opts
    for group, opts in messaging_opts.list_opts():
        if group is None:
            CONF.register_opts(opts)
    CONF.set_default('transport_url', url)


def cleanup():
    global TRANSPORT
    if TRANSPORT is not None:
        TRANSPORT.cleanup()
    TRANSPORT = None


class RequestContextSerializer(messaging.Serializer):
    """Carries the request context, and objects via the object serializer."""

    def __init__(self, base):
        self._base = base

    def serialize_entity(self, context, entity):
        return self._base.serialize_entity(context, entity)

    def deserialize_entity(self, context, entity):
        return self._base.deserialize_entity(context, entity)

    def serialize_context(self, context):
        return context.to_dict()

    def deserialize_context(self, context):
        return ir_context.RequestContext.from_dict(context)


def _serializer():
    return RequestContextSerializer(objects_base.IronicObjectSerializer())


def get_client(target, version_cap=None):
    return messaging.get_rpc_client(init(), target, version_cap=version_cap,
                                    serializer=_serializer())


def get_server(target, endpoints):
    return messaging.get_rpc_server(
        init(), target, endpoints,
        serializer=_serializer(),
        access_policy=dispatcher.DefaultRPCAccessPolicy)
