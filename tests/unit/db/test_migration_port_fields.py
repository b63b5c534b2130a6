"""The port and port group columns of API 1.88-1.111 (b6d2f1a9c4e3): the
ports already there, and a PostgreSQL run cut short."""

import pytest
import sqlalchemy as sa

from tests.unit.db import test_migrations as helpers

BEFORE = 'c3e8a5f1d7b9'
REVISION = 'b6d2f1a9c4e3'


def _a_node_and_a_port(engine):
    with engine.begin() as conn:
        conn.execute(sa.text(
            "INSERT INTO nodes (id, uuid, driver, provision_state, "
            "maintenance) VALUES (1, '11111111-1111-1111-1111-111111111111', "
            "'fake-hardware', 'available', false)"))
        conn.execute(sa.text(
            "INSERT INTO ports (id, uuid, address, node_id) VALUES "
            "(2, '22222222-2222-2222-2222-222222222222', "
            "'52:54:00:00:00:01', 1)"))


def test_existing_ports_are_available_for_dynamic_groups(db_url):
    """Rows written before the revision read as Ironic's: available for
    a dynamic port group, no name; names are unique byte for byte (on
    MySQL too: ``Eth0`` beside ``eth0``)."""
    engine = sa.create_engine(db_url)
    try:
        helpers.upgrade(engine, BEFORE)
        _a_node_and_a_port(engine)
        helpers.upgrade(engine, REVISION)
        with engine.begin() as conn:
            assert conn.execute(sa.text(
                'SELECT name, available_for_dynamic_portgroup FROM ports')
            ).all() == [(None, True)]
            conn.execute(sa.text(
                "INSERT INTO ports (id, uuid, address, node_id, name) VALUES "
                "(3, '33333333-3333-3333-3333-333333333333', "
                "'52:54:00:00:00:02', 1, 'eth0')"))
            assert conn.execute(sa.text(
                'SELECT physical_network, category, dynamic_portgroup '
                'FROM portgroups')).all() == []
        with engine.begin() as conn:
            conn.execute(sa.text("UPDATE ports SET name = 'Eth0' "
                                 "WHERE id = 2"))
        with pytest.raises(sa.exc.IntegrityError):
            with engine.begin() as conn:
                conn.execute(sa.text("UPDATE ports SET name = 'eth0' "
                                     "WHERE id = 2"))
    finally:
        engine.dispose()


def test_port_name_index_finishes_a_run_cut_short(postgresql_url):
    """On PostgreSQL the columns are committed before the name's unique
    index is built CONCURRENTLY; a run stopped in between (the index
    invalid) is finished by running the upgrade again."""
    engine = sa.create_engine(postgresql_url)
    try:
        helpers.upgrade(engine, BEFORE)
        with engine.begin() as conn:
            conn.execute(sa.text(
                'ALTER TABLE ports ADD COLUMN name VARCHAR(255)'))
            conn.execute(sa.text(
                'CREATE UNIQUE INDEX uniq_ports0name ON ports (name)'))
            conn.execute(sa.text(
                "UPDATE pg_index SET indisvalid = false WHERE indexrelid = "
                "'uniq_ports0name'::regclass"))
        helpers.upgrade(engine, 'head')
        with engine.connect() as conn:
            assert conn.execute(sa.text(
                'SELECT i.indisvalid FROM pg_index i JOIN pg_class c ON '
                "c.oid = i.indexrelid WHERE c.relname = 'uniq_ports0name'")
            ).scalar() is True
            columns = {c['name'] for c in sa.inspect(conn).get_columns(
                'ports')}
        assert {'description', 'vendor', 'category',
                'available_for_dynamic_portgroup'} <= columns
        assert helpers.current_revision(engine) == (
            helpers.revisions_oldest_first()[-1])
    finally:
        engine.dispose()
