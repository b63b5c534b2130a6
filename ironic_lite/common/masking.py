"""oslo.utils' masking of a dictionary's secrets (``mask_dict_password``),
answered the same, at a fraction of its cost for the usual dictionary.

The library lowers each key and each string value once for every one of
its thirty-odd sensitive words, on every call: about 10 us for an IPMI
``driver_info``, a tenth of a detailed node page of 1,000 nodes.  Here a
key's verdict is the library's own, asked once per key name (the same
dozen names recur on every node), and a string value goes through the
library's ``mask_password`` only when it holds one of those words -- the
only case where that function changes it.  Anything else (lists, other
collections) is left to the library, as is everything when its list of
words cannot be read.
"""

import collections.abc
import functools
import re

from oslo_utils import strutils

_WORDS = getattr(strutils, '_SANITIZE_KEYS', None)
# One scan of a lowered value for every sensitive word at once.
_ANY_WORD = (re.compile('|'.join(re.escape(w) for w in _WORDS))
             if _WORDS else None)


@functools.lru_cache(maxsize=4096)
def _secret_key(key, secret):
    """Whether the library replaces the value of ``key`` whole."""
    return strutils.mask_dict_password({key: 0}, secret)[key] == secret


def mask_dict_password(dictionary, secret):
    """``strutils.mask_dict_password(dictionary, secret)``, the same."""
    if _ANY_WORD is None or not isinstance(dictionary,
                                           collections.abc.Mapping):
        return strutils.mask_dict_password(dictionary, secret)
    out = {}
    for key, value in dictionary.items():
        if isinstance(value, collections.abc.Mapping):
            out[key] = mask_dict_password(value, secret)
        elif isinstance(key, str) and _secret_key(key, secret):
            out[key] = secret
        elif isinstance(value, str):
            out[key] = (strutils.mask_password(value, secret)
                        if _ANY_WORD.search(value.lower()) else value)
        elif isinstance(value, collections.abc.Collection):
            out[key] = strutils.mask_dict_password({key: value},
                                                   secret)[key]
        else:
            out[key] = value
    return out
