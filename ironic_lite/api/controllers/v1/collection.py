"""Collections: ``{"<resource>": [...], "next": "<url>"}``."""

from urllib import parse as urlparse

from ironic_lite.api.controllers import link


def next_link(resource, limit, marker, params):
    """The URL of the next page, with the list's other parameters."""
    query = [(k, ','.join(v) if isinstance(v, (list, tuple)) else v)
             for k, v in params.items() if v is not None]
    query += [('limit', limit), ('marker', marker)]
    return link.build_url(resource, '?' + urlparse.urlencode(query))


def make(key, items, limit, resource, marker, params):
    """The collection body.

    ``next`` is only there when the page is full: there may be more.

    :param items: the rendered dicts.
    :param resource: path of the list (e.g. "nodes/detail").
    :param marker: the marker of the last item (its UUID or hostname).
    :param params: the query parameters to repeat in ``next``.
    """
    body = {key: items}
    if limit and len(items) == limit:
        body['next'] = next_link(resource, limit, marker, params)
    return body
