"""The actions of inspection rules (API 1.96), as Ironic's
``ironic/common/inspection_rules/actions.py``: each is a function of the
task and its named arguments (``common.inspection_rules.ACTIONS`` holds
their signatures; a unit test checks that both agree).

Writes to the node are saved at once (``node.save()``), those to its
ports and traits under the node's lock (``task.fenced``); a failure is
Ironic's ``RuleActionExecutionFailure``, which fails the inspection.
"""

from oslo_log import log as logging
import requests
from urllib3.util import retry as urllib3_retry

from ironic_lite.common import exception
from ironic_lite.common import inspection_rules as ir
from ironic_lite import objects

LOG = logging.getLogger(__name__)

LOG_LEVELS = ('debug', 'info', 'warning', 'error', 'critical')


def _failed(message):
    LOG.error(message)
    return exception.RuleActionExecutionFailure(reason=message)


def fail(task, msg):
    raise exception.HardwareInspectionFailure(error=str(msg))


def log(task, msg, level='info'):
    level = str(level).lower()
    if level not in LOG_LEVELS:
        raise exception.InspectionRuleExecutionFailure(
            reason='Invalid log level: %s. Choose from %s'
                   % (level, set(LOG_LEVELS)))
    getattr(LOG, level)(msg)


def _set_at(target, path, value):
    parts = ir.normalize_path(path)
    if len(parts) == 1:
        setattr(target, parts[0], value)
        return
    base = getattr(target, parts[0])
    current = base
    for part in parts[1:-1]:
        current = current.setdefault(part, {})
    current[parts[-1]] = value
    setattr(target, parts[0], base)


def _extend_at(target, path, value, unique):
    parts = ir.normalize_path(path)
    if len(parts) == 1:
        current = getattr(target, parts[0], [])
    else:
        base = getattr(target, parts[0])
        current = base
        for part in parts[1:-1]:
            current = current.setdefault(part, {})
        current = current.setdefault(parts[-1], [])
    if not isinstance(current, list):
        raise exception.RuleActionExecutionFailure(
            reason='Cannot extend non-list attribute %s with value %s'
                   % (path, value))
    if not unique or value not in current:
        current.append(value)
    setattr(target, parts[0], current if len(parts) == 1 else base)


def _del_at(target, path):
    parts = ir.normalize_path(path)
    if len(parts) == 1:
        delattr(target, parts[0])
        return
    base = getattr(target, parts[0])
    current = base
    for part in parts[1:-1]:
        current = current[part]
    del current[parts[-1]]
    setattr(target, parts[0], base)


def set_attribute(task, path, value):
    try:
        _set_at(task.node, path, value)
        task.node.save()
    except Exception as exc:
        raise _failed('Failed to set attribute %s with value %s: %s'
                      % (path, value, exc))


def extend_attribute(task, path, value, unique=False):
    try:
        _extend_at(task.node, path, value, unique)
        task.node.save()
    except Exception as exc:
        raise _failed('Failed to extend attribute %s: %s' % (path, exc))


def del_attribute(task, path):
    try:
        _del_at(task.node, path)
        task.node.save()
    except Exception as exc:
        raise _failed('Failed to delete attribute at %s: %s' % (path, exc))


def set_capability(task, name, value):
    """Ironic's add_node_capability: ``name:value`` appended to
    ``properties['capabilities']`` (a repeat too)."""
    try:
        properties = dict(task.node.properties or {})
        new = '%s:%s' % (name, value)
        current = properties.get('capabilities')
        properties['capabilities'] = ('%s,%s' % (current, new) if current
                                      else new)
        task.node.properties = properties
        task.node.save()
    except Exception as exc:
        raise _failed('Failed to set capability %s: %s' % (name, exc))


def unset_capability(task, name):
    try:
        properties = dict(task.node.properties or {})
        capabilities = (properties.get('capabilities') or '').split(',')
        properties['capabilities'] = ','.join(
            c for c in capabilities if not c.startswith('%s:' % name))
        task.node.properties = properties
        task.node.save()
    except Exception as exc:
        raise _failed('Failed to unset capability %s: %s' % (name, exc))


def add_trait(task, name):
    try:
        task.fenced(lambda: objects.Trait(
            task.context, node_id=task.node.id, trait=name).create())
    except Exception as exc:
        raise exception.RuleActionExecutionFailure(
            reason='Failed to add new trait %s: %s' % (name, exc))


def remove_trait(task, name):
    try:
        task.fenced(lambda: objects.Trait.destroy(task.context,
                                                  task.node.id, name))
    except exception.NodeTraitNotFound as exc:
        LOG.warning('Failed to remove trait %s: %s', name, exc)
    except Exception as exc:
        raise exception.RuleActionExecutionFailure(
            reason='Failed to remove trait %s: %s' % (name, exc))


def _update_nested(data, path, value):
    keys = path.split('.') if isinstance(path, str) else path
    current = data
    for key in keys[:-1]:
        current = current.setdefault(key, {})
    current[keys[-1]] = value


def _nested(data, path):
    keys = path.split('.') if isinstance(path, str) else path
    current = data
    try:
        for key in keys:
            current = current[key]
        return current
    except (KeyError, TypeError):
        return None


def set_plugin_data(task, path, value, plugin_data):
    try:
        _update_nested(plugin_data, path, value)
    except Exception as exc:
        raise exception.RuleActionExecutionFailure(
            reason='Failed to set plugin data at %s: %s' % (path, exc))


def extend_plugin_data(task, path, value, plugin_data, unique=False):
    try:
        if not _nested(plugin_data, path):
            _update_nested(plugin_data, path, [])
        # Read through the view: a new list is never a view (one stored
        # in the plugin data could not be written as JSON).
        current = _nested(plugin_data, path)
        if not unique or value not in current:
            current.append(value)
    except Exception as exc:
        raise exception.RuleActionExecutionFailure(
            reason='Failed to extend plugin data at %s: %s' % (path, exc))


def _unset_nested(data, path):
    """Ironic's: the key removed; a dict it leaves empty goes too (one
    level up)."""
    keys = path.split('.') if isinstance(path, str) else path
    current = data
    for key in keys[:-1]:
        if not isinstance(current, (dict, ir.MaskedDict)) or (
                key not in current):
            return False
        current = current[key]
    if not isinstance(current, (dict, ir.MaskedDict)) or (
            keys[-1] not in current):
        return False
    if len(current) == 1 and len(keys) > 1:
        parent = data
        for key in keys[:-2]:
            parent = parent[key]
        del parent[keys[-2]]
    else:
        del current[keys[-1]]
    return True


def unset_plugin_data(task, path, plugin_data):
    try:
        if not _unset_nested(plugin_data, path):
            LOG.warning('Path %s not found', path)
    except Exception as exc:
        raise exception.RuleActionExecutionFailure(
            reason='Failed to unset plugin data at %s: %s' % (path, exc))


def _port(task, port_id):
    for port in objects.Port.list_by_node_id(task.context, task.node.id):
        if port.uuid == port_id:
            return port
    raise exception.PortNotFound(port=port_id)


def _port_write(task, port_id, change, message):
    port = _port(task, port_id)
    try:
        change(port)
        task.fenced(port.save)
    except Exception as exc:
        raise _failed('%s for port %s: %s' % (message, port_id, exc))


def set_port_attribute(task, port_id, path, value):
    _port_write(task, port_id, lambda p: _set_at(p, path, value),
                'Failed to set attribute %s' % path)


def extend_port_attribute(task, port_id, path, value, unique=False):
    _port_write(task, port_id, lambda p: _extend_at(p, path, value, unique),
                'Failed to extend attribute %s' % path)


def del_port_attribute(task, port_id, path):
    _port_write(task, port_id, lambda p: _del_at(p, path),
                'Failed to delete attribute %s' % path)


def api_call(task, url, headers=None, proxies=None, timeout=5, retries=3,
             backoff_factor=0.3):
    """GET ``url`` (retried on 429 and 5xx); an error fails the rule."""
    try:
        timeout = float(timeout)
        if timeout <= 0:
            raise ValueError('timeout must be greater than zero')
        strategy = urllib3_retry.Retry(
            total=int(retries), backoff_factor=float(backoff_factor),
            status_forcelist=[429, 500, 502, 503, 504],
            allowed_methods=['GET'], raise_on_status=False)
        session = requests.Session()
        adapter = requests.adapters.HTTPAdapter(max_retries=strategy)
        session.mount('http://', adapter)
        session.mount('https://', adapter)
        kwargs = {}
        if headers:
            kwargs['headers'] = headers
        if proxies:
            kwargs['proxies'] = proxies
        response = session.get(url, timeout=timeout, **kwargs)
        response.raise_for_status()
    except ValueError as exc:
        raise _failed('Invalid parameter: %s' % exc)
    except requests.exceptions.RequestException as exc:
        raise _failed('Request to %s failed: %s' % (url, exc))


# The function of each action of common.inspection_rules.ACTIONS.
FUNCTIONS = {
    'fail': fail, 'log': log,
    'set-attribute': set_attribute, 'extend-attribute': extend_attribute,
    'del-attribute': del_attribute,
    'set-capability': set_capability, 'unset-capability': unset_capability,
    'add-trait': add_trait, 'remove-trait': remove_trait,
    'set-plugin-data': set_plugin_data,
    'extend-plugin-data': extend_plugin_data,
    'unset-plugin-data': unset_plugin_data,
    'set-port-attribute': set_port_attribute,
    'extend-port-attribute': extend_port_attribute,
    'del-port-attribute': del_port_attribute,
    'api-call': api_call,
}
