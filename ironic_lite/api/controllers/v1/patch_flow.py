"""The one JSON-patch flow of the API (``PATCH /v1/<resource>/<ident>``):
the declared resources' (``resource.ResourceController``) and the node's
(``node.NodesController``).  What differs between them is in the named
hooks of ``PatchFlow``, in the order the flow calls them:

#. ``check_patch_ops(patch, **query)``: the checks made before the
   resource is looked up (the node's: its fields at the request's version,
   its shard, ``?reset_interfaces=``, its descriptions);
   ``patch_write_args(**query)``: what the write is also given
   (``reset_interfaces``).
#. ``object_to_patch(ident, patch)``: the resource, read and authorized
   (the node's: one rule per field, ``node_patch_policy``, and the states
   that allow an update).
#. ``check_patch(patch, ident)``: the checks made once it is read (the
   fields a patch may touch; the node's names).
#. ``editable_document(obj)``, ``shown_at(obj)``, ``patched_document``:
   the document the patch applies to, what a read shows at a pointer, the
   patched document as it is checked.
#. ``check_changes(obj, changes, new_doc)``: the changed fields, as the
   resource would hold them.
#. ``apply_changes(ctx, obj, changes)``: set on the object; returns what
   the write compares (the node's compare-and-swap: {field: value read}).
#. ``write_patched(ctx, obj, expected, write_args)``: the write, when
   anything changed.  A node's write refused because those fields changed
   meanwhile (``NodeChanged``) runs steps 2 to 6 again on the node read
   anew, ``PATCH_ATTEMPTS`` times in all before the 409.
#. ``render(obj)``: the answer.
"""

import pecan

from ironic_lite.api import json_patch
from ironic_lite.common import exception


class PatchFlow(object):
    """The JSON-patch flow (``run_patch``) and its hooks' defaults; a
    controller implements ``object_to_patch``, ``editable_document``,
    ``check_changes``, ``apply_changes``, ``write_patched`` and
    ``render``."""

    # How many times a patch is applied when its write finds the fields it
    # changes changed meanwhile (``exception.NodeChanged``).
    PATCH_ATTEMPTS = 1

    def run_patch(self, ident, patch, **query):
        """The resource ``ident`` as written with ``patch`` applied (as
        read when the patch changes nothing), rendered.

        An empty patch is accepted, as Ironic (its schema has no
        minItems): authorized like any other, it changes nothing and
        writes nothing (obj_what_changed() stays empty).
        """
        ctx = pecan.request.context
        self.check_patch_ops(patch, **query)
        write_args = self.patch_write_args(**query)
        for attempt in range(self.PATCH_ATTEMPTS):
            obj, expected = self._patched(ctx, ident, patch)
            if not obj.obj_what_changed():
                break
            try:
                obj = self.write_patched(ctx, obj, expected, write_args)
                break
            except exception.NodeChanged:
                if attempt + 1 >= self.PATCH_ATTEMPTS:
                    raise
        return self.render(obj)

    def _patched(self, ctx, ident, patch):
        """The resource read now with the patch applied (not written), and
        what its write compares."""
        obj = self.object_to_patch(ident, patch)
        self.check_patch(patch, ident)
        doc = self.editable_document(obj)
        new_doc = self.patched_document(
            json_patch.apply_patch(doc, patch, shown=self.shown_at(obj)))
        changes = json_patch.changed_fields(doc, new_doc)
        self.check_changes(obj, changes, new_doc)
        return obj, self.apply_changes(ctx, obj, changes)

    # -- the hooks' defaults ------------------------------------------------

    def check_patch_ops(self, patch, **query):
        """Checks of the patch (and the query) made before the resource is
        looked up."""

    def patch_write_args(self, **query):
        """The write's arguments the query asks for."""
        return {}

    def check_patch(self, patch, ident):
        """Checks of the patch made once the resource is read."""

    def shown_at(self, obj):
        """(document, pointer) -> what a read of ``obj`` shows there, or
        None: the document as it is."""
        return None

    def patched_document(self, doc):
        """The patched document as it is checked."""
        return doc
