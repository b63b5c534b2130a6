"""service_reporter.deployment_records: every live service, as the upgrade
assessment (``ironic-status upgrade check``, the unpin check) reads it."""

import pytest

from ironic_lite.common import upgrade_state
from ironic_lite import conf
from ironic_lite import objects
from ironic_lite.objects import service as service_obj
from ironic_lite import service_reporter
from ironic_lite import version

R = upgrade_state.Record


@pytest.fixture
def database(tmp_path, use_db):
    conf.CONF([], project='ironic', default_config_files=[])
    use_db('sqlite:///%s' % (tmp_path / 'ironic.db'))
    objects.register_all()


def register_conductors(*hosts):
    for host in hosts:
        objects.Conductor.register(None, host, ['fake-hardware'], '')


def test_reported_services_and_silent_conductors(database):
    register_conductors('cond-old', 'cond-new')
    objects.Service.report(None, 'conductor', 'cond-new', 'cond-new')
    objects.Service.report(None, 'api', 'host:6385', 'host')
    assert sorted(service_reporter.deployment_records(None)) == [
        R('api', 'host:6385', version.RELEASE, None),
        R('conductor', 'cond-new', version.RELEASE, None),
        R('conductor', 'cond-old', None, None)]


def test_before_the_services_table_every_conductor_is_silent(
        database, monkeypatch):
    register_conductors('c1', 'c2')
    monkeypatch.setattr(service_obj.Service, 'table_exists',
                        staticmethod(lambda: False))
    assert sorted(service_reporter.deployment_records(None)) == [
        R('conductor', 'c1', None, None), R('conductor', 'c2', None, None)]


def test_the_services_table_exists_at_head(database):
    assert service_obj.Service.table_exists()
