"""Node rows written and read straight in an SQLite file, as an older
release (or a hand-made mistake) would have left them: for the tests of
``ironic-dbsync`` and ``ironic-status`` that need rows at a given object
version."""

import sqlite3
import uuid


def insert_nodes(db_path, count, version=None):
    """``count`` minimal node rows at object version ``version``."""
    with sqlite3.connect(db_path) as conn:
        for _ in range(count):
            conn.execute(
                'INSERT INTO nodes (uuid, driver, maintenance, '
                'console_enabled, protected, version) '
                "VALUES (?, 'fake-hardware', 0, 0, 0, ?)",
                (str(uuid.uuid4()), version))


def node_versions(db_path):
    """The version of every node row, as text, sorted."""
    with sqlite3.connect(db_path) as conn:
        return sorted(str(v) for (v,) in
                      conn.execute('SELECT version FROM nodes'))
