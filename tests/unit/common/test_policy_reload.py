"""An edited policy file takes effect without a restart, within a second
(ironic_lite.common.policy._Enforcer), and is not looked for at every
enforcement."""

import threading
import time
from unittest import mock

import pytest

from ironic_lite.common import context
from ironic_lite.common import policy
from ironic_lite import conf
from tests import timeouts


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


def test_one_thread_at_a_time_loads_the_rules(conf_fixture):
    """oslo.policy's load_rules is not thread-safe (a first load adds the
    defaults while another iterates over them: a 500 seen after an API
    restart under load): the enforcer lets one thread load at a time, and
    those that waited do not load again."""
    policy.reset()
    enforcer = policy.get_enforcer()
    enforcer.clear()
    inside, most, calls = [0], [0], [0]
    lock = threading.Lock()
    real = policy.policy.Enforcer.load_rules

    def slow_load(self, force_reload=False):
        with lock:
            inside[0] += 1
            calls[0] += 1
            most[0] = max(most[0], inside[0])
        time.sleep(0.05)
        try:
            return real(self, force_reload)
        finally:
            with lock:
                inside[0] -= 1

    ctx = context.RequestContext(is_admin=True, roles=['admin'])
    errors = []

    def request():
        try:
            _reveals(ctx)
        except Exception as err:   # noqa: BLE001 (reported below)
            errors.append(err)

    try:
        with mock.patch.object(policy.policy.Enforcer, 'load_rules',
                               slow_load):
            threads = [threading.Thread(target=request) for _ in range(8)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeouts.HANG)
        assert not errors, errors
        assert most[0] == 1
        assert calls[0] == 1
    finally:
        policy.reset()


def test_the_enforcer_is_made_and_loaded_once(conf_fixture):
    policy.reset()
    made = []
    real = policy._Enforcer.__init__

    def counting(self, *args, **kwargs):
        made.append(self)
        time.sleep(0.02)
        real(self, *args, **kwargs)

    try:
        with mock.patch.object(policy._Enforcer, '__init__', counting):
            found = []
            threads = [threading.Thread(
                target=lambda: found.append(policy.get_enforcer()))
                for _ in range(6)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeouts.HANG)
        assert len(made) == 1
        assert {id(e) for e in found} == {id(made[0])}
        assert made[0]._checked_at is not None
    finally:
        policy.reset()
