"""Console entry points: thin wrappers over library functions."""
