"""Collections: ``{"<resource>": [...], "next": "<url>"}``.

The ``next`` URL is built the way Ironic builds it: the parameters the
list repeats (``sort_key``, ``sort_dir``, a few others, then ``fields``
joined with commas), each as ``key=value&`` *without* URL quoting, then
``limit=<n>&marker=<last>``, under ``<public_url>/v1/<resource>``.
"""

from ironic_lite.api.controllers import link


def _text(value):
    if isinstance(value, (list, tuple)):
        return ','.join(str(v) for v in value)
    return str(value)


def next_link(resource, limit, marker, params):
    """The URL of the next page, with the list's other parameters.

    :param params: ordered (key, value) pairs or a dict; None values are
        left out.
    """
    items = params.items() if isinstance(params, dict) else params
    query = ''.join('%s=%s&' % (k, _text(v)) for k, v in items
                    if v is not None)
    args = '?%slimit=%d&marker=%s' % (query, limit, marker)
    return link.build_url(resource, args)


def make(key, items, limit, resource, marker, params):
    """The collection body.

    ``next`` is only there when the page is full: there may be more.

    :param items: the rendered dicts.
    :param resource: path of the list (e.g. "nodes/detail").
    :param marker: the marker of the last item (its UUID or hostname).
    :param params: the query parameters to repeat in ``next``.
    """
    body = {key: items}
    if limit and items and len(items) == limit:
        body['next'] = next_link(resource, limit, marker, params)
    return body
