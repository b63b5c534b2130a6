"""How an API resource is written: the ``Writer`` of its declaration
(``resource.Resource``).

Each action (create, update, destroy) is sent to the conductor by a
method of the RPC client, named by reference
(``rpcapi.ConductorAPI.update_port``), or written to the database here
(None).  The references are checked when the declaring module loads: a
method the client does not have is an error at import, never a write
that silently goes around the conductor.  What a service pinned below
``version`` does:

- ``DIRECT``: the API writes to the database itself, after the checks
  the conductor would make (ports and port groups below RPC 1.3, as
  release 2.0 did);
- ``REFUSE``: 409 ``PinnedRelease`` before anything is written, worded
  with ``what`` (``'{verb} a volume connector'``).

An action with no method is always written to the database by the API
(a port group's creation, as Ironic's API writes it; the resource's
controller makes the checks the conductor would).
"""

import inspect

from ironic_lite.conductor import rpcapi

# The RPC client whose methods a writer names.
CLIENT = rpcapi.ConductorAPI
DIRECT = 'direct'
REFUSE = 'refuse'
# The verb of a refused write's message ("Creating a volume connector").
VERBS = {'create': 'Creating', 'update': 'Updating', 'destroy': 'Deleting'}
# The objects' method writing each action to the database.
SAVES = {'create': 'create', 'update': 'save', 'destroy': 'destroy'}


def _checked(method):
    """``method`` (a ConductorAPI method, or None), after checking it is
    one: its name, and whether it takes the object's node (a ``node``
    after the context and the object: ``update_port(context, port_obj,
    node)``, not ``destroy_node(context, node)``)."""
    if method is None:
        return None
    name = getattr(method, '__name__', None)
    if getattr(CLIENT, name or '', None) is not method:
        raise TypeError('%r is not a method of the conductor RPC client '
                        '(rpcapi.ConductorAPI)' % (method,))
    params = list(inspect.signature(method).parameters)[1:]  # no self
    return name, params[2:3] == ['node']


class Writer(object):
    """How each action of a resource is written (see the module)."""

    def __init__(self, create=None, update=None, destroy=None,
                 version=None, older=None, what=None):
        self.methods = {'create': _checked(create),
                        'update': _checked(update),
                        'destroy': _checked(destroy)}
        if (version is None) != (older is None) or older not in (
                None, DIRECT, REFUSE):
            raise ValueError('a writer needs a version with older=DIRECT '
                             'or REFUSE, or neither')
        if older == REFUSE and not what:
            raise ValueError('a refusing writer words its refusal (what)')
        if older == DIRECT and all(m is None for m in self.methods.values()):
            raise ValueError('older=DIRECT is for a writer that sends '
                             'an action to the conductor')
        self.version, self.older, self.what = version, older, what

    def check(self, client, action):
        """409 (nothing written) for a refusing writer pinned below its
        version."""
        if self.older == REFUSE:
            client.check_can_send(self.version,
                                  self.what.format(verb=VERBS[action]))

    def sends(self, client, action):
        """Whether ``action`` goes to the conductor now."""
        if self.methods[action] is None:
            return False
        return self.older != DIRECT or client.can_send_version(self.version)

    def takes_node(self, action):
        """Whether the action's RPC method takes the object's node (the
        conductor it goes to)."""
        return self.methods[action][1]

    def send(self, client, action, ctx, obj, node=None, **kwargs):
        """Call the action's RPC method (the one the client has under
        the name checked at import), with ``kwargs`` (the node's
        ``expected`` fields, ``reset_interfaces``).  Returns what the
        conductor returns."""
        name, takes_node = self.methods[action]
        method = getattr(client, name)
        if takes_node:
            return method(ctx, obj, node, **kwargs)
        return method(ctx, obj, **kwargs)
