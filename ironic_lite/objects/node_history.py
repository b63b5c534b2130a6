"""Node history (release 5.0, API 1.78), as Ironic's NodeHistory.

An event is an error (severity ``ERROR``: a node update that sets a new
``last_error``) or a provision state change (``INFO``).  Every such
change of a node goes through ``Node.save()``, which hands
``events_for_update`` to the database's node update: the events are
written in the same transaction as the change, after its reservation
check, so an event is stored exactly when its change is (a task that lost
its lock writes neither); a failed insert of the event is logged and the
change goes on (``db/node_history.py``).  ``[conductor]node_history``
turns the recording off; nothing is recorded while pinned to a release
without node history.  Never sent over RPC (``DB_ONLY``).
"""

from oslo_config import cfg
from oslo_utils import timeutils
from oslo_utils import uuidutils

from ironic_lite.common import states
from ironic_lite.db import node_history as db_history
from ironic_lite.objects import base
from ironic_lite.objects import fields

CONF = cfg.CONF

# The event type of what happens in (or from) a provision state.
_EVENT_TYPES = {
    states.DEPLOYING: states.DEPLOYING, states.DEPLOYWAIT: states.DEPLOYING,
    states.CLEANING: states.CLEANING, states.CLEANWAIT: states.CLEANING,
    states.VERIFYING: states.VERIFY, states.DELETING: states.UNPROVISION,
    states.INSPECTING: states.INTROSPECTION,
    states.INSPECTWAIT: states.INTROSPECTION,
    states.ADOPTING: states.ADOPTION, states.RESCUING: states.RESCUE,
    states.RESCUEWAIT: states.RESCUE, states.UNRESCUING: states.RESCUE,
    states.SERVICING: states.SERVICING, states.SERVICEWAIT: states.SERVICING,
    states.SERVICEHOLD: states.SERVICING,
}
# The most a Text column holds on every backend (models.TEXT_MAX_BYTES).
_EVENT_MAX_BYTES = 65535


@base.IronicObjectRegistry.register
class NodeHistory(base.IronicObject):
    # Version 1.0: initial version (release 5.0), Ironic's NodeHistory 1.1
    # Version 1.1: project (API 1.113), state, target_provision_state and
    #     duration_seconds (1.115): Ironic's NodeHistory 1.3
    VERSION = '1.1'
    DB_ONLY = True

    fields = dict(base.IronicObject.fields, **{
        'id': fields.IntegerField(),
        'uuid': fields.UUIDField(nullable=True),
        'conductor': fields.StringField(nullable=True),
        'event': fields.StringField(nullable=True),
        'user': fields.StringField(nullable=True),
        'node_id': fields.IntegerField(nullable=True),
        'event_type': fields.StringField(nullable=True),
        'severity': fields.StringField(nullable=True),
        'project': fields.StringField(nullable=True),
        'state': fields.StringField(nullable=True),
        'target_provision_state': fields.StringField(nullable=True),
        'duration_seconds': fields.IntegerField(nullable=True),
    })

    field_history = {
        '1.0': ('created_at', 'updated_at', 'id', 'uuid', 'conductor',
                'event', 'user', 'node_id', 'event_type', 'severity'),
        '1.1': ('project', 'state', 'target_provision_state',
                'duration_seconds'),
    }

    @classmethod
    def get_by_uuid(cls, context, uuid):
        return cls._from_db_object(
            context, cls(), db_history.get_node_history_by_uuid(uuid))

    @classmethod
    def list_by_node_id(cls, context, node_id, limit=None, marker=None,
                        sort_key=None, sort_dir=None):
        """A page of the node's events (``marker``: an event's UUID)."""
        return cls._from_db_object_list(
            context, db_history.get_node_history_by_node_id(
                node_id, limit=limit, marker=marker, sort_key=sort_key,
                sort_dir=sort_dir))

    @classmethod
    def purge_excess(cls, node_ids, max_entries, minimum_days, limit):
        """Delete the oldest events of each of ``node_ids`` beyond its
        newest ``max_entries``, node by node, until ``limit`` events went
        (a node's excess goes whole); returns how many."""
        purged = 0
        for node_id in node_ids:
            if purged >= limit:
                break
            purged += db_history.purge_node_history(
                node_id, max_entries, minimum_days)
        return purged

    @staticmethod
    def nodes_over(max_entries):
        """The ids of the nodes with more than ``max_entries`` events."""
        return db_history.nodes_over(max_entries)


def _event_type(node, row, values):
    if getattr(node, 'history_event_type', None):
        return node.history_event_type
    old, new = row.provision_state, values.get('provision_state')
    if new is None or new == old:
        if 'console_enabled' in values:
            return states.CONSOLE
        if 'target_power_state' in values or 'power_state' in values:
            return states.POWER
    for state in (old, new):
        if state in _EVENT_TYPES:
            return _EVENT_TYPES[state]
    return states.PROVISIONING


def _text(message):
    raw = str(message).encode('utf-8')
    if len(raw) <= _EVENT_MAX_BYTES:
        return str(message)
    return raw[:_EVENT_MAX_BYTES].decode('utf-8', 'ignore')


def _duration(row):
    """How long the node was in its provision state before this write
    (whole seconds; None when it has no provision_updated_at)."""
    since = row.provision_updated_at
    if since is None:
        return None
    if since.tzinfo is not None:
        since = since.replace(tzinfo=None) - since.utcoffset()
    return max(0, int((timeutils.utcnow() - since).total_seconds()))


def _event(node, row, values, severity, text):
    """An event as Ironic 39 records it: with the caller's user and
    project (1.113), the provision state and target the write leaves the
    node in and how long it spent in the one before (1.115)."""
    ctx = node._context
    user = getattr(ctx, 'user_id', None)
    project = getattr(ctx, 'project_id', None)
    event = {'uuid': uuidutils.generate_uuid(), 'node_id': row.id,
             'conductor': (CONF.host or '')[:255] or None,
             'user': user[:64] if user else None,
             'severity': severity, 'event': _text(text),
             'event_type': _event_type(node, row, values),
             'project': project[:80] if project else None,
             'state': values.get('provision_state', row.provision_state),
             'target_provision_state': values.get(
                 'target_provision_state', row.target_provision_state),
             'duration_seconds': _duration(row)}
    version = NodeHistory.get_target_version()
    keep = NodeHistory.fields_at(version)
    event = {k: v for k, v in event.items() if k in keep}
    event['version'] = version
    return event


def events_for_update(node, row, values):
    """The events of writing ``values`` over ``row`` (the node's row as
    it was): an ERROR for a new ``last_error``, else an INFO for a new
    provision state; none when recording is off or the pin's release has
    no node history."""
    if not CONF.conductor.node_history or not NodeHistory.known_to_pin():
        return []
    error = values.get('last_error')
    if error and error != row.last_error:
        return [_event(node, row, values, 'ERROR', error)]
    new = values.get('provision_state')
    if 'provision_state' in values and new != row.provision_state:
        target = values.get('target_provision_state',
                            row.target_provision_state)
        text = 'Provision state changed from %s to %s' % (
            row.provision_state, new)
        if target:
            text += ' (target: %s)' % target
        return [_event(node, row, values, 'INFO', text)]
    if 'health' in values and values['health'] != row.health:
        # Ironic's event of a health change (API 1.109).
        event = _event(node, row, values, 'INFO',
                       "Node health status changed: health='%s' "
                       "(previously '%s')" % (values['health'] or 'None',
                                              row.health or 'None'))
        event['event_type'] = states.MONITORING
        return [event]
    return []
