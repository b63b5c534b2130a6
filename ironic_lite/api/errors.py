"""Ironic's error body, and the turning of exceptions into it.

Every error answer of the API has the same shape, which
python-ironicclient and openstacksdk parse::

    {"error_message": "{\\"faultstring\\": \\"...\\", \\"faultcode\\":
     \\"Client\\", \\"debuginfo\\": null}"}

(the value of ``error_message`` is itself a JSON document, as in Ironic).
"""

import json
import traceback

from oslo_db import exception as db_exc
from oslo_log import log as logging
from sqlalchemy import exc as sa_exc
import webob
import webob.exc

from ironic_lite.common import exception
from ironic_lite import conf

CONF = conf.CONF
LOG = logging.getLogger(__name__)

GENERIC_SERVER_ERROR = 'Internal Server Error'

# The database is down or unreachable (oslo.db wraps most of these, but
# not a failure of the very first connection).
_DB_UNAVAILABLE = (db_exc.DBConnectionError, sa_exc.OperationalError,
                   sa_exc.InterfaceError)


def fault_document(code, message, debuginfo=None):
    """The inner document: faultstring, faultcode, debuginfo."""
    return json.dumps({'faultstring': message,
                       'faultcode': 'Client' if code < 500 else 'Server',
                       'debuginfo': debuginfo})


def wrap(document):
    """The outer body whose ``error_message`` holds ``document``."""
    return json.dumps({'error_message': document}).encode('utf-8')


def fault_response(code, message, headers=None, debuginfo=None):
    """A complete error response with Ironic's body."""
    resp = webob.Response(status=code, content_type='application/json',
                          charset=None,
                          body=wrap(fault_document(code, message, debuginfo)))
    for name, value in headers or ():
        resp.headers[name] = value
    return resp


def from_exception(exc):
    """The error response for any exception raised while serving.

    IronicException keeps its code and message; webob errors (unknown
    path, wrong method) their status and explanation; anything else is a
    500 with a generic message, the details going to the log only.
    """
    headers = []
    debuginfo = None
    if isinstance(exc, exception.IronicException):
        code, message = int(exc.code), str(exc)
        if CONF.debug_tracebacks_in_api:
            # A conductor's traceback, set aside by the RPC client.
            debuginfo = getattr(exc, 'remote_traceback', None)
    elif isinstance(exc, webob.exc.HTTPException):
        code = exc.code
        message = exc.detail or exc.explanation or exc.title
        if exc.code == 405 and exc.allow:
            headers.append(('Allow', ', '.join(exc.allow)))
        if exc.code == 401:
            headers.extend((k, v) for k, v in exc.headers.items()
                           if k.lower() == 'www-authenticate')
    elif isinstance(exc, _DB_UNAVAILABLE):
        code = 503
        # The connection may have dropped after a commit was sent.
        message = ('The database cannot be reached; a write may or may not '
                   'have been carried out: please check the resource '
                   'before you retry.')
    else:
        code, message = 500, GENERIC_SERVER_ERROR
    if code >= 500:
        LOG.error('Error serving the request: %s', exc,
                  exc_info=not isinstance(exc, exception.IronicException))
        if CONF.debug_tracebacks_in_api:
            debuginfo = ''.join(traceback.format_exception(exc))
    return fault_response(code, message, headers, debuginfo)
