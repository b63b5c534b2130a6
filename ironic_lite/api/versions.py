"""API microversion negotiation: parse the request's version, and the
headers every response carries.

The supported range is ``MIN_VERSION`` to the ``api`` version of the
release this service runs as -- ``[DEFAULT]/pin_release_version`` lowers it
during a rolling upgrade, so that no API node offers a microversion an
older conductor or API node in the deployment cannot serve (with
``auto``, as long as the services table shows one alive: it is read at
each request, ``common/release_pin.py``).
"""

import collections

from ironic_lite.api import microversions
from ironic_lite.common import exception
from ironic_lite.common import release_pin

LEGACY_HEADER = 'X-OpenStack-Ironic-API-Version'
STANDARD_HEADER = 'OpenStack-API-Version'
MIN_HEADER = 'X-OpenStack-Ironic-API-Minimum-Version'
MAX_HEADER = 'X-OpenStack-Ironic-API-Maximum-Version'
SERVICE_TYPE = 'baremetal'
ENVIRON_KEY = 'ironic.api_version'


class APIVersion(collections.namedtuple('APIVersion', 'major minor')):
    """A negotiated microversion; ``minor`` is what feature gates compare."""

    @classmethod
    def parse(cls, text):
        """'1.31' -> APIVersion(1, 31); ValueError when malformed."""
        major, minor = text.strip().split('.')
        return cls(int(major), int(minor))

    def __str__(self):
        return '%d.%d' % (self.major, self.minor)


MIN_VERSION = APIVersion(*microversions.MIN_VERSION)


def max_version():
    """The highest version served: the running (or pinned) release's."""
    entry = release_pin.entry()
    if 'api' not in entry:   # master: this code's newest
        return APIVersion(*microversions.MAX_VERSION)
    return APIVersion.parse(entry['api'])


def _requested(headers):
    """The version string the client asked for, or None.

    ``OpenStack-API-Version: baremetal 1.x`` wins over the legacy header;
    it may list several services separated by commas.
    """
    standard = headers.get(STANDARD_HEADER)
    if standard:
        for item in standard.split(','):
            parts = item.strip().split(None, 1)
            if len(parts) == 2 and parts[0].lower() == SERVICE_TYPE:
                return parts[1]
    return headers.get(LEGACY_HEADER)


def negotiate(headers):
    """The version of a request, from its headers (a dict-like).

    :raises: NotAcceptable (406) when the header is malformed, its
        subclass VersionNotSupported when it asks for a version outside
        the supported range.
    """
    text = _requested(headers)
    high = max_version()
    if text is None:
        return MIN_VERSION
    if text.strip().lower() == 'latest':
        return high
    try:
        version = APIVersion.parse(text)
    except ValueError:
        raise exception.NotAcceptable(
            'Invalid value for %s header' % LEGACY_HEADER)
    if version.major != MIN_VERSION.major:
        raise exception.VersionNotSupported(
            'Mutually exclusive versions requested. Version %(ver)s '
            'requested but not supported by this service. The supported '
            'version range is: [%(min)s, %(max)s].'
            % {'ver': version, 'min': MIN_VERSION, 'max': high})
    if not MIN_VERSION <= version <= high:
        raise exception.VersionNotSupported(
            'Version %(ver)s was requested but the minor version is not '
            'supported by this service. The supported version range is: '
            '[%(min)s, %(max)s].'
            % {'ver': version, 'min': MIN_VERSION, 'max': high})
    return version


def response_headers(version=None):
    """Headers for every response: the range, and the version used."""
    headers = [(MIN_HEADER, str(MIN_VERSION)),
               (MAX_HEADER, str(max_version()))]
    if version is not None:
        headers += [(LEGACY_HEADER, str(version)),
                    (STANDARD_HEADER, '%s %s' % (SERVICE_TYPE, version)),
                    ('Vary', '%s, %s' % (STANDARD_HEADER, LEGACY_HEADER))]
    return headers
