"""Automated cleaning: cleaning -> available."""

from oslo_log import log as logging

from ironic_lite import conf

CONF = conf.CONF
LOG = logging.getLogger(__name__)


def automated_clean_enabled(node):
    """The node's ``automated_clean`` if set, else [conductor] default."""
    if node.automated_clean is not None:
        return node.automated_clean
    return CONF.conductor.automated_clean


def do_node_clean(task):
    """Worker: clean the node (unless disabled), then make it available.

    A failure (raised) moves the node to ``clean failed`` through the
    task's spawn error hook.
    """
    node = task.node
    if automated_clean_enabled(node):
        task.driver.power.validate(task)
        task.driver.clean.clean(task)
    else:
        LOG.info('Automated cleaning is disabled for node %s', node.uuid)
    node.clean_step = None
    task.process_event('done')
    LOG.info('Node %s cleaning complete', node.uuid)


def abort_cleaning(task):
    """clean wait -> clean failed, on the operator's request."""
    task.process_event(
        'abort', last_error='By request, the clean operation was aborted.')
