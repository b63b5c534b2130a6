"""The contract of ``/v1/deploy_templates`` (API 1.55), as Ironic's.

A template's name is a trait (``trait.TRAIT``): a node whose
``instance_info['traits']`` holds it runs the template's steps when it is
deployed.  A step is Ironic's ``DEPLOY_STEP_SCHEMA``: a deploy interface
(``DEPLOY_INTERFACES``), a step name, its arguments and a priority (an
integer or a string of digits).  Beyond Ironic's schema: the step name
and interface are at most 255 characters and the arguments 64 KiB (their
columns), the priority at most 2147483647 (an SQL INTEGER) -- values the
database would refuse are a 400, never a write.
"""

from ironic_lite.api import query as v
from ironic_lite.api import schemas as s
from ironic_lite.api.schemas import trait
from ironic_lite.objects import base as objects_base

# The interfaces that have deploy steps, and how a tie of priorities is
# broken (the higher first): Ironic's DEPLOYING_INTERFACE_PRIORITY.
DEPLOY_INTERFACES = ('vendor', 'power', 'management', 'firmware', 'deploy',
                     'bios', 'raid')
# The largest priority an SQL INTEGER column holds.
MAX_PRIORITY = 2 ** 31 - 1

_STEP_LIMITS = objects_base.column_limits('deploy_template_steps')

STEP = {
    'type': 'object',
    'properties': {
        'args': {'type': 'object',
                 'maxBytes': _STEP_LIMITS['args'][1]},
        'interface': {'type': 'string', 'enum': list(DEPLOY_INTERFACES)},
        'priority': {'anyOf': [
            {'type': 'integer', 'minimum': 0, 'maximum': MAX_PRIORITY},
            {'type': 'string', 'minLength': 1, 'maxLength': 10,
             'pattern': r'^[0-9]+\Z'},
        ]},
        'step': {'type': 'string', 'minLength': 1,
                 'maxLength': _STEP_LIMITS['step'][1]},
    },
    'required': ['interface', 'step', 'args', 'priority'],
    'additionalProperties': False,
}
STEP_KEYS = tuple(sorted(STEP['properties']))

# Ironic's TEMPLATE_SCHEMA as at 1.55 (no description).
BODY = s.body('deploy_templates',
              {'name': ('string',), 'extra': s.DICT, 'uuid': s.TEXT},
              required=('name', 'steps'), uuids=('uuid',))
BODY['properties']['name'] = trait.TRAIT
BODY['properties']['steps'] = {'type': 'array', 'items': STEP,
                               'minItems': 1}
BODY['required'] = ['steps', 'name']

PATCH_ALLOWED = frozenset(('extra', 'name', 'steps'))
READ_ONLY = ('uuid', 'created_at', 'updated_at', 'links')

# Ironic checks the marker as a name, then looks a template up by UUID
# (an unknown one is a 404).
LIST_QUERY = (
    v.Param('marker', doc='UUID of the last template of the previous '
                          'page'),
) + s.PAGING[1:] + (s.fields_param(since=55), s.detail_param(since=55))
