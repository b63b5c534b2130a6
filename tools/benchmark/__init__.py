"""Benchmarks run against real ironic-lite services (not unit tests)."""
