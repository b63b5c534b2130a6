"""Node traits (release 3.0, API 1.37), as Ironic's Trait and TraitList.

A node's traits are rows of ``node_traits``; ``Node.traits`` (Node 1.2)
carries them as a ``TraitList``.  They are written only by the conductor,
under the node's lock, through ``TraitList.create`` / ``Trait.create`` /
``Trait.destroy`` / ``TraitList.destroy``.
"""

from oslo_versionedobjects import base as ovo_base

from ironic_lite.db import trait as db_trait
from ironic_lite.objects import base
from ironic_lite.objects import fields


@base.IronicObjectRegistry.register
class Trait(ovo_base.ComparableVersionedObject, base.IronicObject):
    # Version 1.0: initial version (release 3.0)
    VERSION = '1.0'

    fields = dict(base.IronicObject.fields, **{
        'node_id': fields.IntegerField(),
        'trait': fields.StringField(),
    })

    field_history = {
        '1.0': ('created_at', 'updated_at', 'node_id', 'trait'),
    }

    def create(self, context=None):
        """Add this trait to its node (no error if it has it already)."""
        version = self.get_target_version()
        db_trait.add_node_trait(self.node_id, self.trait, version)

    @classmethod
    def destroy(cls, context, node_id, trait):
        """Remove one trait; NodeTraitNotFound if the node lacks it."""
        db_trait.delete_node_trait(node_id, trait)


_OBJECTS_ATTR = base.field_attr('objects')


@base.IronicObjectRegistry.register
class TraitList(ovo_base.ComparableVersionedObject, ovo_base.ObjectListBase,
                base.IronicObject):
    # Version 1.0: initial version (release 3.0)
    VERSION = '1.0'

    fields = dict(base.IronicObject.fields, **{
        'objects': fields.ListOfObjectsField('Trait'),
    })

    field_history = {
        '1.0': ('created_at', 'updated_at', 'objects'),
    }

    @classmethod
    def _from_rows(cls, context, rows):
        if not rows:
            return cls._empty(context)
        # What ovo_base.obj_make_list(context, cls(context), Trait, rows)
        # does: passing it the item class is deprecated now, and the
        # older releases setup.cfg allows need it.
        traits = cls(context)
        traits.objects = Trait._from_db_object_list(context, rows)
        traits.obj_reset_changes()
        return traits

    @classmethod
    def _empty(cls, context):
        """An empty list, as ``cls(context)`` makes it (no changes, an
        empty list that coerces what is added to it), without going
        through the field setter twice: a node list makes one for every
        node without traits."""
        empty = cls.__new__(cls)
        empty._changed_fields = set()
        empty._context = context
        empty.__dict__[_OBJECTS_ATTR] = cls.fields['objects'].coerce(
            empty, 'objects', [])
        return empty

    @classmethod
    def get_by_node_id(cls, context, node_id):
        return cls._from_rows(context,
                              db_trait.get_node_traits_by_node_id(node_id))

    @classmethod
    def get_for_nodes(cls, context, node_ids):
        """{node_id: TraitList} for many nodes, from one query."""
        return {node_id: cls._from_rows(context, rows)
                for node_id, rows in
                db_trait.get_node_traits_for_nodes(node_ids).items()}

    @classmethod
    def create(cls, context, node_id, traits):
        """Replace the node's traits with ``traits`` (names)."""
        version = Trait.get_target_version()
        return cls._from_rows(
            context, db_trait.set_node_traits(node_id, traits, version))

    @classmethod
    def destroy(cls, context, node_id):
        """Remove every trait of the node."""
        db_trait.unset_node_traits(node_id)

    def get_trait_names(self):
        return [t.trait for t in self.objects]
