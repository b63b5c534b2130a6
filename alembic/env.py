"""Alembic environment: migrates the database ironic-lite is configured for.

ironic-dbsync passes the engine in ``config.attributes['connection']``
(and lends the migrations its progress reporter, ``['progress']``);
plain ``alembic`` falls back to ``[database]/connection``.

This file is not a revision: it may import live code -- the engine
(db/api.py) and the models' metadata (db/models.py), which
``ironic-dbsync revision --autogenerate`` compares the database with --
and nothing else of ironic-lite.  The revisions under versions/ are
frozen: each carries its own SQL and imports only the column types of
db/models.py (tests/unit/db/test_frozen_migrations.py).
"""

from alembic import context

from ironic_lite.db import api as db_api
from ironic_lite.db import models

target_metadata = models.Base.metadata


def run_migrations_online():
    connection = context.config.attributes.get('connection')
    if connection is None:
        with db_api.get_engine().connect() as connection:
            _run(connection)
    else:
        _run(connection)


def _run(connection):
    # One transaction per migration: what a migration did is committed
    # with its revision, so a run stopped half way resumes after the last
    # migration it finished; and a migration can build an index outside
    # any transaction (autocommit_block) without committing the work of
    # the ones before it half done.
    context.configure(connection=connection,
                      target_metadata=target_metadata,
                      render_as_batch=True,
                      transaction_per_migration=True)
    with context.begin_transaction():
        context.run_migrations()


run_migrations_online()
