"""The RabbitMQ node leading the conductors' RPC queue dies under load.

Two ironic-api and three ironic-conductor processes on a three-node
RabbitMQ 3.10 cluster, configured as kolla-ansible configures quorum
queues (tests/ha/rabbit.py: ``OSLO_OPTIONS``), every member in the
transport URL; the database is a database of its own on the shared
PostgreSQL.  Under the consumer load of tests/ha/scenario.py the member
that leads the conductors' topic queue (a quorum queue) is killed with
SIGKILL; the queue elects a new leader among the two others, the
services reconnect to a live member, and the ledger must show nothing
lost, nothing applied twice, no node stranded and only retry-safe 503s.
"""

import os
import time

import pytest

from tests import conftest as shared
from tests.faults import cluster as cluster_mod
from tests.functional import procs
from tests.ha import rabbit
from tests.ha import scenario
from tests.upgrade import deployment


class IronicOnRabbit(cluster_mod.Cluster):
    """api-1, api-2, conductor-1..3 of this tree on ``rabbit`` (a
    started RabbitCluster), straight to it and to PostgreSQL (no
    TcpProxy: the failure here is the broker member's own)."""

    CONDUCTORS = ('conductor-1', 'conductor-2', 'conductor-3')
    APIS = ('api-1', 'api-2')

    def __init__(self, workdir, db_url, rabbit_cluster):
        self.rabbit = rabbit_cluster
        self.direct_db_url = db_url
        deployment.Deployment.__init__(self, workdir, db_url,
                                       rabbit_cluster.transport_url())
        self.release = deployment.Release('this tree', procs.BIN)
        self.client = scenario.watch(cluster_mod.Client(self.api_urls))
        self.lock_path = os.path.join(workdir, 'locks')
        os.makedirs(self.lock_path, exist_ok=True)

    def oslo_hostname(self, label):
        # use_queue_manager names reply queues <hostname>:<processname>:
        # <n> from a counter in /dev/shm/<hostname>_<processname>_qmanager
        # that a process of another process group resets: processes of one
        # name on one host need a hostname each (a host per service in
        # production).
        return '%s-%s' % (label, self.rabbit.tag)

    def values(self, label, kind, pin=None):
        values = super().values(label, kind, pin)
        values['oslo_messaging_rabbit'] = dict(
            values['oslo_messaging_rabbit'], **rabbit.OSLO_OPTIONS)
        values['oslo_messaging_rabbit']['hostname'] = (
            self.oslo_hostname(label))
        # The queue manager's counter is guarded by an external lock.
        values['oslo_concurrency'] = {'lock_path': self.lock_path}
        return values

    def start_all(self):
        scenario.start_services(self, self.release, self.CONDUCTORS,
                                self.APIS)

    def clean_broker(self):
        pass    # the cluster is killed with its data after the test

    def stop_all(self):
        scenario.kill_services(self)
        deployment.Deployment.stop_all(self)
        rabbit.remove_files(rabbit.shm_files(
            [self.oslo_hostname(label) for label in self.layout]))


@pytest.mark.ha_smoke
@pytest.mark.long(175)
def test_kill_the_node_leading_the_conductor_queue(tmp_path,
                                                   rabbit_cluster):
    with shared.temp_database(shared.POSTGRESQL_URL, 5432) as db_url:
        cluster = IronicOnRabbit(str(tmp_path / 'ironic'), db_url,
                                 rabbit_cluster)
        try:
            began = time.monotonic()
            cluster.start_all()
            print('ironic-lite started in %.0fs' % (time.monotonic() - began))
            queues = {q['name']: q for q in rabbit_cluster.queues()}
            topic = queues[cluster.topic]
            assert topic['type'] == 'quorum', topic
            assert len(topic['members']) == 3, topic
            # Fanouts as one stream, replies as quorum queues (kolla).
            assert queues[cluster.topic + '_fanout']['type'] == 'stream'
            leader = rabbit_cluster.node(topic['leader'])
            victims = []

            def look():
                # oslo.messaging shuffles the members of the URL for each
                # connection: the victim serves part of them.
                return {'connections_cut': rabbit_cluster.connections_to(
                    leader)}

            def kill():
                victims.append(leader)
                rabbit_cluster.kill(leader)

            figures = scenario.run(cluster, kill, 'rabbitmq-leader-kill',
                                   look=look)
            new_leader = procs.wait_for(
                lambda: rabbit_cluster.leader_of(cluster.topic),
                what='a new leader of %s' % cluster.topic)
            print('topic queue leader %s killed, %s leads now'
                  % (leader.name, new_leader))
            print('queues after the load: %s' % sorted(
                (q['name'], q['type'], q['leader'])
                for q in rabbit_cluster.queues()))
            print('reconnections logged: %s' % {
                label: service.log().count('Reconnected to AMQP server')
                for label, service in sorted(cluster.services.items())})
            assert new_leader != leader.name
            # The killed member comes back and rejoins by itself.
            began = time.monotonic()
            rabbit_cluster.restart(leader)
            print('killed member rejoined in %.0fs'
                  % (time.monotonic() - began))
            assert len(rabbit_cluster.running_nodes()) == 3
        finally:
            cluster.stop_all()
    assert victims == [leader]
    assert figures.requests > scenario.BEFORE + scenario.AFTER
    assert figures.acknowledged > 0
    assert not figures.problems(), '\n'.join(figures.problems())
