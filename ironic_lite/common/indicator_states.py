"""States of an indicator (an LED), with Ironic's values
(``ironic/common/indicator_states.py``)."""

OFF = 'off'
ON = 'on'
BLINKING = 'blinking'
