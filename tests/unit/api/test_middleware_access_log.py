"""The access log comes from the application, under any WSGI server.

Served here by wsgiref (a plain WSGI server, one thread for every
request), the lines are formatted by oslo.log's ContextFormatter as a
service formats them: the request id of each line's logging context must
be the one the client received in ``X-OpenStack-Request-Id``.
"""

import http.client
import logging
import threading
import time
from wsgiref import simple_server

from oslo_config import cfg
from oslo_log import formatters
from oslo_log import log as oslo_logging
import pytest

from ironic_lite.api import app as api_app
from ironic_lite.api import versions
from tests import timeouts

ACCESS = 'ironic_lite.api.access'
# The context's request id, then what the record says.
FIELDS = '%(levelname)s|%(name)s|%(message)s'


class _Lines(logging.Handler):
    """Records as (context request id, level, logger, message), formatted
    by oslo.log's ContextFormatter ("-" without a context)."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        conf = cfg.ConfigOpts()
        oslo_logging.register_options(conf)
        conf([], project='test', default_config_files=[])
        conf.set_override('logging_context_format_string',
                          '%(request_id)s|' + FIELDS)
        conf.set_override('logging_default_format_string', '-|' + FIELDS)
        conf.set_override('logging_debug_format_suffix', '')
        self.setFormatter(formatters.ContextFormatter(config=conf))
        self.lines = []

    def emit(self, record):
        self.lines.append(tuple(self.format(record).split('|', 3)))

    def access(self, request_id):
        return [line for line in self.lines
                if line[2] == ACCESS and request_id in line[3]]


class _QuietHandler(simple_server.WSGIRequestHandler):
    def log_message(self, *args):
        """No wsgiref line of its own on stderr."""


@pytest.fixture
def lines():
    """What the API logs, on loggers ironic_lite.* at DEBUG and above."""
    handler = _Lines()
    logger = logging.getLogger('ironic_lite')
    level = logger.level
    logger.setLevel(logging.DEBUG)
    logger.addHandler(handler)
    yield handler
    logger.removeHandler(handler)
    logger.setLevel(level)


@pytest.fixture
def port(database, rpcapi):
    """setup_app() under wsgiref on a free loopback port."""
    app = api_app.setup_app(rpcapi_factory=lambda: rpcapi)
    server = simple_server.make_server('127.0.0.1', 0, app,
                                       handler_class=_QuietHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_port
    server.shutdown()
    server.server_close()
    thread.join(timeouts.HANG)


def _get(port, path, version='latest'):
    """(status, the X-OpenStack-Request-Id the client received)."""
    conn = http.client.HTTPConnection('127.0.0.1', port,
                                      timeout=timeouts.HANG)
    try:
        conn.request('GET', path, headers={
            'X-OpenStack-Ironic-API-Version': version})
        resp = conn.getresponse()
        resp.read()
    finally:
        conn.close()
    request_id = resp.getheader('X-OpenStack-Request-Id')
    assert request_id and request_id.startswith('req-'), resp.getheaders()
    return resp.status, request_id


def _one_access_line(lines, request_id):
    # Written once the server has sent the answer and closed it: the
    # client may have read the answer first.
    deadline = time.monotonic() + timeouts.HANG
    while not lines.access(request_id) and time.monotonic() < deadline:
        time.sleep(0.01)
    found = lines.access(request_id)
    assert len(found) == 1, lines.lines
    return found[0]


def test_one_access_line_per_request_with_the_client_request_id(port,
                                                                lines):
    status, request_id = _get(port, '/v1/nodes?limit=3')
    assert status == 200
    context_id, level, _name, message = _one_access_line(lines, request_id)
    assert context_id == request_id
    assert level == 'INFO'
    assert '"GET /v1/nodes?limit=3" status: 200' in message
    assert message.endswith('request_id: %s' % request_id)


@pytest.fixture
def negotiation_lines(monkeypatch):
    """VersionMiddleware, before pecan, logs a line as it negotiates."""
    log = oslo_logging.getLogger('ironic_lite.api.test')
    negotiate = versions.negotiate

    def noted(headers):
        log.info('negotiating')
        return negotiate(headers)
    monkeypatch.setattr(versions, 'negotiate', noted)


def test_every_line_of_a_request_carries_its_request_id(
        port, lines, negotiation_lines):
    """Lines logged before pecan makes the request's context -- the first
    request of a thread, or a 406 of VersionMiddleware after a request
    that left its context in the thread -- carry the request's own id."""
    requests = [_get(port, '/v1/nodes'),
                _get(port, '/v1/nodes', version='1.999'),
                _get(port, '/v1/nodes')]
    assert [status for status, _id in requests] == [200, 406, 200]
    ids = [request_id for _status, request_id in requests]
    negotiating = [line[0] for line in lines.lines
                   if line[2] == 'ironic_lite.api.test']
    assert negotiating == ids
    assert [_one_access_line(lines, i)[0] for i in ids] == ids


@pytest.mark.parametrize('version', ['1.999', '2.0'])
def test_version_negotiation_406_is_logged_at_debug(port, lines, version):
    """Every baremetal command first asks for a version that is too new:
    its 406 is no error worth an INFO line."""
    status, request_id = _get(port, '/v1/nodes', version=version)
    assert status == 406
    context_id, level, _name, message = _one_access_line(lines, request_id)
    assert level == 'DEBUG'
    assert context_id == request_id
    assert 'status: 406' in message


@pytest.mark.parametrize('path, version, expected', [
    ('/v1/nodes', '1.x', 406),        # a malformed version: an error
    ('/v1/no-such-thing', 'latest', 404),
])
def test_other_errors_stay_at_info(port, lines, path, version, expected):
    status, request_id = _get(port, path, version=version)
    assert status == expected
    assert _one_access_line(lines, request_id)[1] == 'INFO'


def _environ():
    return {'REQUEST_METHOD': 'GET', 'PATH_INFO': '/v1/nodes',
            'REMOTE_ADDR': '127.0.0.1', 'openstack.request_id': 'req-x'}


def test_the_line_is_written_once_the_answer_is_closed(lines):
    """Formatting the line is not on the client's time: it is written
    when the server closes the answer it has sent, after the inner
    answer's own close()."""
    from ironic_lite.api import middleware
    closed = []

    class Body(list):
        def close(self):
            closed.append(len(lines.lines))

    def app(environ, start_response):
        start_response('200 OK', [('Content-Length', '2')])
        return Body([b'{}'])

    result = middleware.AccessLog(app)(_environ(), lambda *a: None)
    assert list(result) == [b'{}']
    assert len(result) == 1      # a server may take the length from it
    assert lines.access('req-x') == []
    result.close()
    assert closed == [0]
    (line,) = lines.access('req-x')
    assert '"GET /v1/nodes" status: 200 len: 2' in line[3]


def test_a_generator_answer_has_no_length(lines):
    from ironic_lite.api import middleware

    def app(environ, start_response):
        start_response('200 OK', [])
        yield b'{}'

    result = middleware.AccessLog(app)(_environ(), lambda *a: None)
    assert not hasattr(result, '__len__')
    assert list(result) == [b'{}']
    result.close()
    assert len(lines.access('req-x')) == 1


def test_an_application_error_is_logged_at_once(lines):
    from ironic_lite.api import middleware

    def app(environ, start_response):
        raise RuntimeError('broken')

    with pytest.raises(RuntimeError):
        middleware.AccessLog(app)(_environ(), lambda *a: None)
    (line,) = lines.access('req-x')
    assert 'status: -' in line[3]
