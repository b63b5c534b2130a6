"""Boot modes, with Ironic's values (``ironic/common/boot_modes.py``)."""

LEGACY_BIOS = 'bios'
"""Legacy PC BIOS firmware."""

UEFI = 'uefi'
"""Unified Extensible Firmware Interface."""

ALL = (LEGACY_BIOS, UEFI)
"""What ``PUT /v1/nodes/<n>/states/boot_mode`` accepts, Ironic's order."""
