"""Hardware components that have indicators, with Ironic's names
(``ironic/common/components.py``)."""

CHASSIS = 'chassis'
"""The chassis enclosing the system."""

SYSTEM = 'system'
"""The computer system."""
