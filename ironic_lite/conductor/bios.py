"""Caching a node's BIOS settings (release 5.0, API 1.40), as Ironic's
``cache_bios_settings``.

The node's bios interface reports its settings (``get_bios_settings(task)``:
a list of dicts with ``name``, ``value`` and the optional registry keys
``attribute_type``, ``allowable_values``, ``lower_bound``, ``max_length``,
``min_length``, ``read_only``, ``reset_required``, ``unique``,
``upper_bound``); the conductor makes the ``bios_settings`` rows of the
node equal them in one transaction.  This runs where Ironic caches them:
after the bios interface's ``apply_configuration``, ``factory_reset`` and
``cache_bios_settings`` steps (cleaning or deploying, ``steps.execute``)
and when a node is verified (``manage``), unless its bios interface is
``no-bios``.  The API reads the rows; nothing here goes over RPC.
"""

from oslo_log import log as logging

from ironic_lite.common import exception
from ironic_lite import objects

LOG = logging.getLogger(__name__)

# The bios interface's steps after which the settings are read again.
CACHING_STEPS = frozenset(('apply_configuration', 'factory_reset',
                           'cache_bios_settings'))

_REGISTRY_KEYS = ('attribute_type', 'allowable_values', 'lower_bound',
                  'max_length', 'min_length', 'read_only', 'reset_required',
                  'unique', 'upper_bound')


def _bios_interface(task):
    iface = task.driver.interface(task.node, 'bios')
    return iface if hasattr(iface, 'get_bios_settings') else None


def _checked(settings):
    """The settings as rows: a name (a string) and a value (a string or
    None) each; registry keys kept, others dropped."""
    rows = {}
    for setting in settings or []:
        name = setting.get('name') if isinstance(setting, dict) else None
        if not isinstance(name, str) or not name:
            raise exception.InvalidParameterValue(
                err='The BIOS interface reported a setting without a '
                    'name: %r' % (setting,))
        value = setting.get('value')
        row = {'name': name, 'value': None if value is None else str(value)}
        row.update((k, setting[k]) for k in _REGISTRY_KEYS if k in setting)
        rows[name] = row
    return list(rows.values())


def cache_bios_settings(task):
    """Store what the node's bios interface reports (a node whose bios
    interface has no settings: nothing).  Errors go up."""
    iface = _bios_interface(task)
    if iface is None:
        return
    node = task.node
    settings = _checked(iface.get_bios_settings(task))
    # Under the task's lock (fenced): a task that lost it writes nothing.
    created, updated, deleted = task.fenced(
        lambda: objects.BIOSSettingList.sync(task.context, node.id,
                                             settings))
    LOG.debug('BIOS settings of node %s cached: %d new, %d changed, %d '
              'removed', node.uuid, len(created), len(updated),
              len(deleted))


def cache_bios_settings_quietly(task):
    """``cache_bios_settings`` that never fails (verification): a
    failure is logged, the node's stored settings stay as they were.

    As Ironic's ``node_cache_bios_settings``: a node whose bios interface
    is ``no-bios`` (the interface is optional) gets one warning line, not
    an error with a traceback."""
    try:
        cache_bios_settings(task)
    except exception.NodeLockLost:
        raise
    except exception.UnsupportedDriverExtension:
        LOG.warning('BIOS settings are not supported for node %s, '
                    'skipping', task.node.uuid)
    except Exception:
        LOG.exception('Caching the BIOS settings of node %s failed',
                      task.node.uuid)


def after_step(task, step):
    """Cache the settings after a bios step that changes them."""
    if step.get('interface') == 'bios' and step.get('step') in CACHING_STEPS:
        cache_bios_settings(task)
