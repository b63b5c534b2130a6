"""objects.base.field_attr names where oslo.versionedobjects keeps a
field's value: the fast paths (DB rows, large pages) read and write it
directly.  Checked through the library's public behaviour only."""

from ironic_lite import objects
from ironic_lite.objects import base


def test_a_set_field_is_kept_under_field_attr():
    objects.register_all()
    node = objects.Node(uuid='1be26c0b-03f2-4d2e-ae87-c02d7f33c123')
    assert vars(node)[base.field_attr('uuid')] == node.uuid


def test_a_value_written_there_is_what_the_field_reads():
    objects.register_all()
    node = objects.Node()
    assert not node.obj_attr_is_set('name')
    setattr(node, base.field_attr('name'), 'node-1')
    assert node.obj_attr_is_set('name')
    assert node.name == 'node-1'
