"""Finding the port group a path or a body names: by UUID or by name, as
Ironic looks one up.  Ports (a port's ``portgroup_uuid``, the
``?portgroup=`` filter) and port groups both use it."""

from oslo_utils import uuidutils

from ironic_lite.api.controllers.v1 import utils
from ironic_lite.common import exception
from ironic_lite import objects


def lookup(ctx, ident):
    """A port group by UUID or name, as Ironic looks one up (never by
    database id: ``/v1/portgroups/123`` is the port group named 123)."""
    if uuidutils.is_uuid_like(ident):
        return objects.Portgroup.get_by_uuid(ctx, ident)
    if not utils.is_valid_logical_name(ident):
        raise exception.InvalidUuidOrName(name=ident)
    return objects.Portgroup.get_by_name(ctx, ident)
