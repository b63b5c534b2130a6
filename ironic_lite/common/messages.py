"""What a BMC, an agent or a driver says, made safe to store and to log.

Their error texts go into ``last_error`` and the service log, and a BMC
writes what it likes in them: megabytes, and credentials echoed back (the
``Authorization`` header of the request, a URL with ``user:password@``,
the password in a JSON body).  ``safe`` bounds a text to
``[DEFAULT]log_in_db_max_size`` characters (Ironic's option: Ironic cuts
``last_error`` and ``maintenance_reason`` there on save) and masks the
credentials it can recognise, and the ones the caller knows.
"""

import base64
import re
from urllib import parse as urlparse

from oslo_utils import strutils

from ironic_lite import conf

CONF = conf.CONF

MASK = '***'
TRUNCATED = ' ... [truncated]'

# An HTTP authorization scheme and its credentials (``Basic <base64>``,
# ``Bearer <token>``), in a header echoed back or a repr of headers.
_AUTH_SCHEME = re.compile(
    r'\b(Basic|Bearer|Negotiate)(\s+)[A-Za-z0-9+/=._~-]{4,}', re.I)
# ``user:password@`` (or ``user@``) in a URL.
_USERINFO = re.compile(r'\b([a-z][a-z0-9+.-]*://)[^/\s@\'"<>]+@', re.I)
# ``<name>: <value>`` or ``<name>=<value>`` whose name says it is secret
# (``X-Auth-Token: x``, ``redfish_password=x``), quoted or not.
_SECRET_KEY = re.compile(
    r'((?:password|passwd|secret|token|credential)[\w-]*[\'"]?\s*[:=]\s*'
    r'[\'"]?)[^\s\'",;}&<]+', re.I)


def _base64_forms(secret, usernames):
    """``secret`` and the ``Basic`` credentials it makes with each user."""
    forms = [secret]
    for user in usernames:
        pair = '%s:%s' % (user or '', secret)
        forms.append(base64.b64encode(pair.encode()).decode())
    return forms


def safe(text, secrets=(), usernames=(), limit=None):
    """``text`` (any object: its ``str``) bounded and without credentials.

    :param secrets: strings known to be secret (a node's BMC password):
        masked wherever they appear, plainly or as the base64 of
        ``user:secret`` for each of ``usernames``.
    :param limit: the most characters kept; ``[DEFAULT]
        log_in_db_max_size`` by default.
    :returns: a string of at most ``limit`` characters (None stays None).
    """
    if text is None:
        return None
    limit = CONF.log_in_db_max_size if limit is None else limit
    # The scrub reads twice what is kept at most: its cost is bounded, and
    # a credential across the final cut is still seen whole.
    text = str(text)
    cut = len(text) > limit
    text = text[:2 * limit]
    for secret in secrets:
        if secret and len(str(secret)) > 2:
            for form in _base64_forms(str(secret), usernames):
                text = text.replace(form, MASK)
    text = _AUTH_SCHEME.sub(r'\1\2' + MASK, text)
    text = _USERINFO.sub(r'\1', text)
    text = _SECRET_KEY.sub(r'\1' + MASK, text)
    text = strutils.mask_password(text, secret=MASK)
    if cut or len(text) > limit:
        text = text[:max(0, limit - len(TRUNCATED))] + TRUNCATED
    return text[:limit]


def node_secrets(node):
    """(secrets, usernames) of a node's ``driver_info``: the values of
    its ``*password*`` and ``*username*`` keys, and the user and password
    of a URL value with ``user:password@``."""
    info = node.driver_info if node.obj_attr_is_set('driver_info') else {}
    secrets, users = [], []
    for key, value in (info or {}).items():
        if not isinstance(value, str):
            continue
        if 'password' in key:
            secrets.append(value)
        elif 'username' in key:
            users.append(value)
        elif '@' in value and '://' in value:
            try:
                url = urlparse.urlsplit(value)
                secrets.append(url.password)
                users.append(url.username)
            except ValueError:
                pass
    return [s for s in secrets if s], users
