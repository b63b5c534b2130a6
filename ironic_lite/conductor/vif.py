"""VIFs of a node (RPC 1.2, ``VifMixin``): the ``flat`` and ``noop`` network
interfaces.

``flat`` records a VIF on a free port group or port of the node, in its
``internal_info['tenant_vif_port_id']`` (Ironic's key); ``noop`` accepts
every attach and records nothing.  A dynamic port group (1.111) is
deleted when its VIF is detached; ironic-lite makes none itself (Ironic's
trait based networking does, with neutron).  The caller holds the node's
lock; the port writes are fenced by it (``task.fenced``).
"""

import oslo_messaging as messaging

from ironic_lite.common import exception
from ironic_lite.conductor import task_manager
from ironic_lite import objects

TENANT_VIF_KEY = 'tenant_vif_port_id'


def _vif_of(obj):
    return ((obj.internal_info or {}).get(TENANT_VIF_KEY)
            or (obj.extra or {}).get('vif_port_id'))


def _port_likes(task):
    ctx, node_id = task.context, task.node.id
    groups = objects.Portgroup.list_by_node_id(ctx, node_id)
    ports = objects.Port.list_by_node_id(ctx, node_id)
    return groups, ports


def _records(task):
    if task.node.network_interface == 'noop':
        return []
    groups, ports = _port_likes(task)
    return [(obj, kind) for kind, objs in (('Portgroup', groups),
                                           ('Port', ports))
            for obj in objs]


def vif_list(task):
    return [{'id': _vif_of(obj)} for obj, _kind in _records(task)
            if _vif_of(obj)]


def _requested(vif_info, groups, ports):
    """The port or port group named by port_uuid/portgroup_uuid, or None."""
    for key, objs in (('port_uuid', ports), ('portgroup_uuid', groups)):
        if vif_info.get(key):
            for obj in objs:
                if obj.uuid == vif_info[key]:
                    return obj
            raise exception.InvalidParameterValue(
                err='%s %s does not belong to this node.'
                    % (key, vif_info[key]))
    return None


def _free_port_like(task, vif_id, vif_info):
    """Ironic's order: a free port group with ports, then a free port not
    in a group (PXE-enabled first)."""
    groups, ports = _port_likes(task)
    chosen = _requested(vif_info, groups, ports)
    if chosen is not None:
        if _vif_of(chosen):
            raise exception.VifAlreadyAttached(
                vif=_vif_of(chosen), object_type=type(chosen).__name__,
                object_uuid=chosen.uuid)
        return chosen
    grouped = {p.portgroup_id for p in ports if p.portgroup_id}
    for group in groups:
        if group.id in grouped and not _vif_of(group):
            return group
    free = [p for p in ports if not p.portgroup_id and not _vif_of(p)]
    free.sort(key=lambda p: not p.pxe_enabled)
    if not free:
        raise exception.NoFreePhysicalPorts(vif=vif_id)
    return free[0]


def vif_attach(task, vif_info):
    vif_id = vif_info['id']
    for obj, kind in _records(task):
        if _vif_of(obj) == vif_id:
            raise exception.VifAlreadyAttached(vif=vif_id, object_type=kind,
                                               object_uuid=obj.uuid)
    if task.node.network_interface == 'noop':
        return
    target = _free_port_like(task, vif_id, vif_info)
    info = dict(target.internal_info or {})
    info[TENANT_VIF_KEY] = vif_id
    target.internal_info = info
    task.fenced(target.save)


def _teardown_dynamic(task, group):
    """A dynamic port group (API 1.111: made by a network flow for one
    VIF) goes with its VIF, as in Ironic: its ports leave it, then it is
    deleted."""
    for port in objects.Port.list(task.context,
                                  filters={'portgroup_id': group.id}):
        port.portgroup_id = None
        port.save(task.context)
    group.destroy(task.context)


def vif_detach(task, vif_id):
    if task.node.network_interface == 'noop':
        return
    for obj, _kind in _records(task):
        if _vif_of(obj) == vif_id:
            info = dict(obj.internal_info or {})
            info.pop(TENANT_VIF_KEY, None)
            obj.internal_info = info
            extra = dict(obj.extra or {})
            if extra.pop('vif_port_id', None) is not None:
                obj.extra = extra
            if getattr(obj, 'dynamic_portgroup', False):
                task.fenced(lambda: _teardown_dynamic(task, obj))
            else:
                task.fenced(obj.save)
            return
    raise exception.VifNotAttached(vif=vif_id, node=task.node.uuid)


class VifMixin(object):
    """The VIF methods of ``ConductorManager``."""

    @messaging.expected_exceptions(exception.NodeLocked,
                                   exception.NodeNotFound,
                                   exception.InvalidParameterValue,
                                   exception.VifAlreadyAttached,
                                   exception.NoFreePhysicalPorts)
    def vif_attach(self, context, node_id, vif_info):
        with task_manager.acquire(context, node_id, load_driver=False,
                                  purpose='attach vif') as task:
            vif_attach(task, vif_info)

    @messaging.expected_exceptions(exception.NodeLocked,
                                   exception.NodeNotFound,
                                   exception.VifNotAttached)
    def vif_detach(self, context, node_id, vif_id):
        with task_manager.acquire(context, node_id, load_driver=False,
                                  purpose='detach vif') as task:
            vif_detach(task, vif_id)

    @messaging.expected_exceptions(exception.NodeNotFound)
    def vif_list(self, context, node_id):
        with task_manager.acquire(context, node_id, shared=True,
                                  load_driver=False,
                                  purpose='list vifs') as task:
            return vif_list(task)
