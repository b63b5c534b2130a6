"""fake-hardware's boot mode, secure boot and indicators (release 5.0).

Ironic's fake management offers indicators only to read: a chassis LED
``led-0`` (read-only, off/on) and a system LED ``led`` (blinking/off/on),
always ``on``.  Here the "hardware" also has a boot mode (``bios`` or
``uefi``) and a secure boot switch, and the system LED can be set; what is
set is kept in the node's ``driver_internal_info`` (saved by the caller)
so that it reads back:

* ``fake_boot_mode``: the boot mode; unknown (None) until one is set;
* ``fake_secure_boot``: True or False; unknown (None) until set;
* ``fake_indicators``: {"<indicator>@<component>": state} of the
  indicators set; the others are ``on``, as Ironic's fake answers.
"""

import copy

from ironic_lite.common import boot_modes
from ironic_lite.common import components
from ironic_lite.common import exception
from ironic_lite.common import indicator_states as ind

BOOT_MODE_KEY = 'fake_boot_mode'
SECURE_BOOT_KEY = 'fake_secure_boot'
INDICATORS_KEY = 'fake_indicators'

# Ironic's fake indicators.
INDICATORS = {
    components.CHASSIS: {
        'led-0': {'readonly': True, 'states': [ind.OFF, ind.ON]},
    },
    components.SYSTEM: {
        'led': {'readonly': False,
                'states': [ind.BLINKING, ind.OFF, ind.ON]},
    },
}


def _stored(task, key, default=None):
    return (task.node.driver_internal_info or {}).get(key, default)


def _store(task, key, value):
    info = dict(task.node.driver_internal_info or {})
    info[key] = value
    task.node.driver_internal_info = info


def _indicator(component, indicator):
    """The description of an indicator (Ironic's fake's messages)."""
    if component not in INDICATORS:
        raise exception.InvalidParameterValue(
            err='Invalid component %s specified.' % component)
    if indicator not in INDICATORS[component]:
        raise exception.InvalidParameterValue(
            err='Invalid indicator %s specified.' % indicator)
    return INDICATORS[component][indicator]


class FakeModesAndIndicators(object):
    """The methods of ``base.ManagementInterface`` added in release 5.0."""

    def get_supported_boot_modes(self, task):
        return list(boot_modes.ALL)

    def get_boot_mode(self, task):
        return _stored(task, BOOT_MODE_KEY)

    def set_boot_mode(self, task, mode):
        supported = self.get_supported_boot_modes(task)
        if mode not in supported:
            raise exception.InvalidParameterValue(
                err='Unsupported boot mode %s specified for node %s. '
                    'Supported boot modes are: %s'
                    % (mode, task.node.uuid, ', '.join(supported)))
        _store(task, BOOT_MODE_KEY, mode)

    def get_secure_boot_state(self, task):
        return _stored(task, SECURE_BOOT_KEY)

    def set_secure_boot_state(self, task, state):
        if not isinstance(state, bool):
            raise exception.InvalidParameterValue(
                err='Invalid secure boot state %s: true or false' % (state,))
        _store(task, SECURE_BOOT_KEY, state)

    def get_supported_indicators(self, task, component=None):
        return {name: copy.deepcopy(leds)
                for name, leds in INDICATORS.items()
                if not component or component == name}

    def get_indicator_state(self, task, component, indicator):
        _indicator(component, indicator)
        return _stored(task, INDICATORS_KEY, {}).get(
            '%s@%s' % (indicator, component), ind.ON)

    def set_indicator_state(self, task, component, indicator, state):
        """Set the system LED; the state is matched without regard to
        case (Ironic's API reference writes them ``ON``, its code
        ``on``) and stored as Ironic's constant."""
        described = _indicator(component, indicator)
        if described['readonly']:
            raise exception.InvalidParameterValue(
                err='Indicator %s of component %s is read-only.'
                    % (indicator, component))
        wanted = state.lower() if isinstance(state, str) else state
        if wanted not in described['states']:
            raise exception.InvalidParameterValue(
                err='Invalid state %s of indicator %s, supported states '
                    'are: %s' % (state, indicator,
                                 ', '.join(described['states'])))
        leds = dict(_stored(task, INDICATORS_KEY, {}))
        leds['%s@%s' % (indicator, component)] = wanted
        _store(task, INDICATORS_KEY, leds)
