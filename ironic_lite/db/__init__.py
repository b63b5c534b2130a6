"""Database access: SQLAlchemy models and the query functions per resource.

Only ``ironic_lite.objects`` imports this package (tests/unit/test_layers.py
checks it).  Each resource has one module here, named like the object and
the API controller that use it.
"""
