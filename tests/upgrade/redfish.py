"""Redfish nodes in the rolling-upgrade workload (hops into a release that
adds the ``redfish`` hardware type: 4.0 or 3.0 to 5.0).

One sushy-tools emulator (``tests/redfish_emulator.py``) serves the run.
The new code's conductors enable ``fake-hardware,redfish``
(``NEW_CONDUCTOR_CONFIG``); the old release's cannot: a conductor of the
old release given ``redfish`` refuses to start (``old_conductor_refuses``).

``RedfishConsumer`` (the consumers' setup/cycle/verify interface, see
``consumers.py``) tries, at every step, to enroll a redfish node through
the APIs in turn.  While the API that answers has an older release in
force -- the old code (``400`` "No valid host was found": no conductor
registers ``redfish``), or the new code pinned or ``auto``-capped
(``409`` "Hardware type redfish is not available while this API is
pinned ...") -- the create is a documented refusal, counted by step, and
the node must not exist afterwards.  Otherwise it must be created; the
consumer then manages it and powers it on and off through the emulator;
once everything is unpinned (the ``settled`` steps) it also deploys it
with the ``ramdisk`` deploy through the virtual CD, the test playing the
agent (lookup by the NIC's MAC, heartbeat with the token, as in
tests/functional/test_redfish_deploy.py), and undeploys it.  Every action
must be handled by a conductor with the new release in force; then the
node is deleted.

``check_registered`` proves the routing from the conductors table at each
step: no old conductor lists ``redfish``; a new one lists it exactly when
its release in force is the new one.
"""

import functools
import http.server
import json
import os
import threading
import time

import sqlalchemy as sa

from tests import redfish_emulator
from tests import timeouts
from tests.upgrade import consumers

TYPE = 'redfish'
# node.conductor is shown from 1.49.
VERSION = '1.49'
# Seconds between two refused creates.
REFUSED_PAUSE = 1
# The ramdisk agent's calls (lookup, heartbeat).
AGENT = '1.72'
NEW_CONDUCTOR_CONFIG = {
    'conductor': {'enabled_hardware_types': 'fake-hardware,%s' % TYPE},
    # The emulator always answers, but on a busy CI machine (six test
    # workers on two cores) slowly: generous timeouts, so that only a hang
    # fails an action.
    'redfish': {'connection_attempts': 3, 'connection_retry_interval': 1,
                'connect_timeout': 10, 'read_timeout': 60},
}
AUTO = 'auto'
# A process's release in force: the old one (the old code, a pin, an
# auto cap while an old service is alive), the new one, or rising (auto
# with no old service left: the cap rises at the next report).
OLD, NEW, RISING = 'old', 'new', 'rising'


def applies(old_name, new_name):
    """Whether the hop's new side adds the redfish hardware type."""
    from ironic_lite.common import release_mappings
    return (TYPE in release_mappings.hardware_types(new_name) and
            TYPE not in release_mappings.hardware_types(old_name))


def in_force(layout, label, old):
    """OLD, NEW or RISING: the release in force of process ``label``
    (``layout``: Deployment.layout; ``old``: the old release's name)."""
    _, release, pin = layout[label]
    if release == old or (pin and pin != AUTO):
        return OLD
    if pin is None:
        return NEW
    alive = any(rel == old for _, rel, _ in layout.values())
    return OLD if alive else RISING


def settled(state):
    """A predicate: the node is in ``state``, with no target."""
    return lambda n: (n['provision_state'] == state and
                      not n['target_provision_state'])


def serve_image(directory):
    """A deploy ISO on a local HTTP server (the emulator fetches it):
    (its URL, the server to ``shutdown``)."""
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, 'deploy.iso'), 'wb') as f:
        f.write(b'\0' * 4096)
    handler = functools.partial(http.server.SimpleHTTPRequestHandler,
                                directory=directory)
    server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return 'http://127.0.0.1:%d/deploy.iso' % server.server_address[1], server


def old_conductor_refuses(dep, old):
    """A conductor of release ``old`` given ``redfish`` exits 1 at start:
    that code has no such hardware type."""
    from tests.functional import procs
    label = 'conductor-old-redfish'
    config = dep.config(label, 'conductor',
                        extra=NEW_CONDUCTOR_CONFIG)
    result = procs.run_command(old.command('ironic-conductor'),
                               '--config-file', config, check=False)
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert ('Could not find the following driver(s) or hardware type(s): '
            'redfish' in output), output
    # Its service record (written before the conductor refused) is
    # offline; removed, as an operator removes a host that never served:
    # at the old release's Service version, it would wait for the online
    # data migrations that no restart of it will ever make.
    engine = sa.create_engine(dep.db_url)
    try:
        with engine.begin() as conn:
            if 'services' in sa.inspect(conn).get_table_names():
                alive = conn.execute(sa.text(
                    'SELECT COUNT(*) FROM services WHERE name = :n AND '
                    'online = :on'), {'n': label, 'on': True}).scalar()
                assert not alive, '%s refused but is online' % label
                conn.execute(sa.text('DELETE FROM services WHERE name = '
                                     ':n'), {'n': label})
    finally:
        engine.dispose()
    return output


def registered(db_url):
    """{hostname: hardware types} of the online conductors (plain SQL)."""
    engine = sa.create_engine(db_url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(sa.text(
                'SELECT hostname, drivers FROM conductors WHERE online = '
                ':on'), {'on': True})
            return {host: json.loads(drivers) if isinstance(drivers, str)
                    else list(drivers or []) for host, drivers in rows}
    finally:
        engine.dispose()


def check_registered(dep, old, timeout=timeouts.HANG):
    """No conductor with the old release in force lists redfish; each
    with the new one does (a rising auto cap is waited for).  Returns
    {label: lists redfish} for the step table."""
    deadline = time.monotonic() + timeout
    while True:
        found = registered(dep.db_url)
        listed = {label: TYPE in found[label] for label, (kind, _, _) in
                  dep.layout.items()
                  if kind == 'conductor' and label in found}
        states = {label: in_force(dep.layout, label, old)
                  for label in listed}
        wrong = sorted(lbl for lbl in listed
                       if listed[lbl] and states[lbl] == OLD)
        assert not wrong, ('conductors with release %s in force list '
                           'redfish: %s (%s)' % (old, wrong, dep.describe()))
        missing = sorted(lbl for lbl in listed
                         if not listed[lbl] and states[lbl] != OLD)
        if not missing:
            return listed
        assert time.monotonic() < deadline, (
            'conductors with the new release in force do not list '
            'redfish: %s (%s)' % (missing, dep.describe()))
        time.sleep(0.5)


class RedfishConsumer(object):
    """Enroll, use and delete a redfish node, or count the refusal."""

    def __init__(self, client, dep, emulator, old, settled, image=None):
        self.client, self.dep, self.emulator = client, dep, emulator
        self.image = image          # the deploy ISO's URL (None: no deploy)
        self.deploys = 0            # deploys completed by the "agent"
        self.old = old              # the old release's name
        self.settled = settled      # steps begun with every cap risen
        self.node = None            # no node of its own between cycles
        self.cycles = []            # (step at start, node created & used)
        self.refusals = {}          # step -> count
        self.refused_with = {}      # status -> count
        self.errors = []
        self.routed = {}            # conductor label -> actions seen

    def setup(self):
        """Nothing to prepare: each cycle enrolls its own node."""

    def req(self, method, path, body=None, first=None, version=VERSION):
        return self.client.request(method, path, body, version=version,
                                   first=first)

    def _state(self, layout, label, step):
        state = in_force(layout, label, self.old)
        return NEW if state == RISING and step in self.settled else state

    def _refused(self, states, layouts, status, body):
        """A documented refusal by an API with ``states`` in force, its
        ``layouts`` (release, pin) before and after the request."""
        text = str(body)
        if states == {NEW}:
            return False
        no_host = status == 400 and 'No valid host was found' in text
        pinned = status == 409 and (
            'Hardware type redfish is not available' in text)
        if len(set(layouts)) > 1 or RISING in states:
            # Restarted meanwhile (either answer), or a risen API routing
            # before the conductors registered again.
            return no_host or pinned
        return no_host if layouts[0][1] == self.old else pinned

    def cycle(self, n):
        """One attempt; True when the node was created and used."""
        step = self.client.step
        before = dict(self.dep.layout)
        name = 'upgrade-redfish-%d' % n
        status, body = self.req('POST', '/v1/nodes', {
            'driver': TYPE, 'name': name,
            'driver_info': redfish_emulator.driver_info(
                self.emulator, deploy_iso=self.image)}, first=n % 2)
        base = self.client.answered.base
        if base is None:
            return False    # a failed request: the client counts it
        label = {self.dep.api_url(lbl): lbl
                 for lbl in self.dep.api_labels()}[base]
        states = {self._state(before, label, step),
                  self._state(self.dep.layout, label, step)}
        if status == 201:
            if states == {OLD}:
                self.errors.append('%s (%s) created redfish node %s at '
                                   'step %s' % (label, before[label], name,
                                                step))
            deploy = self.image is not None and step in self.settled
            return self._use(body['uuid'], deploy) and states != {OLD}
        if self._refused(states, (before[label], self.dep.layout[label]),
                         status, body):
            self.refusals[step] = self.refusals.get(step, 0) + 1
            self.refused_with[status] = self.refused_with.get(status, 0) + 1
            self._nothing_written(name)
        else:
            self.errors.append('POST redfish node via %s (%s, step %s) -> '
                               '%s %s' % (label, before[label], step,
                                          status, body))
        time.sleep(REFUSED_PAUSE)
        return False

    def _nothing_written(self, name):
        status, body = self.req('GET', '/v1/nodes/%s' % name)
        if status != 404:
            self.errors.append('refused redfish node %s is there: %s %s'
                               % (name, status, body))

    def _routed(self, node):
        """The node's conductor has the new release in force."""
        host = node.get('conductor')
        if host is None:
            return
        self.routed[host] = self.routed.get(host, 0) + 1
        if host not in self.dep.layout or in_force(
                self.dep.layout, host, self.old) == OLD:
            self.errors.append('redfish node %s handled by %s (%s)'
                               % (node['uuid'], host, self.dep.describe()))

    def _unlocked(self, method, path, body=None, version=VERSION,
                  deadline=None):
        """A request tried again while the node is locked (409: a running
        action, or one that wrote its state and has not released its lock
        yet), up to ``deadline`` (a hang's time from now by default); the
        last answer."""
        if deadline is None:
            deadline = time.monotonic() + timeouts.HANG
        while True:
            status, resp = self.req(method, path, body, version=version)
            if status != 409 or time.monotonic() > deadline:
                return status, resp
            time.sleep(consumers.POLL)

    def _act(self, path, body, done, timeout=timeouts.HANG):
        """PUT an action (retried while the node is locked), then wait for
        ``done(node)``; every poll checks the node's conductor."""
        deadline = time.monotonic() + timeout
        node = '/'.join(path.split('/')[:4])
        status, resp = self._unlocked('PUT', path, body, deadline=deadline)
        if status != 202:
            self.errors.append('PUT %s %s -> %s %s'
                               % (path, body, status, resp))
            return False
        return self._wait_for(node, done, deadline)

    def _wait_for(self, node, done, deadline=None):
        """Poll the node until ``done(node)``, checking its conductor."""
        if deadline is None:
            deadline = time.monotonic() + timeouts.HANG
        resp = None
        while time.monotonic() < deadline:
            status, resp = self.req('GET', node)
            if status == 200:
                self._routed(resp)
                if done(resp):
                    return True
                if resp.get('last_error'):
                    break
            time.sleep(consumers.POLL)
        self.errors.append('%s: not done: %s' % (node, resp))
        return False

    def _use(self, uuid, deploy):
        node = '/v1/nodes/%s' % uuid
        status, resp = self.req('GET', node)
        if status == 200:
            self._routed(resp)
        used = self._act(node + '/states/provision', {'target': 'manage'},
                         lambda n: n['provision_state'] == 'manageable'
                         and not n['target_provision_state'])
        for target in ('power on', 'power off'):
            used = used and self._act(
                node + '/states/power', {'target': target},
                lambda n, t=target: n['power_state'] == t
                and not n['target_power_state'])
        if deploy and used:
            used = self._deploy(uuid)
        if not used:
            # The failure is in self.errors already (the run fails); the
            # node goes anyway, so that the next cycles start from a clean
            # BMC and the error reported is the first one, not its echo.
            self._maintenance(node)
        return self._delete(node) and used

    def _maintenance(self, node):
        """Put ``node`` in maintenance: deletable in any stable state."""
        status, resp = self._unlocked('PUT', node + '/maintenance',
                                      {'reason': 'redfish consumer cleanup'})
        if status != 202:
            self.errors.append('maintenance of %s -> %s %s'
                               % (node, status, resp))

    def _deploy(self, uuid):
        """provide, deploy through the virtual CD, play the agent (lookup
        by the NIC's MAC, heartbeat with the token), undeploy."""
        node = '/v1/nodes/%s' % uuid
        status, body = self.req('POST', '/v1/ports', {
            'node_uuid': uuid, 'address': redfish_emulator.NIC_MAC})
        if status != 201:
            self.errors.append('port of %s -> %s %s' % (uuid, status, body))
            return False
        provision = node + '/states/provision'
        if not (self._act(provision, {'target': 'provide'}, settled(
                'available')) and self._act(
                provision, {'target': 'active'},
                lambda n: n['provision_state'] == 'wait call-back')):
            return False
        # The agent tries again while the node is locked (the deploy that
        # moved it to "wait call-back" has not released it yet), as
        # ironic-python-agent does.
        status, body = self._unlocked('GET', '/v1/lookup?addresses=%s'
                                      % redfish_emulator.NIC_MAC,
                                      version=AGENT)
        token = (body or {}).get('config', {}).get('agent_token')
        if status != 200 or not token:
            self.errors.append('lookup of %s -> %s %s' % (uuid, status, body))
            return False
        status, body = self._unlocked('POST', '/v1/heartbeat/%s' % uuid, {
            'callback_url': 'http://192.0.2.9:9999', 'agent_token': token,
            'agent_version': '10.0.0'}, version=AGENT)
        if status != 202:
            self.errors.append('heartbeat of %s -> %s %s'
                               % (uuid, status, body))
            return False
        if not self._wait_for(node, settled('active')):
            return False
        self.deploys += 1
        return self._act(provision, {'target': 'deleted'},
                         settled('available'))

    def _delete(self, node):
        status, resp = self._unlocked('DELETE', node)
        if status != 204:
            self.errors.append('DELETE %s -> %s %s' % (node, status, resp))
            return False
        status, resp = self.req('GET', node)
        if status != 404:
            self.errors.append('deleted %s is there: %s' % (node, status))
        return status == 404

    def verify(self):
        """No redfish node left: each created one was deleted, no refused
        one was written."""
        status, body = self.req('GET', '/v1/nodes?driver=%s&fields=uuid,'
                                'provision_state,last_error' % TYPE)
        if status != 200:
            return ['redfish node list -> %s %s' % (status, body)]
        return ['redfish node %s left behind (%s, last error: %s)'
                % (n['uuid'], n['provision_state'], n['last_error'])
                for n in body['nodes']]


def start_bmc(directory):
    """The emulator and the deploy ISO's server of a run (``stop_bmc``)."""
    emulator = redfish_emulator.start(os.path.join(directory, 'emulator'))
    emulator.image, emulator.image_server = serve_image(
        os.path.join(directory, 'images'))
    return emulator


def stop_bmc(emulator):
    emulator.image_server.shutdown()
    redfish_emulator.stop(emulator)


def consumer(dep, up, client, emulator, old, settled):
    """The redfish consumer of ``test_rolling_upgrade``'s run ``up``: the
    new conductors enable the type, and each step's checks end with
    ``check_registered`` (logged in ``up.redfish_log``).  In ``settled``
    steps it deploys its node too."""
    dep.release_config[up.new.name] = NEW_CONDUCTOR_CONFIG
    up.redfish_log = []
    up.hooks.append(lambda step: up.redfish_log.append(
        (step, sorted(lbl for lbl, has in check_registered(
            dep, old.name).items() if has))))
    return RedfishConsumer(client, dep, emulator, old.name, settled,
                           emulator.image)


def check_consumer(consumer, up):
    """An old API refused redfish nodes (400), a pinned or capped new one
    too (409); nodes were served, by new conductors only (``_routed``)."""
    print('Redfish creates refused, by status: %s; node actions by '
          'conductor: %s; deploys: %d; conductors listing redfish by '
          'step: %s' % (consumer.refused_with, consumer.routed,
                        consumer.deploys, up.redfish_log))
    assert set(consumer.refused_with) == {400, 409}, consumer.refused_with
    assert consumer.routed, 'no redfish node action was seen'
    assert consumer.deploys, 'no redfish node deployed once unpinned'
