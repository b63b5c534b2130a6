"""The target RAID configuration a node may be given, and its checks.

The facts are Ironic's (its ``raid_config_schema.json``): a configuration
is an object with one key, ``logical_disks``, a non-empty list of logical
disks; each needs a ``raid_level`` and a ``size_gb`` (a non-negative
integer or ``"MAX"``) and may say more about the disk, nothing else.  At
most one logical disk may be the root volume.  The descriptions are what
``GET /v1/drivers/<name>/raid/logical_disk_properties`` shows.
"""

import jsonschema

from ironic_lite.common import exception

RAID_LEVELS = ('JBOD', '0', '1', '2', '5', '6', '1+0', '5+0', '6+0')

# The arguments of a RAID interface's create_configuration step.
CREATE_ARGSINFO = {
    'create_root_volume': {
        'description': 'Whether to create the root volume of the target '
                       'RAID configuration (default: true).',
        'required': False},
    'create_nonroot_volumes': {
        'description': 'Whether to create its other volumes (default: '
                       'true).',
        'required': False},
    'delete_existing': {
        'description': 'Whether to delete the existing RAID configuration '
                       'first (default: true).',
        'required': False},
}


def _prop(description, **schema):
    return dict(schema, description=description)


LOGICAL_DISK_PROPERTIES = {
    'raid_level': _prop(
        "The RAID level of the logical disk, one of 'JBOD', '0', '1', '2', "
        "'5', '6', '1+0', '5+0' and '6+0'. Required.",
        type='string', enum=list(RAID_LEVELS)),
    'size_gb': _prop(
        "The size of the logical disk in GiB, an integer, or 'MAX' for "
        "the rest of the space available. Required.",
        anyOf=[{'type': 'integer', 'minimum': 0},
               {'type': 'string', 'enum': ['MAX']}]),
    'volume_name': _prop(
        'The name of the volume to create; generated when not given. '
        'Optional.', type='string'),
    'is_root_volume': _prop(
        'Whether this logical disk is the root volume (false when not '
        'given). Optional.', type='boolean'),
    'share_physical_disks': _prop(
        'Whether other logical disks may use the physical disks of this '
        'one (false when not given). Optional.', type='boolean'),
    'disk_type': _prop(
        "The kind of physical disk to use, 'hdd' or 'ssd'; any kind when "
        "not given. Optional.", type='string', enum=['hdd', 'ssd']),
    'interface_type': _prop(
        "The interface of the physical disks to use, 'sata', 'scsi' or "
        "'sas'; any when not given. Optional.",
        type='string', enum=['sata', 'scsi', 'sas']),
    'number_of_physical_disks': _prop(
        'How many physical disks to use; the fewest the RAID level needs '
        'when not given. Optional.', type='integer', minimum=1),
    'controller': _prop(
        'The RAID controller to use; the driver chooses one when not '
        'given. Optional.', type='string'),
    'physical_disks': _prop(
        'The physical disks to use (needs controller); the driver chooses '
        'when not given. Optional.',
        anyOf=[{'type': 'array', 'items': {'type': 'string'}},
               {'type': 'array', 'items': {'type': 'object'},
                'minItems': 2}]),
}

SCHEMA = {
    'type': 'object',
    'properties': {
        'logical_disks': {
            'type': 'array',
            'minItems': 1,
            'items': {
                'type': 'object',
                'properties': {
                    name: {k: v for k, v in prop.items()
                           if k != 'description'}
                    for name, prop in LOGICAL_DISK_PROPERTIES.items()},
                'required': ['raid_level', 'size_gb'],
                'additionalProperties': False,
                'dependentRequired': {'physical_disks': ['controller']},
            },
        },
    },
    'required': ['logical_disks'],
    'additionalProperties': False,
}

_VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def validate_configuration(raid_config):
    """Check a target RAID configuration (not empty) as Ironic does.

    :raises: InvalidParameterValue with Ironic's "RAID config validation
        error: ..." (the first error jsonschema finds), or when more than
        one logical disk is the root volume.
    """
    error = jsonschema.exceptions.best_match(
        _VALIDATOR.iter_errors(raid_config))
    if error is not None:
        raise exception.InvalidParameterValue(
            err='RAID config validation error: %s' % error.message)
    roots = [disk for disk in raid_config['logical_disks']
             if disk.get('is_root_volume')]
    if len(roots) > 1:
        raise exception.InvalidParameterValue(
            err='Raid config cannot have more than one root volume. '
                '%d root volumes were specified' % len(roots))


def logical_disk_properties():
    """{property: description} of a logical disk."""
    return {name: prop['description']
            for name, prop in LOGICAL_DISK_PROPERTIES.items()}
