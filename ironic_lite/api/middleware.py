"""WSGI middleware of the API: version negotiation and error bodies."""

import json

import webob

from ironic_lite.api import errors
from ironic_lite.api import versions
from ironic_lite.common import exception

# Paths answered without a version (and without authentication).
ROOT_PATHS = ('', '/')


class VersionMiddleware(object):
    """Negotiates the microversion and adds the version headers.

    The negotiated version is left in the WSGI environment under
    ``versions.ENVIRON_KEY``.  A bad version is answered here with a 406
    that still carries the min/max headers: that is how clients negotiate.
    """

    def __init__(self, app):
        self.app = app

    def __call__(self, environ, start_response):
        version = None
        if environ.get('PATH_INFO', '') not in ROOT_PATHS:
            req = webob.Request(environ)
            try:
                version = versions.negotiate(req.headers)
            except exception.NotAcceptable as exc:
                resp = errors.fault_response(
                    exc.code, str(exc), versions.response_headers())
                return resp(environ, start_response)
            environ[versions.ENVIRON_KEY] = version
        extra = versions.response_headers(version)

        def _start_response(status, headers, exc_info=None):
            names = {k.lower() for k, _v in headers}
            headers = list(headers) + [(k, v) for k, v in extra
                                       if k.lower() not in names]
            return start_response(status, headers, exc_info)

        return self.app(environ, _start_response)


def _is_fault(body):
    try:
        doc = json.loads(body)
    except ValueError:
        return False
    return isinstance(doc, dict) and 'faultstring' in doc


class ParsableErrorMiddleware(object):
    """Gives every error response Ironic's JSON error body.

    Bodies that already are a fault document are wrapped into
    ``{"error_message": ...}``; other error bodies (from a middleware) are
    turned into a fault document first.
    """

    def __init__(self, app):
        self.app = app

    def __call__(self, environ, start_response):
        req = webob.Request(environ)
        resp = req.get_response(self.app)
        if resp.status_int < 400:
            return resp(environ, start_response)
        body = resp.body
        try:
            already = 'error_message' in json.loads(body)
        except (ValueError, TypeError):
            already = False
        if not already:
            if _is_fault(body):
                document = body.decode('utf-8')
            else:
                document = errors.fault_document(
                    resp.status_int, _plain_text(resp))
            resp.body = errors.wrap(document)
        resp.content_type = 'application/json'
        resp.charset = None
        return resp(environ, start_response)


def _plain_text(resp):
    """A one-line message for a non-JSON error body."""
    try:
        doc = json.loads(resp.body)
        if isinstance(doc, dict) and isinstance(doc.get('error'), dict):
            return str(doc['error'].get('message'))
    except ValueError:
        pass
    return resp.status.split(' ', 1)[-1]
