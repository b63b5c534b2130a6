"""An edited policy file takes effect without a restart, within a second
(ironic_lite.common.policy._Enforcer), and is not looked for at every
enforcement."""

from unittest import mock

import pytest

from ironic_lite.common import context
from ironic_lite.common import policy
from ironic_lite import conf


@pytest.fixture(autouse=True)
def parsed_conf():
    conf.CONF([], project='ironic', default_config_files=[])


def _reveals(ctx):
    return policy.reveals('show_password', ctx)


def test_policy_file_edit_applies_within_the_check_interval(
        tmp_path, conf_fixture):
    policy_file = tmp_path / 'policy.yaml'
    policy_file.write_text('"show_password": "!"\n')
    policy.get_enforcer()       # registers the [oslo_policy] options
    conf_fixture.config(policy_file=str(policy_file), group='oslo_policy')
    policy.reset()
    ctx = context.RequestContext(is_admin=True, roles=['admin'])
    clock = [1000.0]
    try:
        with mock.patch.object(policy.time, 'monotonic',
                               side_effect=lambda: clock[0]):
            assert _reveals(ctx) is False
            policy_file.write_text('"show_password": "@"\n')
            # Not looked at again within the interval ...
            clock[0] += policy.RELOAD_CHECK_SECONDS / 2
            with mock.patch.object(policy.policy.Enforcer, 'load_rules') \
                    as load:
                assert _reveals(ctx) is False
            load.assert_not_called()
            # ... and in force once it has passed.
            clock[0] += policy.RELOAD_CHECK_SECONDS
            assert _reveals(ctx) is True
    finally:
        policy.reset()


def test_clear_forgets_when_the_files_were_checked(conf_fixture):
    policy.reset()
    enforcer = policy.get_enforcer()
    enforcer.load_rules()
    assert enforcer._checked_at is not None
    enforcer.clear()
    assert enforcer._checked_at is None
    policy.reset()
