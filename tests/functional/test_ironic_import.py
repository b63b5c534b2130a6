"""Moving from Ironic: a database real Ironic 39 made and filled through
its own API, imported with ``ironic-dbsync import-ironic``, served by
ironic-lite with the same ``GET`` bodies, then driven with the README
tour's ``baremetal`` commands.  On PostgreSQL and on MariaDB.

Ironic 39 comes from PyPI into a venv of its own, cached
(``tools/benchmark/ironic_env.ensure_installed``; ``tests/prefetch.py``
makes it ahead of the functional level).  ``tox -e ironic-import`` runs
this file alone.

The bodies are compared at 1.115, field by field: every field either API
shows must be there and equal in the other, after the normalisations of
``ironic_fleet.py``, each with its reason: the API's own address taken
out of the links, the conductor's host name out of a node's
``conductor`` (the serving conductor is another process: its name is not
data that moved), traits compared as the set they are, and two defects
of Ironic 39's answers (a chassis's node links in a list in a list, an
inspection rule's links to a path it does not serve).  Any other
difference fails the test and is listed in its message.  1.115 is the
newest version of both: every field of 6.0 that Ironic 39 shows too is
compared (the fleet has a bit of each where Ironic's fake drivers can
make it through its API: ``ironic_fleet.py``).
"""

import contextlib
import os
import time

import pytest

from tests import conftest as top_conftest
from tests.functional import ironic_fleet
from tests.functional import procs
from tests import timeouts
from tools.benchmark import ironic_env

LITE_HOST = 'lite-import'
# The fake firmware interface too, for a few nodes of the fleet; not the
# default (Ironic would pick fake-hardware's first, 'fake', for every
# node), so the benchmark's configuration stays as it is.
FIRMWARE = {'enabled_firmware_interfaces': 'no-firmware,fake',
            'default_firmware_interface': 'no-firmware'}


@pytest.fixture(scope='module')
def ironic_bin():
    return ironic_fleet.install()


def _ironic(bin_dir, db_url, workdir):
    """Ironic 39 (all-in-one, noauth, fake-hardware) on an empty
    database it creates with its own ironic-dbsync; (process, URL)."""
    port = procs.free_port()
    sections = ironic_env.config_sections(db_url, port, 'aio', workdir)
    sections['DEFAULT'].update(FIRMWARE)
    conf = ironic_env.write_config(
        os.path.join(workdir, 'ironic39.conf'), sections)
    ironic_env.dbsync(bin_dir, conf)
    [proc] = ironic_env.start(bin_dir, 'aio', conf, workdir)
    base = 'http://127.0.0.1:%d' % port
    procs.wait_http(base + '/v1')
    return proc, base


def _lite_config(workdir, db_url):
    default = {'host': LITE_HOST, 'state_path': workdir,
               'enabled_hardware_types': 'fake-hardware'}
    for iface, names in ironic_env.INTERFACES.items():
        default['enabled_%s_interfaces' % iface] = ','.join(names)
    default.update(FIRMWARE)
    port = procs.free_port()
    conf = procs.write_config(os.path.join(workdir, 'lite.conf'), {
        'DEFAULT': default,
        'api': {'host_ip': '127.0.0.1', 'port': port},
        'conductor': {'heartbeat_interval': 1,
                      'sync_power_state_interval': 0},
        'database': {'connection': db_url}})
    return conf, 'http://127.0.0.1:%d' % port


def tell(what, began):
    """A step's time, printed (pytest -s shows it), never asserted."""
    print('%6.1f s  %s' % (time.monotonic() - began, what))


def _dbsync(conf, *args):
    return procs.run('ironic-dbsync', '--config-file', conf, *args)


SERVERS = {'postgresql': (top_conftest.POSTGRESQL_URL, 5432),
           'mysql': (top_conftest.MYSQL_URL, 3306)}


# The README's test command moves the fleet on PostgreSQL; tox -e
# ironic-import (IRONIC_LITE_IMPORT_BACKENDS=all) on MariaDB too: a
# second real Ironic and its fill cost the functional level two minutes
# of a worker, and the importer's own tests cover all three backends.
IMPORT_BACKENDS = (top_conftest.BACKEND_PARAMS
                   if os.environ.get('IRONIC_LITE_IMPORT_BACKENDS') == 'all'
                   else ('postgresql',))


@pytest.mark.long(170)
@pytest.mark.parametrize('db_url', IMPORT_BACKENDS)
def test_an_ironic_fleet_moves_to_ironic_lite(db_url, ironic_bin, tmp_path):
    with contextlib.ExitStack() as stack:
        ironic_url, lite_url = (
            stack.enter_context(top_conftest.temp_database(*SERVERS[db_url]))
            for _ in range(2))
        _move(ironic_bin, ironic_url, lite_url, str(tmp_path))


def _move(ironic_bin, ironic_url, lite_url, workdir):
    began = time.monotonic()
    proc, ironic_base = _ironic(ironic_bin, ironic_url, workdir)
    try:
        tell('Ironic 39 started', began)
        uuids = ironic_fleet.fill(ironic_base, ironic_url)
        ironic_fleet.wait_idle(ironic_base)
        tell('fleet made through its API', began)
        before = ironic_fleet.snapshot(ironic_base, uuids)
        tell('%d GETs answered' % len(before), began)
        later = ironic_fleet.later_fields(before)
        print(later)
        assert all(later.values()), later
        assert {'fake', 'no-firmware', 'service failed',
                'clean failed'} <= (later['node.firmware_interface']
                                    | later['node.provision_state']), later
    finally:
        proc.stop(timeout=timeouts.HANG)

    conf, lite_base = _lite_config(workdir, lite_url)
    _dbsync(conf, 'upgrade')
    imported = _dbsync(conf, 'import-ironic', '--source-connection',
                       ironic_url).stdout
    tell('imported', began)
    print(imported)
    for table, rows in (('nodes', ironic_fleet.NODES), ('runbooks', 1),
                        ('runbook_steps', 2), ('runbook_traits', 2),
                        ('inspection_rules', 1)):
        assert '%-24s %10d %10d' % (table, rows,
                                    rows) in imported.splitlines()
    # The rows are this release's: upgrade's version check passes and
    # there is nothing to migrate.
    assert _dbsync(conf, 'upgrade').returncode == 0
    assert 'Data migrations have completed.' in _dbsync(
        conf, 'online_data_migrations').stdout

    service = procs.Service('ironic-lite', conf, workdir)
    service.base = lite_base
    try:
        procs.wait_http(lite_base + '/v1', service)
        after = ironic_fleet.snapshot(lite_base, uuids)
        tell('ironic-lite answered the same GETs', began)
        found = ironic_fleet.differences(before, after, ironic_base,
                                         lite_base)
        assert found == [], '\n'.join(
            [repr(d) for d in ironic_fleet.summary(found).items()]
            + [repr(d) for d in found[:20]])
        _tour(service, uuids)
        tell('tour done', began)
    finally:
        code = service.stop()
    assert code == 0, service.log()


def _tour(service, uuids):
    """The README tour's commands on the imported fleet."""
    env = {k: v for k, v in os.environ.items() if not k.startswith('OS_')}
    listed = procs.baremetal(service, env, 'node', 'list', '--limit', '0')
    # The child node is left out of the list (1.83).
    assert len(listed) == ironic_fleet.NODES - 1
    shown = procs.baremetal(service, env, 'node', 'show', 'n-3')
    assert (shown['uuid'], shown['provision_state']) == (uuids[3], 'active')
    ports = procs.baremetal(service, env, 'port', 'list', '--node', 'n-0',
                            '--long')
    assert sorted(p['address'] for p in ports) == ['52:54:00:00:00:00',
                                                   '52:54:00:00:00:01']
    procs.baremetal(service, env, 'node', 'set', 'n-12', '--extra',
                    'moved=yes', expect_json=False)
    procs.baremetal(service, env, 'node', 'unset', 'n-12', '--description',
                    expect_json=False)
    shown = procs.baremetal(service, env, 'node', 'show', 'n-12')
    assert shown['extra'] == {'rack': 1, 'moved': 'yes'}
    assert shown['description'] is None
    # An available node of Ironic's is deployed by ironic-lite, and a
    # manageable one provided.
    procs.baremetal(service, env, 'node', 'set', 'n-17', '--instance-info',
                    'image_source=http://images/new.qcow2', expect_json=False)
    procs.baremetal(service, env, 'node', 'deploy', 'n-17', '--wait',
                    str(timeouts.HANG), expect_json=False)
    procs.baremetal(service, env, 'node', 'provide', 'n-6', '--wait',
                    str(timeouts.HANG), expect_json=False)
    states = {n: procs.baremetal(service, env, 'node', 'show', n,
                                 '--fields', 'provision_state')
              for n in ('n-17', 'n-6')}
    assert states == {'n-17': {'provision_state': 'active'},
                      'n-6': {'provision_state': 'available'}}
