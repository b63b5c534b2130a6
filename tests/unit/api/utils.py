"""Helpers of the API tests."""

import base64
import json

import bcrypt

from ironic_lite.common import context
from ironic_lite.common import policy
from ironic_lite import conf
from ironic_lite import objects


def fault(resp):
    """The inner fault document of an error response (checks the shape)."""
    assert resp.content_type == 'application/json', resp.headers
    outer = resp.json
    assert set(outer) == {'error_message'}, outer
    inner = json.loads(outer['error_message'])
    assert set(inner) == {'faultstring', 'faultcode', 'debuginfo'}, inner
    assert inner['faultcode'] == ('Client' if resp.status_int < 500
                                  else 'Server')
    return inner


def faultstring(resp):
    return fault(resp)['faultstring']


def basic_auth(user, password=None):
    """The Authorization header of an http_basic user (password
    ``<user>-pw`` unless given)."""
    token = base64.b64encode(('%s:%s' % (user, password or user + '-pw'))
                             .encode()).decode()
    return {'Authorization': 'Basic ' + token}


def use_http_basic(tmp_path, users):
    """Switch the API to http_basic with an htpasswd file of ``users``:
    {user: ":roles[:project]" suffix of its line (see api/auth.py)}; each
    user's password is ``<user>-pw``."""
    lines = []
    for user, extra in users.items():
        digest = bcrypt.hashpw((user + '-pw').encode(), bcrypt.gensalt(4))
        lines.append('%s:%s%s' % (user, digest.decode(), extra))
    htpasswd = tmp_path / 'htpasswd'
    htpasswd.write_text('\n'.join(lines) + '\n')
    conf.CONF.set_override('auth_strategy', 'http_basic')
    conf.CONF.set_override('http_basic_auth_user_file', str(htpasswd))
    policy.reset()


def stored_node(uuid):
    """The node as the database holds it now."""
    return objects.Node.get_by_uuid(context.get_admin_context(), uuid)


def set_node(uuid, **values):
    """Write ``values`` to a node directly (a test's setup), and return
    the node as saved."""
    node = stored_node(uuid)
    for name, value in values.items():
        setattr(node, name, value)
    node.save()
    return node


def refused_400(resp, message):
    """``resp`` is a 400 whose fault string is ``message``."""
    assert resp.status_int == 400, resp.text
    assert faultstring(resp) == message


def create_named_node(client, name, version=None, **fields):
    """Create a fake-hardware node ``name`` with ``fields``; its body."""
    body = dict({'driver': 'fake-hardware', 'name': name}, **fields)
    resp = client.post_json('/v1/nodes', body, version=version)
    assert resp.status_int == 201, resp.text
    return resp.json


def named_node(client):
    """Create a fake-hardware node named n1; its UUID."""
    return create_named_node(client, 'n1')['uuid']


def node_names(resp):
    """The sorted names of a node list answered 200."""
    assert resp.status_int == 200, resp.text
    return sorted(n['name'] for n in resp.json['nodes'])
