"""A runbook as the provision verbs use it (``"runbook"`` of ``PUT
/v1/nodes/<n>/states/provision``, API 1.92): resolved here, on the API,
to the steps the conductor is asked to run, as Ironic's
``_handle_runbook``.

``resolve(node, ident)`` checks what Ironic checks -- the caller may use
the runbook (``baremetal:runbook:use`` on its owner), and the node may
run it: below 1.112 one of the node's traits is the runbook's name, from
1.112 one of the node's traits is one of the runbook's (which must have
some) -- and returns its steps (as clean or service steps: ``interface``,
``step`` and ``args``, in the runbook's order) and its
``disable_ramdisk``.  ``apply_to_body`` puts them into a provision
request for the verbs that take steps (``clean``; ``service`` from 1.87).
"""

import collections

from ironic_lite.api.controllers.v1 import runbook as runbook_api
from ironic_lite.api.controllers.v1 import utils
from ironic_lite.api import microversions as mv
from ironic_lite.common import exception

RULE = 'baremetal:runbook:use'
# The verbs that run a runbook's steps, and the body key of their steps.
STEPS_KEY = {'clean': 'clean_steps', 'service': 'service_steps'}

Resolved = collections.namedtuple('Resolved', 'steps disable_ramdisk')


def _node_traits(node):
    traits = getattr(node, 'traits', None)
    return set(traits.get_trait_names()) if traits is not None else set()


def check_node_may_run(node, runbook):
    """400 (Ironic's words) unless ``node`` may run ``runbook`` at the
    request's version."""
    node_traits = _node_traits(node)
    if not utils.allows(mv.MINOR_112_RUNBOOK_TRAITS):
        if runbook.name not in node_traits:
            raise exception.InvalidParameterValue(
                'This runbook has not been approved for use on this node '
                '%s. Please ask an administrator to add it to your node '
                'traits.' % node.uuid)
        return
    runbook_traits = set(runbook.traits)
    if not runbook_traits:
        raise exception.InvalidParameterValue(
            'Runbook %s has no traits configured. Please ask an '
            'administrator to add traits to the runbook.' % runbook.uuid)
    if not runbook_traits & node_traits:
        values = {'node': node.uuid, 'traits': sorted(runbook_traits)}
        raise exception.InvalidParameterValue(
            "This runbook has not been approved for use on this node "
            "%(node)s. The node does not have any of the runbook's traits "
            "%(traits)s. Please ask an administrator to add a matching "
            "trait to your node." % values)


def resolve(node, ident):
    """The steps and ``disable_ramdisk`` of runbook ``ident`` (UUID or
    name) for ``node``.

    :raises: NotAcceptable (406) below API 1.92; RunbookNotFound (404);
        HTTPForbidden (403) when the caller may not use it;
        InvalidParameterValue (400) when the node may not run it.
    """
    if not utils.allows(mv.MINOR_92_RUNBOOKS):
        raise exception.NotAcceptable()
    runbook = runbook_api.fetch_authorized(RULE, ident)
    check_node_may_run(node, runbook)
    steps = [{'interface': s['interface'], 'step': s['step'],
              'args': dict(s['args'] or {})} for s in runbook.steps]
    return Resolved(steps, runbook.disable_ramdisk)


def apply_to_body(node, target, body):
    """The provision request ``body`` with its ``runbook`` resolved: the
    steps of a verb that takes steps (given both ways: Ironic's 400), and
    the runbook's ``disable_ramdisk`` whatever the verb (a verb that takes
    none then gets Ironic's 400 for it)."""
    resolved = resolve(node, body['runbook'])
    body = dict(body, disable_ramdisk=resolved.disable_ramdisk)
    key = STEPS_KEY.get(target)
    if key is not None:
        if body.get(key):
            raise exception.InvalidParameterValue(
                'Please provide either "%s" or a runbook, but not both.'
                % key)
        body[key] = resolved.steps
    return body
