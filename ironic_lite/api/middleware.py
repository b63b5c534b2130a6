"""WSGI middleware of the API: the access log, version negotiation and
error bodies."""

import json
import logging as stdlib_logging
import re
import time
from urllib import parse

from oslo_context import context as oslo_context
from oslo_log import log as logging
from oslo_middleware import request_id
from oslo_middleware import sizelimit
import webob
import webob.exc

from ironic_lite.api import errors
from ironic_lite.api import json_body
from ironic_lite.api import versions
from ironic_lite.common import context
from ironic_lite.common import exception
from ironic_lite import conf

CONF = conf.CONF
ACCESS_LOG = logging.getLogger('ironic_lite.api.access')

# Paths answered without a version (and without authentication).
ROOT_PATHS = ('', '/')
# Set in the environment when VersionMiddleware answers 406 to a version
# outside the supported range: a client negotiating, not an error.
NEGOTIATION_KEY = 'ironic_lite.version_negotiation'


class RequestId(request_id.RequestId):
    """oslo.middleware's request id, as Ironic's ``IronicRequestId``: a
    new ``req-<uuid>`` per request in ``X-OpenStack-Request-Id`` (the
    header 1.107 documents) and, as Ironic has always answered, in
    ``OpenStack-Request-Id`` too, on every response whatever the version.
    An inbound ``X-OpenStack-Request-Id`` of that form becomes the
    request context's ``global_request_id`` (in the logs)."""

    compat_headers = ['openstack-request-id']
    # The response headers that carry the request's id.
    _ID_HEADERS = [request_id.HTTP_RESP_HEADER_REQUEST_ID] + compat_headers

    def __call__(self, environ, start_response):
        """oslo.middleware's ``RequestId`` as plain WSGI: the same
        environ keys and response headers, without the webob request and
        response it builds per request (a tenth of a small GET)."""
        given = environ.get('HTTP_X_OPENSTACK_REQUEST_ID', '')
        if given and re.match(request_id.ID_FORMAT, given):
            environ[request_id.GLOBAL_REQ_ID] = given
        req_id = oslo_context.generate_request_id()
        environ[request_id.ENV_REQUEST_ID] = req_id

        def start(status, headers, exc_info=None):
            present = {name.lower() for name, _value in headers}
            headers = list(headers) + [(name, req_id)
                                       for name in self._ID_HEADERS
                                       if name.lower() not in present]
            return start_response(status, headers, exc_info)

        return self.application(environ, start)


class SizeLimit(sizelimit.RequestBodySizeLimiter):
    """oslo.middleware's body size limit; a request without a body (no
    or a zero Content-Length, not chunked) goes straight on, without the
    webob request the limit builds to find there is nothing to limit."""

    def __call__(self, environ, start_response):
        if (environ.get('CONTENT_LENGTH') in (None, '', '0')
                and 'chunked' not in environ.get(
                    'HTTP_TRANSFER_ENCODING', '').lower()):
            return self.application(environ, start_response)
        return super().__call__(environ, start_response)


class AccessLog(object):
    """One line per request on ``ironic_lite.api.access``.

    Installed just inside oslo.middleware's ``RequestId``, whatever the
    HTTP server.  At the start of each request a context holding the
    request id the client receives (``X-OpenStack-Request-Id``) becomes
    the thread's current one, so every line logged while serving it
    carries that id -- not the context an earlier request left in this
    thread.  (pecan's ContextHook then replaces it with one that also has
    the caller's identity, and the same request id.)

    The line is at INFO, except for the 406 of a client negotiating its
    microversion (every ``baremetal`` command starts with one): DEBUG.
    It is written once the answer is sent (the server closes it), and
    its time is until then.
    """

    def __init__(self, app):
        self.app = app

    def __call__(self, environ, start_response):
        began = time.monotonic()
        ctx = context.RequestContext(
            request_id=environ.get(request_id.ENV_REQUEST_ID),
            global_request_id=environ.get(request_id.GLOBAL_REQ_ID))
        status = []

        def _start_response(code, headers, exc_info=None):
            status[:] = [code.split(' ', 1)[0], headers]
            return start_response(code, headers, exc_info)

        def log():
            _log_access(environ, status, time.monotonic() - began, ctx)

        try:
            result = self.app(environ, _start_response)
        except BaseException:
            log()
            raise
        # Logged once the server has sent the answer (and closes it):
        # formatting the line is not on the client's time.
        return after_close(result, log)


class _ClosedThen(object):
    """An application's answer that calls ``then()`` once closed (every
    WSGI server closes an answer once it has sent it)."""

    def __init__(self, result, then):
        self._result = result
        self._then = then

    def __iter__(self):
        return iter(self._result)

    def close(self):
        try:
            close = getattr(self._result, 'close', None)
            if close is not None:
                close()
        finally:
            self._result = ()
            self._then()


class _SizedClosedThen(_ClosedThen):
    """The same, of an answer with a length (a list of chunks): a server
    may take a one-chunk answer's Content-Length from it."""

    def __len__(self):
        return len(self._result)


def after_close(result, then):
    """``result`` (a WSGI answer), calling ``then()`` once the server
    has sent and closed it; its length kept when it has one."""
    if hasattr(result, '__len__'):
        return _SizedClosedThen(result, then)
    return _ClosedThen(result, then)


def _log_context(ctx):
    """The thread's current context if it is still this request's (it has
    the caller's identity), else the request's own."""
    current = oslo_context.get_current()
    if current is not None and current.request_id == ctx.request_id:
        return current
    return ctx


def _log_access(environ, status, elapsed, ctx):
    code, headers = status or ('-', [])
    length = next((v for k, v in headers
                   if k.lower() == 'content-length'), '-')
    query = environ.get('QUERY_STRING')
    level = stdlib_logging.INFO
    if code == '406' and environ.get(NEGOTIATION_KEY):
        level = stdlib_logging.DEBUG
    ACCESS_LOG.log(
        level,
        '%(ip)s "%(method)s %(path)s%(query)s" status: %(code)s '
        'len: %(len)s time: %(time).4f request_id: %(rid)s', {
            'ip': environ.get('REMOTE_ADDR', '-'),
            'method': environ.get('REQUEST_METHOD'),
            'path': environ.get('PATH_INFO', ''),
            'query': '?' + query if query else '',
            'code': code, 'len': length, 'time': elapsed,
            'rid': ctx.request_id},
        context=_log_context(ctx))


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
                environ[NEGOTIATION_KEY] = isinstance(
                    exc, exception.VersionNotSupported)
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
        # A success passes through as the application sends it (no copy
        # of its body); an error response is held back and rewritten.
        error = []
        passed = []

        def _start_response(status, headers, exc_info=None):
            if int(status.split(' ', 1)[0]) < 400:
                passed.append(status)
                return start_response(status, headers, exc_info)
            error[:] = [status, headers]
            return error.append   # write(): the body, if sent this way

        app_iter = self.app(environ, _start_response)
        if passed:
            return app_iter
        try:
            # An error, or an application that starts its response only
            # when iterated: read it all.
            chunks = list(app_iter)
        finally:
            if hasattr(app_iter, 'close'):
                app_iter.close()
        if not error:
            return chunks
        body = b''.join(error[2:] + chunks)
        resp = webob.Response(status=error[0], headerlist=list(error[1]),
                              body=body)
        return self._rewrite(resp)(environ, start_response)

    @staticmethod
    def _rewrite(resp):
        """An error response with Ironic's JSON error body."""
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
        return resp


def _plain_text(resp):
    """A one-line message for a non-JSON error body."""
    try:
        doc = json.loads(resp.body)
        if isinstance(doc, dict) and isinstance(doc.get('error'), dict):
            return str(doc['error'].get('message'))
    except ValueError:
        pass
    return resp.status.split(' ', 1)[-1]


BODY_METHODS = ('POST', 'PUT', 'PATCH')


class RequestMiddleware(object):
    """Refuses what no handler can take, before pecan parses anything.

    * a path or query string that is not UTF-8 once percent-decoded, or
      holds NUL characters or lone surrogates: 400;
    * a POST/PUT/PATCH body that is not ``application/json``: 415;
    * a JSON body nested deeper than ``[api]max_json_body_depth`` (Ironic's
      message), with NaN/Infinity, invalid UTF-8, NUL or lone surrogates:
      400.  (pecan itself parses JSON bodies while routing: without this
      a deep body would be a RecursionError.)

    The parsed body is left in the environment for the route's check.
    """

    def __init__(self, app):
        self.app = app

    def __call__(self, environ, start_response):
        try:
            self._check(environ)
        except UnicodeError:
            resp = errors.fault_response(
                400, 'The path or query string is not valid UTF-8 once '
                     'percent-decoded.')
            return resp(environ, start_response)
        except exception.IronicException as exc:
            resp = errors.fault_response(exc.code, str(exc))
            return resp(environ, start_response)
        except webob.exc.HTTPException as exc:
            # The size limiter's 413 while the body is read.
            return errors.from_exception(exc)(environ, start_response)
        return self.app(environ, start_response)

    @staticmethod
    def _check(environ):
        # WSGI gives the raw path as latin-1 code points.
        path = environ.get('PATH_INFO', '').encode('latin-1').decode('utf-8')
        json_body.check_text(path, 'the path')
        for name, value in parse.parse_qsl(environ.get('QUERY_STRING', ''),
                                           keep_blank_values=True,
                                           errors='strict'):
            json_body.check_text(name, 'a query parameter name')
            json_body.check_text(value, name)
        req = webob.Request(environ)
        content_type = environ.get('CONTENT_TYPE', '')
        is_json = json_body.is_json_media_type(content_type)
        if req.method not in BODY_METHODS and not is_json:
            return
        raw = req.body
        if not raw.strip():
            return
        if not is_json:
            raise exception.UnsupportedMediaType(
                media_type=content_type or '(none)')
        environ[json_body.ENVIRON_KEY] = json_body.load_json(
            raw, CONF.api.max_json_body_depth)
