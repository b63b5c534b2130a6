"""Alembic environment: migrates the database ironic-lite is configured for.

ironic-dbsync passes the engine in ``config.attributes['connection']``;
plain ``alembic`` falls back to ``[database]/connection``.
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
    context.configure(connection=connection,
                      target_metadata=target_metadata,
                      render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


run_migrations_online()
