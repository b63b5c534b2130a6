"""ParsableErrorMiddleware: successes pass through untouched, errors get
Ironic's JSON error body -- whichever way the application starts its
response."""

import json

import webob

from ironic_lite.api import middleware


def _call(app):
    seen = {}

    def start_response(status, headers, exc_info=None):
        seen['status'] = status
        seen['headers'] = dict(headers)
    body = b''.join(middleware.ParsableErrorMiddleware(app)(
        webob.Request.blank('/v1/x').environ, start_response))
    return seen, body


def _eager(status, body):
    def app(environ, start_response):
        start_response(status, [('Content-Type', 'text/plain')])
        return [body]
    return app


def _lazy(status, body):
    def app(environ, start_response):
        start_response(status, [('Content-Type', 'text/plain')])
        yield body
    return app


def test_success_is_the_applications_own_iterable():
    chunks = [b'{"a": ', b'1}']

    def app(environ, start_response):
        start_response('200 OK', [('Content-Type', 'application/json')])
        return chunks
    result = middleware.ParsableErrorMiddleware(app)(
        webob.Request.blank('/v1/x').environ, lambda *a: None)
    assert result is chunks   # not copied


def test_errors_get_the_error_body_eager_or_lazy():
    for make in (_eager, _lazy):
        seen, body = _call(make('404 Not Found', b'no such thing'))
        assert seen['status'] == '404 Not Found'
        assert seen['headers']['Content-Type'] == 'application/json'
        doc = json.loads(json.loads(body)['error_message'])
        assert doc['faultstring'] == 'Not Found'


def test_lazy_success_passes_unchanged():
    seen, body = _call(_lazy('200 OK', b'plain'))
    assert seen['status'] == '200 OK' and body == b'plain'


def test_body_written_through_the_write_callable_is_kept():
    def app(environ, start_response):
        write = start_response('409 Conflict', [])
        write(b'{"faultstring": "locked", "faultcode": "Client", ')
        return [b'"debuginfo": null}']
    seen, body = _call(app)
    assert seen['status'] == '409 Conflict'
    doc = json.loads(json.loads(body)['error_message'])
    assert doc['faultstring'] == 'locked'
