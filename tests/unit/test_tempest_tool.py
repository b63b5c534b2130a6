"""The pure parts of tools/tempest (tox -e tempest): no Keystone, no
service, no Tempest run."""

import configparser
import os

import pytest

from tools.tempest import cloud
from tools.tempest import devstack
from tools.tempest import run
from tools.tempest import tempest_env


class FakeKeystone(object):
    """Records the identity API calls keystone.Identity makes."""

    url = 'http://127.0.0.1:5000/v3'

    def __init__(self):
        self.calls = []

    def call(self, method, path, body=None):
        self.calls.append((method, path, body))
        if method == 'GET' and path == '/roles':
            return {'roles': [{'name': n, 'id': n + '-id'}
                              for n in ('admin', 'member', 'reader')]}
        if path.startswith('/projects?'):
            return {'projects': []}
        noun = path.strip('/').split('/')[0][:-1]
        return {noun: {'id': '%s-%d' % (noun, len(self.calls))}}


def test_summary_counts_and_lists_the_failures():
    rows = [('a.test_one', 'success'), ('a.test_two', 'failure'),
            ('setUpClass (a.B)', 'skip'), ('a.test_three', 'fail'),
            ('a.test_four', 'success')]
    text, failed = run.summarise(rows)
    assert failed
    assert text.splitlines() == ['2 passed, 2 failed, 1 skipped',
                                 'Failed tests:', '  a.test_three',
                                 '  a.test_two']
    text, failed = run.summarise([('a.test_one', 'success')])
    assert (text, failed) == ('1 passed, 0 failed, 0 skipped\n', False)


def test_each_set_has_every_persona_and_its_own_project():
    ks = FakeKeystone()
    accounts = cloud.provision(ks, 3, 'http://127.0.0.1:6385')
    assert len(accounts) == 3 * len(cloud.SET_ACCOUNTS)
    system = [a for a in accounts if a.get('system') == 'all']
    assert sorted(a['roles'][0] for a in system) == sorted(
        ['admin', 'member', 'reader'] * 3)
    project = [a for a in accounts if 'project_name' in a]
    assert len({a['project_name'] for a in project}) == 3
    for name in {a['project_name'] for a in project}:
        assert sorted(a['roles'][0] for a in project
                      if a['project_name'] == name) == [
            'admin', 'member', 'reader']
    assert len({a['username'] for a in accounts}) == len(accounts)
    # ironic-lite's service user and its catalog entry.
    assert ('POST', '/services', {'service': {
        'type': 'baremetal', 'name': 'ironic'}}) in ks.calls


def test_tempest_conf(tmp_path):
    path = tempest_env.write_config(
        str(tmp_path / 'tempest.conf'), str(tmp_path), FakeKeystone(),
        'accounts.yaml', {'console': ['fake', 'no-console']}, '1.1', '1.82')
    conf = configparser.ConfigParser()
    conf.read(path)
    assert conf['baremetal']['max_microversion'] == '1.82'
    assert conf['baremetal']['min_microversion'] == '1.1'
    assert conf['baremetal']['driver'] == 'fake-hardware'
    assert conf['baremetal']['enabled_console_interfaces'] == (
        'fake,no-console')
    assert conf['auth']['use_dynamic_credentials'] == 'False'
    assert conf['auth']['test_accounts_file'] == 'accounts.yaml'
    assert conf['identity']['uri_v3'] == FakeKeystone.url
    assert conf['enforce_scope']['ironic'] == 'True'
    available = {k: conf['service_available'][k]
                 for k in conf.options('service_available')
                 if k not in conf.defaults()}
    assert {k for k, v in available.items() if v == 'True'} == {'ironic'}


def test_the_two_services_files_differ_in_three_values_only(tmp_path):
    paths = cloud.write_configs(str(tmp_path), FakeKeystone(),
                                {'lite': 6385, 'ironic': 6386},
                                ironic_url='postgresql://h/ironic_x')
    assert devstack.differences(paths['lite'], paths['ironic']) == {
        ('database', 'connection'), ('api', 'port'),
        ('DEFAULT', 'state_path')}
    ironic = configparser.RawConfigParser()
    ironic.read(paths['ironic'])
    assert ironic['database']['connection'] == 'postgresql://h/ironic_x'
    # The directories the file names under state_path are there.
    state = ironic['DEFAULT']['state_path']
    assert os.path.isdir(os.path.join(state, 'httpboot'))
    assert os.path.isdir(os.path.join(state, 'tftpboot', 'master_images'))


def test_differences_sees_a_changed_a_missing_and_an_added_option(
        tmp_path):
    a = tmp_path / 'a.conf'
    b = tmp_path / 'b.conf'
    a.write_text('[DEFAULT]\nhost = x\ndebug = True\n[api]\nport = 1\n')
    b.write_text('[DEFAULT]\nhost = y\n[api]\nport = 1\n'
                 '[nova]\nsend_power_notifications = False\n')
    assert devstack.differences(str(a), str(b)) == {
        ('DEFAULT', 'host'), ('DEFAULT', 'debug'),
        ('nova', 'send_power_notifications')}
    assert devstack.differences(str(a), str(a)) == set()


def test_ironic_conf_as_devstack_writes_it():
    sections = devstack.sections(FakeKeystone(), 'pw', 'sqlite://', 6385,
                                 '/state')
    default = sections['DEFAULT']
    assert (default['auth_strategy'], default['rpc_transport']) == (
        'keystone', 'none')
    assert default['enabled_hardware_types'] == 'fake-hardware'
    assert default['enabled_vendor_interfaces'] == 'fake,ipmitool,no-vendor'
    assert default['default_network_interface'] == 'noop'
    assert 'enabled_power_interfaces' not in default
    token = sections['keystone_authtoken']
    assert token['www_authenticate_uri'] == FakeKeystone.url
    assert token['service_token_roles_required'] is True
    for section in devstack.CLIENT_SECTIONS:
        assert sections[section]['auth_url'] == FakeKeystone.url
    # Without Keystone (noauth, the functional tests), redfish enabled.
    sections = devstack.sections(None, None, 'sqlite://', 6385, '/state',
                                 auth_strategy='noauth',
                                 hardware_types=('fake-hardware', 'redfish'))
    assert 'keystone_authtoken' not in sections
    default = sections['DEFAULT']
    assert default['enabled_power_interfaces'] == 'fake,redfish'
    assert default['enabled_boot_interfaces'] == (
        'fake,ipxe,redfish-virtual-media')


def test_service_argument():
    assert run._args([]).service == 'lite'
    assert run._args(['--service', 'ironic']).service == 'ironic'
    with pytest.raises(SystemExit):
        run._args(['--service', 'nova'])


def test_a_fourth_difference_stops_the_run(tmp_path, monkeypatch):
    written = devstack.sections

    def sections(ks, password, database, port, state_path, **kwargs):
        result = written(ks, password, database, port, state_path, **kwargs)
        result['DEFAULT']['host'] = 'host-%s' % port
        return result
    monkeypatch.setattr(devstack, 'sections', sections)
    with pytest.raises(RuntimeError) as err:
        cloud.write_configs(str(tmp_path), FakeKeystone(),
                            {'lite': 6385, 'ironic': 6386})
    assert "('DEFAULT', 'host')" in str(err.value)
