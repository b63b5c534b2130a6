"""ironic-lite's dictionary masking answers exactly as oslo.utils' does."""

from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from oslo_utils import strutils
import pytest

from ironic_lite.common import masking

SECRET = '******'
WORDS = ['password', 'ipmi_password', 'Token', 'auth_token', 'secret',
         'snmp_priv_key', 'configdrive', 'image_url', 'address', 'user',
         'PrivateKey', 'private_key', 'passphrase', 'ssh_key']
TEXT = st.one_of(
    st.text(max_size=20),
    st.sampled_from(['--password hunter2', "'adminPass': 'x'",
                     'token=abc', 'http://u:p@h/x', 'plain', '',
                     'password="a b"', 'secret_uuid: 1', 'PASSWORD=x']))
SCALARS = st.one_of(TEXT, st.integers(), st.none(), st.booleans(),
                    st.binary(max_size=8))
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(st.one_of(st.sampled_from(WORDS), st.text(max_size=8),
                                  st.integers()), inner, max_size=4)),
    max_leaves=12)
DICTS = st.dictionaries(st.one_of(st.sampled_from(WORDS),
                                  st.text(max_size=10)), VALUES, max_size=6)


@settings(max_examples=400, deadline=None)
@given(DICTS)
def test_the_same_as_the_library(value):
    assert masking.mask_dict_password(value, SECRET) == \
        strutils.mask_dict_password(value, SECRET)


def test_an_ipmi_driver_info():
    info = {'ipmi_address': '10.0.0.1', 'ipmi_username': 'admin',
            'ipmi_password': 'x', 'deploy_kernel': 'http://h/k',
            'extra': {'token': 't', 'note': 'password=abc'},
            'list': ['password=abc', {'secret': 1}]}
    masked = masking.mask_dict_password(info, SECRET)
    assert masked == strutils.mask_dict_password(info, SECRET)
    assert masked['ipmi_password'] == SECRET
    assert masked['extra']['token'] == SECRET
    assert masked['ipmi_address'] == '10.0.0.1'


def test_not_a_mapping_is_the_library_s_error():
    with pytest.raises(TypeError):
        masking.mask_dict_password(['a'], SECRET)
