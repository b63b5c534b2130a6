"""create, save and refresh keep an object's context: the one given to the
call, else the object's own (a later save or RPC call uses it)."""

from ironic_lite.common import context as ir_context
from ironic_lite import objects


def test_create_save_refresh_keep_the_context(sqlite_db):
    objects.register_all()
    own, other = (ir_context.get_admin_context(),
                  ir_context.get_admin_context())
    node = objects.Node(own, driver='fake-hardware')
    node.create()
    assert node._context is own
    node.description = 'saved'
    node.save()
    assert node._context is own
    node.refresh()
    assert node._context is own
    # A context given to the call is the one the object keeps.
    node.description = 'again'
    node.save(other)
    assert node._context is other
    second = objects.Node(own, driver='fake-hardware')
    second.create(other)
    assert second._context is other
    assert objects.Node.get_by_uuid(own, node.uuid).description == 'again'
