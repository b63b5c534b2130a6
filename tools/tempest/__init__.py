"""Tempest's ironic API tests against ironic-lite (tox -e tempest)."""
