"""Tempest's side: its venv, its configuration and its results.

Tempest and ironic-tempest-plugin come from PyPI into a venv of their own,
cached under ``$XDG_CACHE_HOME/ironic-lite-tempest/<tempest>-<plugin>``
(``~/.cache`` when unset): not ironic-lite's venv, whose libraries they
would otherwise pin.
"""

import csv
import io
import json
import os
import shutil
import subprocess
import sys

from tests.functional import procs
from tests import timeouts

TEMPEST_VERSION = '47.0.0'
PLUGIN_VERSION = '3.2.0'
COMPLETE_MARKER = '.complete'
# Services the catalog does not have: Tempest must not look for them.
OTHER_SERVICES = ('cinder', 'glance', 'horizon', 'ironic_inspector',
                  'neutron', 'nova', 'swift')
OTHER_SCOPES = ('cinder', 'glance', 'ironic_inspector', 'keystone',
                'neutron', 'nova', 'placement')


def _venv_dir():
    root = os.path.join(procs.cache_dir('ironic-lite-tempest'),
                        '%s-%s' % (TEMPEST_VERSION, PLUGIN_VERSION))
    return root, os.path.join(root, 'venv')


def _complete(venv):
    return (os.path.exists(os.path.join(venv, COMPLETE_MARKER)) and
            os.access(os.path.join(venv, 'bin', 'tempest'), os.X_OK))


def _install(root, venv):
    log_path = os.path.join(root, 'install.log')
    shutil.rmtree(venv, ignore_errors=True)
    pins = ['tempest==%s' % TEMPEST_VERSION,
            'ironic-tempest-plugin==%s' % PLUGIN_VERSION]
    with open(log_path, 'w') as log:
        for args in ([sys.executable, '-m', 'venv', venv],
                     [os.path.join(venv, 'bin', 'python'), '-m', 'pip',
                      'install', '-qq', '--disable-pip-version-check',
                      '--no-input'] + pins):
            result = subprocess.run(args, stdout=log,
                                    stderr=subprocess.STDOUT,
                                    timeout=timeouts.INSTALL_HANG)
            if result.returncode != 0:
                raise RuntimeError('%s failed (exit %s); see %s'
                                   % (' '.join(args[:4]), result.returncode,
                                      log_path))
    with open(os.path.join(venv, COMPLETE_MARKER), 'w') as f:
        f.write(' '.join(pins) + '\n')


def install():
    """The bin directory of the cached Tempest venv (installed once)."""
    root, venv = _venv_dir()
    if not _complete(venv):
        os.makedirs(root, exist_ok=True)
        with procs.file_lock(os.path.join(root, '.lock')):
            if not _complete(venv):
                print('Installing tempest %s and ironic-tempest-plugin %s '
                      'into %s' % (TEMPEST_VERSION, PLUGIN_VERSION, venv),
                      flush=True)
                _install(root, venv)
    return os.path.join(venv, 'bin')


def write_accounts(path, accounts):
    """Tempest's accounts file (JSON is YAML)."""
    with open(path, 'w') as f:
        json.dump(accounts, f, indent=1)
    return path


def _baremetal_section(interfaces, min_version, max_version):
    section = {'driver': 'fake-hardware',
               'enabled_hardware_types': 'fake-hardware',
               'min_microversion': min_version,
               'max_microversion': max_version,
               'power_timeout': timeouts.HANG,
               'unprovision_timeout': timeouts.HANG,
               'active_timeout': timeouts.HANG}
    for interface, names in sorted(interfaces.items()):
        section['enabled_%s_interfaces' % interface] = ','.join(names)
    return section


def _write_ini(path, sections):
    with open(path, 'w') as f:
        for section, values in sections.items():
            f.write('[%s]\n' % section)
            for key, value in values.items():
                f.write('%s = %s\n' % (key, value))
            f.write('\n')
    return path


def write_config(path, workdir, ks, accounts_file, interfaces, min_version,
                 max_version):
    """tempest.conf: identity v3, pre-provisioned accounts, ironic only."""
    available = dict({name: False for name in OTHER_SERVICES}, ironic=True)
    scopes = dict({name: False for name in OTHER_SCOPES}, ironic=True)
    return _write_ini(path, {
        'DEFAULT': {'log_dir': workdir, 'log_file': 'tempest.log',
                    'debug': True},
        'oslo_concurrency': {'lock_path': os.path.join(workdir, 'locks')},
        'auth': {'use_dynamic_credentials': False,
                 'test_accounts_file': accounts_file,
                 'default_credentials_domain_name': 'Default',
                 'create_isolated_networks': False},
        'identity': {'uri_v3': ks.url, 'auth_version': 'v3',
                     'region': 'RegionOne', 'v3_endpoint_type': 'public'},
        'identity-feature-enabled': {'api_v2': False},
        'service_available': available,
        'enforce_scope': scopes,
        'baremetal': _baremetal_section(interfaces, min_version,
                                        max_version),
    })


def run(bindir, workdir, config, regex, concurrency, log):
    """``tempest run`` in ``workdir``; returns its exit code."""
    args = [os.path.join(bindir, 'tempest'), 'run', '--config-file', config,
            '--regex', regex, '--concurrency', str(concurrency)]
    env = {k: v for k, v in os.environ.items() if k != 'PYTHONPATH'}
    return subprocess.run(args, cwd=workdir, env=env, stdout=log,
                          stderr=subprocess.STDOUT).returncode


def results(bindir, workdir):
    """[(test id, status)] of the last run in ``workdir``'s stestr
    repository; the subunit stream and stestr's failure details are kept
    beside it (results.subunit, failures.txt)."""
    env = {k: v for k, v in os.environ.items() if k != 'PYTHONPATH'}
    stestr = os.path.join(bindir, 'stestr')
    subunit = subprocess.run([stestr, 'last', '--subunit'], cwd=workdir,
                             env=env, capture_output=True).stdout
    with open(os.path.join(workdir, 'results.subunit'), 'wb') as f:
        f.write(subunit)
    with open(os.path.join(workdir, 'failures.txt'), 'w') as f:
        subprocess.run([stestr, 'failing'], cwd=workdir, env=env, stdout=f,
                       stderr=subprocess.STDOUT)
    table = subprocess.run([os.path.join(bindir, 'subunit2csv')],
                           input=subunit, env=env,
                           capture_output=True).stdout.decode()
    rows = list(csv.reader(io.StringIO(table)))
    return [(row[0], row[1]) for row in rows[1:] if len(row) > 1]
