"""Inspection: manageable -> inspecting -> manageable."""

from oslo_log import log as logging
from oslo_utils import timeutils

from ironic_lite.common import exception
from ironic_lite.common import states

LOG = logging.getLogger(__name__)


def inspect_hardware(task):
    """Worker: run the inspect interface and record when it ran."""
    node = task.node
    node.inspection_started_at = timeutils.utcnow()
    node.inspection_finished_at = None
    node.save()
    task.driver.power.validate(task)
    new_state = task.driver.inspect.inspect_hardware(task)
    if new_state == states.MANAGEABLE:
        node.inspection_finished_at = timeutils.utcnow()
        task.process_event('done')
        LOG.info('Successfully inspected node %s', node.uuid)
    elif new_state == states.INSPECTWAIT:
        task.process_event('wait')
    else:
        raise exception.IronicException(
            'During inspection, driver returned unexpected state %s'
            % new_state)


def abort_inspection(task):
    """inspect wait -> inspect failed, on the operator's request."""
    task.process_event('abort',
                       last_error='Inspection was aborted by request.')
