"""pecan's argspec lookups, remembered per function.

pecan looks up a controller's argument spec two or three times per
request (``pecan.util.getargspec``: ``inspect.getfullargspec``, then a new
``namedtuple`` class built to hold it).  For a small request (one node, the
shard list) that was about a third of pecan's routing time.  A function's
arguments do not change while the process runs, so the answer is kept per
function (a bound method's, or the function itself); anything else (a
callable object) is looked up each time, as before.
"""

import inspect

import pecan.core
import pecan.decorators
import pecan.rest
import pecan.routing
import pecan.util

_PLAIN = pecan.util.getargspec
_SPECS = {}
# The pecan modules that imported getargspec by name.
_USERS = (pecan.core, pecan.decorators, pecan.rest, pecan.routing)


def getargspec(method):
    """``pecan.util.getargspec``, remembered per function."""
    func = getattr(method, '__func__', method)
    if not inspect.isfunction(func):
        return _PLAIN(method)
    spec = _SPECS.get(func)
    if spec is None:
        spec = _SPECS[func] = _PLAIN(method)
    return spec


def install():
    """Make pecan use the remembering lookup (idempotent)."""
    for module in _USERS:
        module.getargspec = getargspec
