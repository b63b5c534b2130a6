"""Hardware types: what a conductor knows about talking to machines."""
