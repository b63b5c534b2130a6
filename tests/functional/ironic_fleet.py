"""A fleet made through real Ironic 39's API, and what both APIs show of it.

``test_ironic_import.py`` fills an Ironic database through Ironic's own
API (noauth, fake-hardware: ``tools/benchmark/ironic_env.py`` starts it),
imports it into ironic-lite and compares the ``GET`` bodies of both at
``COMPARED_VERSION``.  The fleet has a bit of everything an operator's
has: nodes in enroll, manageable, available, active and clean failed,
with shards, owners, lessees, conductor groups, traits, properties,
driver_info, extra and instance_info; ports and port groups with
physical networks and local link connections; chassis; allocations (one
that failed); deploy templates with steps; volume connectors and targets;
and the node history Ironic writes itself (deployments, a failed cleaning,
a failed servicing).  And a bit of what release 6.0 serves from Ironic's
later microversions: port names, descriptions, vendors and categories,
port group physical networks and categories, node instance names,
disable_power_off and the fake firmware interface, a child node, a
runbook with traits and an inspection rule.
"""

from concurrent import futures
import os
import re
import time

import sqlalchemy as sa

from tests.functional import procs
from tests import timeouts
from tools.benchmark import ironic_env

# The newest microversion both APIs serve, the one compared.
COMPARED_VERSION = '1.115'
# Forty nodes: every kind below eight times over (100 made the test spend
# four minutes, most of them in Ironic's API, for no kind more).
NODES = 40
# Nodes n-0 .. n-39: i % 5 picks what a node becomes.
STATES = ('enroll', 'manageable', 'available', 'active', 'enroll')

# The states the fleet's nodes end in.
AT_REST = ('enroll', 'manageable', 'available', 'active', 'clean failed',
           'service failed')
# The active node whose servicing fails.
SERVICED = 8
# A child node (1.83) of PARENT (Ironic wants the same owner: i % 4 is
# the same); node lists leave it out unless asked for.
CHILD = NODES - 1
PARENT = CHILD - 4

# Fields whose values name this process's host, not the fleet's: the
# conductor serving a node (Ironic's host name vs ironic-lite's).  The
# links ("links", "ports", "portgroups", "volume", "states" of a node,
# ...) hold the API's own URL, which differs in its port: they are
# compared with the URL taken out.
HOST_FIELDS = ('conductor',)
# Lists that are sets: compared sorted.
SET_FIELDS = ('traits',)

# Ironic 39's answers that differ from its own API reference, which
# ironic-lite follows:
# * a chassis's "nodes" links come as a list in a list (a stray comma in
#   its chassis controller); compared unwrapped.
# * an inspection rule's links point at /v1/inspection/<uuid>, a path
#   Ironic does not serve (its controller names the wrong resource);
#   ironic-lite's point at the rule, /v1/inspection_rules/<uuid> (a
#   difference doc/source/api/differences.rst lists).  Compared with
#   Ironic's pointed at the rule.
# (Its port group list with detail=True also shows physical_network,
# category and dynamic_portgroup whatever the version asked: at 1.115
# both APIs show them.)
WRONG_LINK = re.compile(r'^(<api>(?:/v1)?)/inspection/')


def install():
    """Ironic 39's cached venv (made once); its bin directory.  One
    process at a time makes it (xdist workers, tests/prefetch.py)."""
    os.makedirs(ironic_env.CACHE, exist_ok=True)
    with procs.file_lock(os.path.join(ironic_env.CACHE, 'install.lock')):
        return ironic_env.ensure_installed()


class Client(object):
    """Plain HTTP at one API, at COMPARED_VERSION; a failed call fails."""

    def __init__(self, base):
        self.base = base

    def __call__(self, method, path, body=None, expect=None):
        status, _headers, answer = procs.http(
            method, self.base + path, body, version=COMPARED_VERSION)
        if expect is None:
            # Other methods say what they expect.
            expect = {'POST': 201, 'GET': 200, 'PATCH': 200}[method]
        assert status == expect, (method, path, status, answer)
        return answer

    def patch(self, path, **values):
        return self('PATCH', path, [{'op': 'add', 'path': '/' + key,
                                     'value': value}
                                    for key, value in values.items()])

    def provision(self, node, target, wait_for):
        self('PUT', '/v1/nodes/%s/states/provision' % node,
             {'target': target}, expect=202)
        return procs.wait_provision_state(self.base, node, wait_for,
                                          headers={
                                              'X-OpenStack-Ironic-API-'
                                              'Version': COMPARED_VERSION})


def _node_body(i, chassis):
    body = {'name': 'n-%d' % i, 'driver': 'fake-hardware',
            'resource_class': 'gold' if i % 2 else 'silver',
            'properties': {'cpus': 4 + i % 8, 'memory_mb': 1024 * (i % 4 + 1),
                           'capabilities': 'boot_mode:uefi'},
            'driver_info': {'bmc': '10.0.%d.%d' % (i // 250, i % 250)},
            'extra': {'rack': i // 10}, 'description': 'node %d' % i}
    if i % 3:
        body['shard'] = 'shard-%d' % (i % 3)
    if i % 10 == 0:
        body['chassis_uuid'] = chassis[i // 10 % len(chassis)]
    if i % 10 == 5:
        # Enroll nodes: no power action would meet it.  1.95.
        body['disable_power_off'] = True
    if i == SERVICED:
        # The flat network interface wants a servicing network; noop does
        # not (and cannot be set once the node is active).
        body['network_interface'] = 'noop'
    if i % 10 == 7:
        # 1.86: Ironic's fake firmware interface (it caches no components:
        # a node's /firmware is an empty list on both sides).
        body['firmware_interface'] = 'fake'
    return body


def fill(base, db_url, nodes=NODES):
    """Make the fleet through Ironic's API; the node UUIDs.

    One thing is written with SQL: the conductor group of the nodes
    i % 5 == 4 (in enroll).  Ironic's API refuses a group no running
    conductor serves, and one Ironic process serves one group.
    """
    api = Client(base)
    chassis = [api('POST', '/v1/chassis', {'description': 'rack %d' % r,
                                           'extra': {'row': r}})['uuid']
               for r in range(3)]
    uuids = []
    for i in range(nodes):
        node = api('POST', '/v1/nodes', _node_body(i, chassis))['uuid']
        uuids.append(node)
        if i % 4:
            # Ironic refuses an owner other than the caller's project at
            # creation with noauth; a PATCH sets it.
            api.patch('/v1/nodes/%s' % node, owner='project-%d' % (i % 4),
                      **({'lessee': 'tenant-%d' % (i % 3)} if i % 2 else {}))
        if i % 3 == 0:
            api('PUT', '/v1/nodes/%s/traits' % node,
                {'traits': ['CUSTOM_GOLD', 'HW_CPU_X86_VMX']}, expect=204)
        if i < nodes // 2:
            _ports(api, node, i)
        if i == CHILD:
            api.patch('/v1/nodes/%s' % node, parent_node=uuids[PARENT])
    _templates(api)
    _runbook(api)
    _inspection_rule(api)
    # The nodes move side by side, as an operator's script would.
    with futures.ThreadPoolExecutor(8) as pool:
        for done in [pool.submit(_provision, api, node, STATES[i % 5], i)
                     for i, node in enumerate(uuids)]:
            done.result()
    _allocations(api, uuids)
    _volumes(api, uuids)
    _failed_clean(api, uuids)
    _failed_service(api, uuids)
    api('PUT', '/v1/nodes/%s/maintenance' % uuids[1], {'reason': 'cable'},
        expect=202)
    _conductor_group(db_url, [u for i, u in enumerate(uuids) if i % 5 == 4])
    return uuids


def _conductor_group(db_url, uuids):
    engine = sa.create_engine(db_url)
    try:
        with engine.begin() as conn:
            conn.execute(sa.text(
                "UPDATE nodes SET conductor_group = 'rack-b' "
                "WHERE uuid IN :uuids").bindparams(
                    sa.bindparam('uuids', expanding=True)),
                {'uuids': uuids})
    finally:
        engine.dispose()


def _ports(api, node, i):
    group = None
    if i % 10 == 0:
        group = api('POST', '/v1/portgroups', {
            'node_uuid': node, 'name': 'bond-%d' % i, 'mode': '802.3ad',
            'address': '52:54:01:00:00:%02x' % i,
            'properties': {'miimon': '100'},
            'physical_network': 'physnet1', 'category': 'uplink'})['uuid']
    for p in range(2):
        body = {'node_uuid': node, 'address': '52:54:00:00:%02x:%02x'
                % (i, p),
                # A port group's ports share one physical network.
                'physical_network': 'physnet%d' % (1 if group else p + 1),
                'pxe_enabled': p == 0, 'extra': {'slot': p},
                'local_link_connection': {
                    'switch_id': '0a:1b:2c:3d:4e:%02x' % p,
                    'port_id': 'Eth1/%d' % i, 'switch_info': 'tor-%d' % p}}
        if group:
            body['portgroup_uuid'] = group
        if i % 4 == 1:
            # 1.88, 1.97, 1.100, 1.101, 1.111.
            body.update(name='n%d-eth%d' % (i, p),
                        description='port %d of n-%d' % (p, i),
                        vendor='acme', category='data',
                        available_for_dynamic_portgroup=bool(p))
        api('POST', '/v1/ports', body)


def _templates(api):
    for name, steps in (
            ('CUSTOM_BIOS', [('bios', 'apply_configuration',
                              {'settings': [{'name': 'HT', 'value': 'on'}]},
                              50)]),
            ('CUSTOM_RAID', [('raid', 'delete_configuration', {}, 20),
                             ('raid', 'create_configuration',
                              {'create_root_volume': True}, 10)]),
            ('CUSTOM_ERASE', [('deploy', 'erase_devices', {}, 30)])):
        api('POST', '/v1/deploy_templates', {
            'name': name, 'extra': {'by': 'test'},
            'steps': [{'interface': i, 'step': s, 'args': a, 'priority': p}
                      for i, s, a, p in steps]})


def _runbook(api):
    """A runbook (1.92) with a description and two traits (1.112), which
    are given with their own PUT."""
    runbook = api('POST', '/v1/runbooks', {
        'name': 'firmware.refresh', 'description': 'flash and erase',
        'extra': {'by': 'test'},
        'steps': [{'interface': 'deploy', 'step': 'erase_devices',
                   'args': {}, 'order': 1},
                  {'interface': 'raid', 'step': 'delete_configuration',
                   'args': {}, 'order': 0}]})['uuid']
    api('PUT', '/v1/runbooks/%s/traits' % runbook,
        {'traits': ['CUSTOM_FIRMWARE', 'CUSTOM_ERASE']}, expect=204)


def _inspection_rule(api):
    """An inspection rule (1.96)."""
    api('POST', '/v1/inspection_rules', {
        'description': 'tag big nodes', 'priority': 10, 'phase': 'main',
        'conditions': [{'op': 'gt', 'args': {
            'values': ['{inventory[memory][physical_mb]}', 4096]}}],
        'actions': [{'op': 'add-trait', 'args': {'name': 'CUSTOM_BIG'}}]})


def _provision(api, node, state, i):
    if state == 'enroll':
        return
    api.provision(node, 'manage', 'manageable')
    if state == 'manageable':
        return
    api.provision(node, 'provide', 'available')
    if state == 'active':
        api.patch('/v1/nodes/%s' % node, instance_info={
            'image_source': 'http://images/img-%d.qcow2' % i,
            'root_gb': 10 + i, 'capabilities': {'boot_mode': 'uefi'}},
            # 1.104.
            instance_name='instance-%d' % i)
        api.provision(node, 'active', 'active')


def _allocations(api, uuids):
    # Available gold nodes get an allocation each; the last finds none.
    for n in range(3):
        api('POST', '/v1/allocations', {
            'name': 'alloc-%d' % n, 'resource_class': 'silver',
            'extra': {'n': n}})
    api('POST', '/v1/allocations', {'name': 'alloc-none',
                                    'resource_class': 'platinum'})

    def settled():
        answer = api('GET', '/v1/allocations')['allocations']
        return all(a['state'] != 'allocating' for a in answer)
    procs.wait_for(settled, timeout=timeouts.HANG, what='allocations')


def _volumes(api, uuids):
    for n, node in enumerate(uuids[:10:2]):
        api('POST', '/v1/volume/connectors', {
            'node_uuid': node, 'type': 'iqn',
            'connector_id': 'iqn.2026-01.org.example:%d' % n})
        api('POST', '/v1/volume/targets', {
            'node_uuid': node, 'volume_type': 'iscsi', 'boot_index': 0,
            'volume_id': 'vol-%d' % n, 'properties': {'target_lun': n}})


def _failed_clean(api, uuids):
    """A manual cleaning that fails (a step no interface has): an ERROR
    event in the node's history, a node in clean failed."""
    node = uuids[11]  # manageable
    # The flat network interface wants a cleaning network; noop does not.
    api.patch('/v1/nodes/%s' % node, network_interface='noop')
    api('PUT', '/v1/nodes/%s/states/provision' % node, {
        'target': 'clean',
        'clean_steps': [{'interface': 'deploy', 'step': 'no_such_step'}]},
        expect=202)

    def failed():
        body = api('GET', '/v1/nodes/%s' % node)
        return body['provision_state'] == 'clean failed' and (
            body['reservation'] is None)
    procs.wait_for(failed, timeout=timeouts.HANG, what='a failed cleaning')


def _failed_service(api, uuids):
    """A servicing (1.87) that fails as the cleaning above: a node in
    service failed."""
    node = uuids[SERVICED]  # active
    api('PUT', '/v1/nodes/%s/states/provision' % node, {
        'target': 'service',
        'service_steps': [{'interface': 'deploy', 'step': 'no_such_step'}]},
        expect=202)

    def failed():
        body = api('GET', '/v1/nodes/%s' % node)
        return body['provision_state'] == 'service failed' and (
            body['reservation'] is None)
    procs.wait_for(failed, timeout=timeouts.HANG, what='a failed servicing')


def snapshot(base, uuids):
    """{what: GET body} of everything the comparison reads."""
    api = Client(base)
    seen = {}
    for path in ('/v1/nodes?detail=True', '/v1/ports?detail=True',
                 '/v1/nodes?include_children=True',
                 '/v1/nodes/%s/children' % uuids[PARENT],
                 '/v1/portgroups?detail=True', '/v1/chassis?detail=True',
                 '/v1/allocations', '/v1/deploy_templates?detail=True',
                 '/v1/volume/connectors?detail=True',
                 '/v1/volume/targets?detail=True', '/v1/nodes',
                 '/v1/ports', '/v1/chassis', '/v1/runbooks?detail=True',
                 '/v1/runbooks', '/v1/inspection_rules?detail=True',
                 '/v1/inspection_rules'):
        seen[path] = api('GET', path)
    for path, key in (('/v1/chassis', 'chassis'),
                      ('/v1/ports', 'ports'),
                      ('/v1/portgroups', 'portgroups'),
                      ('/v1/allocations', 'allocations'),
                      ('/v1/deploy_templates', 'deploy_templates'),
                      ('/v1/volume/connectors', 'connectors'),
                      ('/v1/volume/targets', 'targets'),
                      ('/v1/runbooks', 'runbooks'),
                      ('/v1/inspection_rules', 'inspection_rules')):
        listed = seen.get(path + '?detail=True') or seen[path]
        for item in listed[key]:
            one = '%s/%s' % (path, item['uuid'])
            seen[one] = api('GET', one)
            if key == 'runbooks':
                seen[one + '/traits'] = api('GET', one + '/traits')
    for i, node in enumerate(uuids):
        paths = ['', '/traits', '/history', '/ports', '/portgroups',
                 '/volume/connectors', '/volume/targets']
        if i % 10 in (0, 7):
            # A node of each firmware interface (a few GETs, not 40).
            paths.append('/firmware')
        for path in paths:
            seen['/v1/nodes/%s%s' % (node, path)] = api(
                'GET', '/v1/nodes/%s%s' % (node, path))
        history = seen['/v1/nodes/%s/history' % node]['history']
        if history:
            # The detailed list (1.113, 1.115 fields) where there is one.
            path = '/v1/nodes/%s/history?detail=True' % node
            seen[path] = api('GET', path)
        for event in history:
            path = '/v1/nodes/%s/history/%s' % (node, event['uuid'])
            seen[path] = api('GET', path)
    return seen


def later_fields(seen):
    """{field: a value Ironic showed} of the later microversions' fields
    the fleet sets, read from a snapshot: the comparison has them to
    compare (a value Ironic ignored would compare as None on both)."""
    nodes = [body for path, body in seen.items()
             if re.fullmatch(r'/v1/nodes/[0-9a-f-]{36}', path)]
    ports = seen['/v1/ports?detail=True']['ports']
    groups = seen['/v1/portgroups?detail=True']['portgroups']
    [runbook] = seen['/v1/runbooks?detail=True']['runbooks']
    events = [e for path, body in seen.items()
              if path.endswith('/history?detail=True')
              for e in body['history']]
    found = {
        'port.' + f: {p[f] for p in ports if p[f]}
        for f in ('name', 'description', 'vendor', 'category',
                  'available_for_dynamic_portgroup')}
    found.update({'portgroup.' + f: {g[f] for g in groups if g[f]}
                  for f in ('physical_network', 'category')})
    found.update({'node.' + f: {n[f] for n in nodes if n[f]}
                  for f in ('instance_name', 'disable_power_off',
                            'parent_node')})
    found['node.firmware_interface'] = {n['firmware_interface']
                                        for n in nodes}
    found['node.provision_state'] = {n['provision_state'] for n in nodes}
    found['runbook.traits'] = set(runbook['traits'])
    found['history.state'] = {e['state'] for e in events if e['state']}
    return found


def normalise(value, base):
    """The body without what names the API's own address or host, and
    a node's traits in one order (a set: Ironic answers them in the
    database's order, which neither API defines)."""
    if isinstance(value, dict):
        return {k: (None if k in HOST_FIELDS else
                    sorted(v) if k in SET_FIELDS and isinstance(v, list)
                    else normalise(_unwrapped(k, v), base))
                for k, v in value.items()}
    if isinstance(value, list):
        return [normalise(v, base) for v in value]
    if isinstance(value, str) and value.startswith(base):
        return WRONG_LINK.sub(r'\1/inspection_rules/',
                              '<api>' + value[len(base):])
    return value


def _unwrapped(key, value):
    if (key == 'nodes' and isinstance(value, list) and len(value) == 1
            and isinstance(value[0], list)):
        return value[0]
    return value


def differences(ironic, lite, ironic_base, lite_base):
    """Where the two snapshots differ: [(path, key path, Ironic's,
    ironic-lite's)]: a field one shows and the other not, or a value."""
    found = []
    for path, body in ironic.items():
        _compare(path, '', normalise(body, ironic_base),
                 normalise(lite.get(path), lite_base), found)
    return found


def summary(found):
    """{(kind of path, key path): count} of the differences: what a
    failure tells first."""
    counts = {}
    for path, where, _a, _b in found:
        kind = re.sub(r'[0-9a-f]{8}-[0-9a-f-]{27}', '<uuid>', path)
        key = (kind, re.sub(r'\[\d+\]', '[]', where))
        counts[key] = counts.get(key, 0) + 1
    return counts


def _compare(path, where, a, b, found):
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                found.append((path, where + '/' + key,
                              a.get(key, '<absent>'),
                              b.get(key, '<absent>')))
            else:
                _compare(path, where + '/' + key, a[key], b[key], found)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for n, (x, y) in enumerate(zip(a, b)):
            _compare(path, '%s[%d]' % (where, n), x, y, found)
    elif a != b:
        found.append((path, where, a, b))


def wait_idle(base, timeout=timeouts.HANG):
    """Until no node is locked or moving (Ironic stopped mid-action
    would leave its lock in the database)."""
    api = Client(base)

    def idle():
        nodes = api('GET', '/v1/nodes?detail=True')['nodes']
        return all(n['reservation'] is None
                   and n['provision_state'] in AT_REST
                   and not n['target_power_state'] for n in nodes)
    procs.wait_for(idle, timeout=timeout, what='the fleet at rest')
    time.sleep(0.5)
