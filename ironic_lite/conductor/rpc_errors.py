"""How the RPC client (``rpcapi.ConductorAPI`` and its parts) turns what
goes wrong in a call into the API's answer: a dead broker or a silent
conductor into a clear 503, a conductor's own error into the same error
without its remote traceback, an older conductor into 409
ConductorTooOld.  Every client method that sends is ``@translated``."""

import functools

from amqp import exceptions as amqp_exceptions
from kombu import exceptions as kombu_exceptions
import oslo_messaging as messaging

from ironic_lite.common import exception
from ironic_lite.common import json_rpc_client
from ironic_lite.common import json_rpc_keystone
from ironic_lite.conductor import broker_probe


# Remote errors of a conductor that cannot read what it was sent.
_TOO_NEW_FOR_THE_CONDUCTOR = ('UnsupportedVersion',
                              'IncompatibleObjectVersion')


# oslo.messaging appends the remote traceback to the message of an
# exception it re-raises here, in a class named ``<Class>_Remote``.
_REMOTE_SUFFIX = '_Remote'
_TRACEBACK = '\nTraceback (most recent call last):'

# Remote errors that mean the database was unreachable or gave up: an
# outage, after which the request may or may not have been carried out.
_DB_OUTAGES = ('DBConnectionError', 'DBDeadlock', 'OperationalError',
               'DBError')


def without_remote_traceback(err):
    """A conductor's exception as it was raised there: its own class and
    message, the remote traceback kept aside (``remote_traceback``) for
    ``[DEFAULT]debug_tracebacks_in_api`` and never in the message.

    oslo.messaging re-raises a conductor's exception as an instance of a
    subclass it makes of the exception's own class (only to append the
    traceback to ``str()``); a new exception of that own class is built
    from the same arguments.
    """
    cls = type(err)
    if not cls.__name__.endswith(_REMOTE_SUFFIX):
        return err
    message = str(err)
    cut = message.find(_TRACEBACK)
    text, trace = ((message[:cut], message[cut + 1:]) if cut >= 0
                   else (message.rstrip('\n'), None))
    local = cls.__bases__[0](text, **getattr(err, 'kwargs', {}))
    local.args = (text,) + tuple(err.args[1:])
    local.remote_traceback = trace
    return local


# The 503 of a call the transport failed to complete, by error class.
_TRANSPORT_FAILURES = (
    # JSON-RPC: no connection to the conductor could be opened.
    (json_rpc_client.ConductorUnreachable,
     'The conductor cannot be reached; the request was not carried out, '
     'please retry later.'),
    # JSON-RPC with Keystone: no token, or the conductor could not
    # validate it; nothing ran.
    (json_rpc_keystone.IdentityUnavailable,
     'The identity service (Keystone) cannot be reached to authenticate '
     'to the conductor; the request was not carried out, please retry '
     'later.'),
    (json_rpc_keystone.AuthMisconfigured,
     'This service cannot authenticate to the conductor (see its log); '
     'the request was not carried out, please retry later.'),
    (messaging.MessagingTimeout,
     'The conductor did not answer in time; the request may have been '
     'carried out: please check the resource before you retry.'),
    (messaging.MessageDeliveryFailure,
     'The message broker did not accept the request; please check the '
     'resource before you retry.'),
    # pin_release_version = auto lowered the cap between the choice of
    # the version and the call: refused before anything was sent.
    (messaging.RPCVersionCapError,
     'The release this service speaks was lowered while the request was '
     'prepared (an older service is alive again); it was not carried '
     'out, please retry.'),
)


# What the broker's client library raises itself when the broker fails
# mid-call (a partition: a channel closed, a queue whose node is gone, a
# socket reset) and oslo.messaging lets through unwrapped.
_BROKER_ERRORS = (amqp_exceptions.AMQPError, kombu_exceptions.KombuError,
                  OSError)
_BROKER_FAILED = ('The message broker failed while the request was sent '
                  '(%s); it may or may not have been carried out: please '
                  'check the resource before you retry.')


def _error_name(err):
    """The class name of a messaging error: the conductor's own for a
    RemoteError (an error raised there)."""
    if isinstance(err, messaging.RemoteError):
        return err.exc_type
    return type(err).__name__


def _remote_failure_reason(err):
    """A conductor's unexpected error, as the API tells it.  The remote
    message may quote SQL or paths: it goes to the conductor's log only."""
    what = ('could not reach its database' if err.exc_type in _DB_OUTAGES
            else 'failed (%s)' % err.exc_type)
    return ('The conductor %s while carrying out the request; it may or '
            'may not have been carried out: please check the resource '
            'before you retry.' % what)


def _error_for(err, version_cap):
    """The error to raise for ``err``, a MessagingException raised by an
    RPC call."""
    for cls, reason in _TRANSPORT_FAILURES:
        if isinstance(err, cls):
            return exception.ServiceUnavailable(reason=reason)
    if _error_name(err) in _TOO_NEW_FOR_THE_CONDUCTOR:
        # An API unpinned before the conductors (upgrade step 6.3 before
        # 6.1): nothing was done; retrying will not help.  (A broker
        # carries the refusal as a RemoteError; the fake:// transport
        # raises it as is.)
        return exception.ConductorTooOld(version=version_cap)
    if isinstance(err, messaging.RemoteError):
        return exception.ServiceUnavailable(
            reason=_remote_failure_reason(err))
    return exception.ServiceUnavailable(
        reason='RPC to the conductor failed; the request may or may not '
               'have been carried out: please check the resource before '
               'you retry.')


def translated(func):
    """Turn a dead broker or a silent conductor into a clear 503, and a
    conductor's error into the same error without its traceback.

    A 503 says the request was not carried out only when nothing was
    sent; once a call is sent, the conductor may have carried it out.
    """
    @functools.wraps(func)
    def wrapper(self, *args, **kwargs):
        broker_probe.check()
        try:
            result = func(self, *args, **kwargs)
        except exception.IronicException as err:
            if type(err).__name__.endswith(_REMOTE_SUFFIX):
                broker_probe.answered()   # with the conductor's error
            # Not chained to the remote exception: its message carries
            # the traceback, which stays out of logs and bodies.
            raise without_remote_traceback(err) from None
        except messaging.MessagingException as err:
            raise _error_for(err, self.version_cap)
        except _BROKER_ERRORS as err:
            raise exception.ServiceUnavailable(
                reason=_BROKER_FAILED % type(err).__name__) from None
        broker_probe.answered()
        return result
    return wrapper
