"""SQLite: a writer that reads, then writes, while another connection
commits in between must wait, not fail with "database is locked"."""

import threading

import sqlalchemy as sa

from ironic_lite.db import api
from ironic_lite.db import models


def test_read_then_write_survives_a_concurrent_commit(sqlite_db):
    with api.writer() as session:
        session.add(models.Chassis(uuid='c-1', description='0'))
    read_done = threading.Event()
    errors = []

    def read_then_write():
        try:
            with api.writer() as session:
                row = session.query(models.Chassis).filter_by(
                    uuid='c-1').one()
                read_done.set()
                # Let the other thread try to commit meanwhile.
                other.join(0.5)
                row.description = 'first'
        except Exception as err:  # reported below
            errors.append(err)

    def concurrent_commit():
        read_done.wait(10)
        try:
            with api.writer() as session:
                session.execute(sa.update(models.Chassis).values(
                    description='second'))
        except Exception as err:
            errors.append(err)

    other = threading.Thread(target=concurrent_commit)
    first = threading.Thread(target=read_then_write)
    other.start()
    first.start()
    first.join(30)
    other.join(30)
    assert errors == []
    with api.reader() as session:
        # The second writer waited for the first one's lock.
        assert session.query(models.Chassis.description).scalar() == \
            'second'
