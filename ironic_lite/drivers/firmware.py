"""What every firmware interface shares (release 6.0, API 1.86): the
components Ironic names and the arguments of the ``update`` step.

The ``update`` step's ``settings`` are Ironic's: a non-empty list of
``{"component": "bios" | "bmc" | "nic:<id>", "url": "...", "wait": n}``
(``wait`` optional, seconds, at least 1), nothing else.  A step whose
settings do not match fails with Ironic's message, before anything is
flashed.
"""

import jsonschema

from ironic_lite.common import exception

BIOS = 'bios'
BMC = 'bmc'
NIC_COMPONENT_PREFIX = 'nic:'
COMPONENTS = (BIOS, BMC)

# The keys of a component as an interface reports it (the conductor
# stores them; ``initial_version`` and ``last_version_flashed`` are the
# conductor's).
REPORTED_KEYS = ('component', 'current_version', 'vendor', 'model',
                 'serial_number')

UPDATE_ARGSINFO = {
    'settings': {
        'description': 'A list of dicts with firmware components to be '
                       'updated',
        'required': True,
    },
}

_UPDATE_SCHEMA = {
    'type': 'array',
    'minItems': 1,
    'items': {
        'type': 'object',
        'required': ['component', 'url'],
        'properties': {
            'component': {
                'type': 'string',
                'anyOf': [{'enum': list(COMPONENTS)},
                          {'pattern': '^%s.*' % NIC_COMPONENT_PREFIX}],
            },
            'url': {'type': 'string', 'minLength': 1},
            'wait': {'type': 'integer', 'minimum': 1},
        },
        'additionalProperties': False,
    },
}


def validate_update_settings(settings):
    """InvalidParameterValue (Ironic's message) unless ``settings`` are
    valid arguments of the ``update`` step."""
    try:
        jsonschema.validate(settings, _UPDATE_SCHEMA)
    except jsonschema.ValidationError as err:
        raise exception.InvalidParameterValue(
            err='Invalid firmware update %(settings)s. Errors: %(err)s'
                % {'settings': settings, 'err': err.message})
