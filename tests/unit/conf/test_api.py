"""[api]api_workers: Ironic's rule for the number of API processes."""

from oslo_concurrency import processutils

from ironic_lite import conf
from ironic_lite.conf import api as api_conf

CONF = conf.CONF


def test_the_default_is_the_cpus(monkeypatch, conf_fixture):
    monkeypatch.setattr(processutils, 'get_worker_count', lambda: 2)
    assert CONF.api.api_workers is None
    assert api_conf.worker_count(CONF) == 2


def test_the_default_is_at_most_four(monkeypatch, conf_fixture):
    monkeypatch.setattr(processutils, 'get_worker_count', lambda: 42)
    assert api_conf.worker_count(CONF) == api_conf.MAX_DEFAULT_WORKERS == 4


def test_zero_is_the_default_too(monkeypatch, conf_fixture):
    monkeypatch.setattr(processutils, 'get_worker_count', lambda: 3)
    conf_fixture.config(api_workers=0, group='api')
    assert api_conf.worker_count(CONF) == 3


def test_a_set_number_is_kept_above_the_cap(monkeypatch, conf_fixture):
    monkeypatch.setattr(processutils, 'get_worker_count', lambda: 2)
    conf_fixture.config(api_workers=6, group='api')
    assert api_conf.worker_count(CONF) == 6


def test_one_cpu_unknown_is_one_worker(monkeypatch):
    def unknown():
        raise NotImplementedError()
    monkeypatch.setattr(processutils.multiprocessing, 'cpu_count', unknown)
    assert api_conf.worker_count(CONF) == 1


def test_threads_keep_ironic_lite_s_former_default():
    assert CONF.api.threads == 8
