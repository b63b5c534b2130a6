"""Links in the bodies: ``self`` under /v1 and ``bookmark`` without it."""

import pecan


def build_url(resource, args, bookmark=False, base_url=None):
    base_url = base_url or pecan.request.public_url
    template = '%(url)s/%(res)s' if bookmark else '%(url)s/v1/%(res)s'
    template += '%(args)s' if args.startswith('?') else '/%(args)s'
    return template % {'url': base_url, 'res': resource, 'args': args}


def make_link(rel, url, resource, args, bookmark=False, type=None):
    link = {'href': build_url(resource, args, bookmark=bookmark,
                              base_url=url),
            'rel': rel}
    if type:
        link['type'] = type
    return link


def self_and_bookmark(resource, args):
    """The usual pair of links of a resource or sub-resource."""
    return self_and_bookmark_at(pecan.request.public_url, resource, args)


def self_and_bookmark_at(url, resource, args):
    """``self_and_bookmark`` under a base URL the caller already has (a
    list renders many bodies under the same one)."""
    sep = '' if args.startswith('?') else '/'
    return [{'href': '%s/v1/%s%s%s' % (url, resource, sep, args),
             'rel': 'self'},
            {'href': '%s/%s%s%s' % (url, resource, sep, args),
             'rel': 'bookmark'}]
