"""Real OpenStack Ironic, from PyPI, beside ironic-lite.

Ironic is installed at a pinned version into a virtualenv of its own
(``~/.cache/ironic-lite-bench/ironic-<version>``, made once and reused),
never into the project's environment: it is something the benchmark
measures against, not a dependency.

Two layouts, as ironic-lite's:

* ``aio``: Ironic's all-in-one ``ironic`` command, the conductor called in
  process (``rpc_transport = none``);
* ``split``: ``ironic-api`` + ``ironic-conductor`` over Ironic's JSON-RPC.

Both: ``auth_strategy = noauth``, the ``fake-hardware`` type and its
interfaces enabled, the periodic tasks over all nodes switched off, every
address on loopback.
"""

import json
import os
import subprocess
import sys

from tools.benchmark import services

IRONIC_VERSION = '39.0.0'
CACHE = os.path.join(os.path.expanduser('~'), '.cache', 'ironic-lite-bench')

# The interfaces of the fleet (tools/benchmark/dataset.py node_row).
INTERFACES = {
    'bios': ['no-bios', 'fake'], 'boot': ['fake'], 'console': ['no-console'],
    'deploy': ['fake'], 'firmware': ['no-firmware'], 'inspect': ['fake'],
    'management': ['fake'], 'network': ['flat', 'noop'], 'power': ['fake'],
    'raid': ['no-raid'], 'rescue': ['no-rescue'], 'storage': ['noop'],
    'vendor': ['no-vendor'],
}


def venv_dir(version=IRONIC_VERSION, cache=CACHE):
    return os.path.join(cache, 'ironic-%s' % version)


# The database drivers installed beside Ironic (PostgreSQL, MySQL/MariaDB).
DRIVERS = ('psycopg2-binary', 'PyMySQL')


def ensure_installed(version=IRONIC_VERSION, cache=CACHE, python=None):
    """Create the cached venv with ``ironic==version``; its bin directory.

    The drivers for the databases (``DRIVERS``) come with it.  A venv
    whose ``.installed`` marker names the version and the drivers is
    reused as it is; one made before a driver was added gets it added.
    """
    venv = venv_dir(version, cache)
    marker = os.path.join(venv, '.installed')
    bin_dir = os.path.join(venv, 'bin')
    wanted = ' '.join((version,) + DRIVERS)
    if os.path.exists(marker):
        with open(marker) as f:
            if f.read().strip() == wanted:
                return bin_dir
    os.makedirs(cache, exist_ok=True)
    python = python or sys.executable
    print('installing ironic==%s into %s (once) ...' % (version, venv),
          file=sys.stderr, flush=True)
    if not os.path.exists(os.path.join(bin_dir, 'python')):
        subprocess.run([python, '-m', 'venv', venv], check=True)
    subprocess.run([os.path.join(bin_dir, 'python'), '-m', 'pip', 'install',
                    '-q', 'ironic==%s' % version] + list(DRIVERS),
                   check=True)
    with open(marker, 'w') as f:
        f.write(wanted)
    return bin_dir


def object_versions(bin_dir):
    """The VERSION of Ironic's Node, Port and Portgroup objects: what its
    rows must carry (``ironic-dbsync`` checks them)."""
    code = ('import json\n'
            'from ironic.objects import node, port, portgroup\n'
            'print(json.dumps({"nodes": node.Node.VERSION,'
            ' "ports": port.Port.VERSION,'
            ' "portgroups": portgroup.Portgroup.VERSION}))\n')
    out = subprocess.run([os.path.join(bin_dir, 'python'), '-c', code],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def config_sections(db_url, port, layout, run_dir, rpc_port=None):
    """Ironic's configuration of the run, as {section: {option: value}}."""
    default = {
        'auth_strategy': 'noauth',
        # Ironic's JSON-RPC client connects to the conductor's host name.
        'host': ('127.0.0.1' if layout == 'split'
                 else 'ironic-bench-%d' % port),
        'rpc_transport': 'none' if layout == 'aio' else 'json-rpc',
        'enabled_hardware_types': 'fake-hardware',
        'default_network_interface': 'flat',
        'state_path': run_dir,
        'use_stderr': 'true',
        'debug': 'false',
    }
    for iface, names in INTERFACES.items():
        default['enabled_%s_interfaces' % iface] = ','.join(names)
    sections = {
        'DEFAULT': default,
        'api': {'host_ip': '127.0.0.1', 'port': port},
        'conductor': {'sync_power_state_interval': 0,
                      'check_provision_state_interval': 0,
                      'check_allocations_interval': 0,
                      'sync_local_state_interval': 0,
                      'automated_clean': 'false'},
        'database': {'connection': db_url},
        'dhcp': {'dhcp_provider': 'none'},
        'oslo_policy': {'enforce_scope': 'false',
                        'enforce_new_defaults': 'false'},
    }
    if layout == 'split':
        sections['json_rpc'] = {'auth_strategy': 'noauth',
                                'host_ip': '127.0.0.1', 'port': rpc_port}
    return sections


def write_config(path, sections):
    with open(path, 'w') as f:
        for section, values in sections.items():
            f.write('[%s]\n' % section)
            for key, value in values.items():
                f.write('%s = %s\n' % (key, value))
            f.write('\n')
    return path


def dbsync(bin_dir, config_file):
    """A fresh database: ``create_schema`` (``upgrade`` refuses an empty
    one with the newest alembic)."""
    subprocess.run([os.path.join(bin_dir, 'ironic-dbsync'), '--config-file',
                    config_file, 'create_schema'],
                   check=True, capture_output=True, text=True)


def start(bin_dir, layout, config_file, log_dir):
    """Ironic's processes; conductor first."""
    if layout == 'aio':
        names = ['ironic']
    else:
        names = ['ironic-conductor', 'ironic-api']
    return [services.Process(name, config_file, log_dir,
                             executable=os.path.join(bin_dir, name),
                             log_name='real-%s' % name)
            for name in names]
