"""The contract of ``/v1/nodes/{node_ident}/vmedia`` (1.89; GET 1.93).

Ironic's VMEDIA_ATTACH_VALIDATOR: a ``device_type`` (one of its
VMEDIA_DEVICES), an ``image_url`` string and an optional
``image_download_source``; nothing else.  That the URL's scheme is one a
BMC can fetch is the handler's check (Ironic's wording).  DELETE takes
``?device_types=`` (a comma separated list, Ironic's string_list).
"""

from ironic_lite.api import microversions as mv
from ironic_lite.api import query as q

DEVICES = ['disk', 'cdrom', 'floppy']
DOWNLOAD_SOURCES = ['http', 'local', 'swift']
# Ironic's image_publisher.VMEDIA_SUPPORTED_URL_SCHEMES.
URL_SCHEMES = ('http', 'https', 'nfs', 'cifs', 'smb')

ATTACH = {
    'type': 'object',
    'properties': {
        'device_type': {'type': ['string'], 'enum': DEVICES},
        'image_url': {'type': ['string']},
        'image_download_source': {'type': ['string'],
                                  'enum': DOWNLOAD_SOURCES},
    },
    'required': ['device_type', 'image_url'],
    'additionalProperties': False,
}

DETACH_QUERY = (
    q.Param('device_types', q.LIST, since=mv.MINOR_89_ATTACH_DETACH_VMEDIA,
            doc='the device types to detach (default: all)'),
)
