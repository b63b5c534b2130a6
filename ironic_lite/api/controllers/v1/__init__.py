"""The controllers of ``/v1``, one module per resource; each ends with
the ``ROUTES`` of its handlers, which ``api/route_table.py`` lists.

The controller classes name the object classes (``OBJECT =
objects.Port``): importing this package registers them first, whichever
controller is imported.
"""

from ironic_lite import objects

objects.register_all()
