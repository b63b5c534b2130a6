"""Storage interfaces of ``fake-hardware``: Ironic's ``noop``, ``fake``,
``external`` and ``cinder`` (without a Cinder to talk to).

A node's ``storage_interface`` picks one.  ``cinder`` validates the
node's volume connectors and targets as Ironic's cinder storage does, and
"attaches" the node's volume targets when it is deployed: it records
their UUIDs, boot volume first, in ``driver_internal_info`` under
``storage_attached_volumes``, and removes them when the node is torn
down.  The others attach nothing.
"""

from oslo_utils import strutils

from ironic_lite.common import exception
from ironic_lite.drivers import base
from ironic_lite import objects

ATTACHED_KEY = 'storage_attached_volumes'
ISCSI_TYPES = ('iqn',)
FC_TYPES = ('wwpn', 'wwnn')


def volume_connectors(task):
    return objects.VolumeConnector.list_by_node_id(task.context,
                                                   task.node.id)


def volume_targets(task):
    return objects.VolumeTarget.list_by_node_id(task.context, task.node.id)


def capability(node, name):
    """The value of ``name`` in the node's ``properties/capabilities``
    ("k1:v1,k2:v2"), or None."""
    for item in str((node.properties or {}).get('capabilities') or
                    '').split(','):
        key, _, value = item.partition(':')
        if key.strip() == name:
            return value.strip()
    return None


class NoopStorage(base.BaseInterface):
    """``noop`` and ``fake``: no volume is attached."""

    def attach_volumes(self, task):
        pass

    def detach_volumes(self, task):
        pass


class ExternalStorage(NoopStorage):
    """Volumes attached by someone else.  A node without an image to write
    whose boot volume (index 0) is a target must boot from it over iSCSI,
    which needs an iPXE boot interface: fake-hardware's has none (as in
    Ironic), so validation refuses it."""

    def validate(self, task):
        image = 'image_source' in (task.node.instance_info or {})
        if not image and any(t.boot_index == 0 for t in volume_targets(task)):
            raise exception.InvalidParameterValue(
                err='Failed to validate external storage interface for node '
                    '%s. To support network booting to an iSCSI volume, the '
                    'boot interface must be set to ``ipxe``.'
                    % task.node.uuid)


class CinderStorage(base.BaseInterface):
    """Ironic's cinder storage checks; the attachment is recorded only."""

    def _fail(self, task, reason):
        raise exception.InvalidParameterValue(
            err='Failed to validate cinder storage interface for node %s. %s'
                % (task.node.uuid, reason))

    def _connector_kinds(self, task):
        """{'iscsi_found', 'fc_found'} of the node's connectors."""
        found = {'iqn': 0, 'wwpn': 0, 'wwnn': 0}
        for connector in volume_connectors(task):
            if connector.type in found and connector.connector_id:
                found[connector.type] += 1
        if found['iqn']:
            # fake-hardware's boot interface is not iPXE (as in Ironic).
            self._fail(task, 'The [pxe]/ipxe_enabled option must be set to '
                             'True or the boot interface must be set to '
                             '``ipxe`` to support network booting to an '
                             'iSCSI volume.')
        if found['wwpn'] != found['wwnn']:
            self._fail(task, 'Cinder requires both wwnn and wwpn entries for '
                             'FCoE connections. There must be a wwpn entry '
                             'for every wwnn entry. There are %d wwpn '
                             'entries and %d wwnn entries.'
                       % (found['wwpn'], found['wwnn']))
        return {'iscsi': found['iqn'] >= 1,
                'fibre_channel': found['wwpn'] >= 1}

    def validate(self, task):
        found = self._connector_kinds(task)
        boot = {kind: strutils.bool_from_string(
            capability(task.node, '%s_boot' % kind))
            for kind in ('iscsi', 'fibre_channel')}
        for kind, types in (('iscsi', ISCSI_TYPES),
                            ('fibre_channel', FC_TYPES)):
            if boot[kind] and not found[kind]:
                self._fail(task, "In order to enable the '%s_boot' "
                                 "capability for the node, an associated "
                                 "volume_connector type must be valid for "
                                 "%s (%s)." % (kind, _LABELS[kind],
                                               ', '.join(types)))
        for target in volume_targets(task):
            self._check_target(task, target, found, boot)

    def _check_target(self, task, target, found, boot):
        kind = target.volume_type
        if kind not in ('iscsi', 'fibre_channel'):
            self._fail(task, "Volume target %s is of an unknown type '%s'. "
                             "Supported types: 'iscsi' or 'fibre_channel'"
                       % (target.uuid, kind))
        if not boot[kind] and target.boot_index == 0:
            self._fail(task, "Volume target %s is configured for '%s', "
                             "however the capability '%s_boot' is not set "
                             "%s node." % (target.uuid, kind, kind,
                                           _ON[kind]))
        if not found[kind]:
            self._fail(task, "Volume target %s is configured for '%s', "
                             "however no %s are configured for the node%s."
                       % (target.uuid, kind, _MISSING[kind],
                          _MISSING_TAIL[kind]))

    def attach_volumes(self, task):
        targets = sorted(volume_targets(task), key=lambda t: t.boot_index)
        if targets:
            info = dict(task.node.driver_internal_info or {})
            info[ATTACHED_KEY] = [t.uuid for t in targets]
            task.node.driver_internal_info = info

    def detach_volumes(self, task):
        info = dict(task.node.driver_internal_info or {})
        if info.pop(ATTACHED_KEY, None) is not None:
            task.node.driver_internal_info = info


# Ironic's wordings, which differ between the two kinds.
_LABELS = {'iscsi': 'iSCSI', 'fibre_channel': 'Fibre Channel'}
_ON = {'iscsi': 'for the', 'fibre_channel': 'on'}
_MISSING = {'iscsi': 'iSCSI connectors',
            'fibre_channel': 'Fibre Channel WWPNs'}
_MISSING_TAIL = {'iscsi': '', 'fibre_channel': ' volume connectors'}

_IMPLEMENTATIONS = {'noop': NoopStorage(), 'fake': NoopStorage(),
                    'external': ExternalStorage(), 'cinder': CinderStorage()}


class NodeStorage(base.BaseInterface):
    """The storage interface of the task's node (its ``storage_interface``,
    else the hardware type's default)."""

    def _impl(self, task):
        name = (task.node.storage_interface
                or task.driver.default_interface('storage'))
        return _IMPLEMENTATIONS.get(name, _IMPLEMENTATIONS['noop'])

    def validate(self, task):
        self._impl(task).validate(task)

    def attach_volumes(self, task):
        self._impl(task).attach_volumes(task)

    def detach_volumes(self, task):
        self._impl(task).detach_volumes(task)
