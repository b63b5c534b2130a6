"""Small validation helpers shared by the API and the objects."""

import re

from ironic_lite.common import exception

# ``\Z``: ``$`` would accept (and store) a MAC followed by a newline.
_MAC_RE = re.compile(r'([0-9a-fA-F]{2}[:-]){5}[0-9a-fA-F]{2}\Z')


def is_valid_mac(address):
    return isinstance(address, str) and bool(_MAC_RE.match(address))


def validate_and_normalize_mac(address):
    """Lower-case a MAC address with colons; raise InvalidMAC otherwise."""
    if not is_valid_mac(address):
        raise exception.InvalidMAC(mac=address)
    return address.lower().replace('-', ':')
