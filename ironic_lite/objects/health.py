"""Reachability of what the services depend on (for health checks)."""

from ironic_lite.db import api as db_api


def ping_database():
    """Returns when the database answers ``SELECT 1``; raises else."""
    db_api.ping()
