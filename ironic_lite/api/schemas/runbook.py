"""The contract of ``/v1/runbooks`` (API 1.92; traits, description and
free names 1.112), as Ironic's.

A runbook's name is a trait (``trait.TRAIT``) below 1.112, any string of
RFC 3986 unreserved characters from 1.112 (when a PATCH checks a name it
is always the latter, as Ironic: a runbook named at 1.112 stays patchable
at older versions).  A step is Ironic's ``RUNBOOK_STEP_SCHEMA``: a clean
step interface, a step name, its arguments (optional) and an ``order`` (an
integer or a string of digits).  Beyond Ironic's schema: the step name is
at most 255 characters, the arguments 64 KiB and the order 2147483647
(their columns) -- values the database would refuse are a 400, never a
write.
"""

import copy

from ironic_lite.api import microversions as mv
from ironic_lite.api import query as v
from ironic_lite.api import schemas as s
from ironic_lite.api.schemas import deploy_template
from ironic_lite.api.schemas import trait
from ironic_lite.objects import base as objects_base

SINCE = mv.MINOR_92_RUNBOOKS
TRAITS_SINCE = mv.MINOR_112_RUNBOOK_TRAITS

_STEP_LIMITS = objects_base.column_limits('runbook_steps')
_LIMITS = objects_base.column_limits('runbooks')

# Ironic's CLEANING_INTERFACE_PRIORITY: the interfaces that have clean
# (and service) steps, firmware included.
STEP_INTERFACES = deploy_template.DEPLOY_INTERFACES
STEP = {
    'type': 'object',
    'properties': {
        'args': {'type': 'object', 'maxBytes': _STEP_LIMITS['args'][1]},
        'interface': {'type': 'string', 'enum': list(STEP_INTERFACES)},
        'step': {'type': 'string', 'minLength': 1,
                 'maxLength': _STEP_LIMITS['step'][1]},
        'order': {'anyOf': [
            {'type': 'integer', 'minimum': 0,
             'maximum': deploy_template.MAX_PRIORITY},
            {'type': 'string', 'minLength': 1, 'maxLength': 10,
             'pattern': r'^[0-9]+\Z'},
        ]},
    },
    'required': ['interface', 'step', 'order'],
    'additionalProperties': False,
}
STEP_KEYS = tuple(sorted(STEP['properties']))

# Ironic's RUNBOOK_NAME_SCHEMA (1.112): the characters a name may have to
# be found by name in a path.
NAME = {'type': 'string', 'minLength': 1, 'maxLength': 255,
        'pattern': r'^[A-Za-z0-9\-._~]+\Z'}

# Ironic's RUNBOOK_SCHEMA (1.92).
BODY = {
    'type': 'object',
    'properties': {
        'uuid': {'type': ['string', 'null']},
        'name': trait.TRAIT,
        'steps': {'type': 'array', 'items': STEP, 'minItems': 1},
        'disable_ramdisk': {'type': ['boolean', 'null']},
        'extra': {'type': ['object', 'null'],
                  'maxBytes': _LIMITS['extra'][1]},
        'public': {'type': ['boolean', 'null']},
        'owner': {'type': ['string', 'null'], 'maxLength': 255},
    },
    'required': ['steps', 'name'],
    'additionalProperties': False,
    'uuidFields': ['uuid'],
}
# Ironic's RUNBOOK_MUTATION_SCHEMA_V112: free names and a description
# (traits are set through /v1/runbooks/<ident>/traits only).
BODY_112 = copy.deepcopy(BODY)
BODY_112['properties']['name'] = NAME
BODY_112['properties']['description'] = {'type': ['string', 'null'],
                                         'maxLength': 255}

PATCH_ALLOWED = frozenset(('disable_ramdisk', 'extra', 'name', 'owner',
                           'public', 'steps', 'description'))
READ_ONLY = ('uuid', 'created_at', 'updated_at', 'links', 'traits')

# PUT /v1/runbooks/<ident>/traits (1.112): Ironic's RUNBOOK_TRAITS_SCHEMA.
TRAITS = trait.TRAITS

# Ironic's handler arguments: the marker is a runbook's UUID (an unknown
# one is a 404).
LIST_QUERY = (
    v.Param('marker', doc='UUID of the last runbook of the previous page'),
) + s.PAGING[1:] + (s.fields_param(since=SINCE),
                    s.detail_param(since=SINCE))
