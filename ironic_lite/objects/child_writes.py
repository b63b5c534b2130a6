"""A port's or port group's write made as under its node's lock: in one
transaction that checks no task holds the node's lock and keeps one from
taking it until the write commits (``Node.write_unless_locked``).

The conductor makes these writes for the API (RPC 1.3, with its own wait
for a lock a task of its process holds); the API makes one itself, with
the same check and no RPC: a port group's creation, as Ironic's API
writes it."""

import time

from ironic_lite.common import exception
from ironic_lite import conf
from ironic_lite.objects import node as node_obj

CONF = conf.CONF


def attempt(context, obj, action, check=None, after=None):
    """The function writing ``obj`` once: ``obj.<action>(context)``
    (create, save or destroy), after ``check`` (context) if given and
    before ``after`` (context, the object as it was before the write) if
    given; it returns the object written.

    The transaction runs again from the start after a deadlock or a
    dropped connection, possibly after the object was written and marked
    unchanged (its commit is what failed).  Writing the object itself
    again would then write nothing of what the API sent -- a fresh UUID,
    no address: the acknowledged port lost.  So each attempt works on a
    copy of the object as received."""
    def write():
        copy = obj.obj_clone()
        if check is not None:
            check(context)
        before = copy.obj_clone() if after is not None else None
        getattr(copy, action)(context)
        if after is not None:
            after(context, before)
        return copy
    return write


def created_in_one_statement(context, obj, action, check=None,
                             after=None):
    """The object written by one statement, for a creation with nothing
    to check or follow under the node's lock (``check`` and ``after``
    None): an INSERT made only while no task holds the node's lock
    (``create_unless_node_locked``).  None when that wrote nothing: the
    caller writes it in the locking transaction (``attempt``), which
    waits for a lock or says why it cannot write.  A copy is written, as
    by ``attempt``."""
    if action != 'create' or check is not None or after is not None:
        return None
    copy = obj.obj_clone()
    return copy if copy.create_unless_node_locked(context) else None


def write_here(context, obj, action, check=None, after=None):
    """``attempt``'s write in this process, tried again while a task
    holds the node's lock: every ``[conductor]node_locked_retry_interval``
    seconds, ``node_locked_retry_attempts`` more times, as a conductor
    tries; NodeLocked after that (a 409 naming the holder)."""
    written = created_in_one_statement(context, obj, action, check, after)
    if written is not None:
        return written
    write = attempt(context, obj, action, check, after)
    retries = CONF.conductor.node_locked_retry_attempts
    for tried in range(retries + 1):
        try:
            return node_obj.Node.write_unless_locked(context, obj.node_id,
                                                     write)
        except exception.NodeLocked:
            if tried == retries:
                raise
            time.sleep(CONF.conductor.node_locked_retry_interval)
