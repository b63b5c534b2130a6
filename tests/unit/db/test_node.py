"""provision_updated_at: when the provision state last changed."""

import datetime
from unittest import mock

from oslo_utils import timeutils

from ironic_lite.common import context as ir_context
from ironic_lite import objects


def test_set_when_the_provision_state_changes_only(sqlite_db):
    objects.register_all()
    ctx = ir_context.get_admin_context()
    start = timeutils.utcnow().replace(microsecond=0)
    node = objects.Node(ctx, driver='fake-hardware', provision_state='enroll')
    node.create(ctx)
    first = objects.Node.get_by_uuid(ctx, node.uuid).provision_updated_at

    later = start + datetime.timedelta(minutes=5)
    with mock.patch.object(timeutils, 'utcnow', return_value=later):
        node.description = 'no state change'
        node.save()
        unchanged = objects.Node.get_by_uuid(ctx, node.uuid)
        assert unchanged.provision_updated_at == first

        node.provision_state = 'verifying'
        node.save()
        changed = objects.Node.get_by_uuid(ctx, node.uuid)
    assert changed.provision_updated_at is not None
    assert changed.provision_updated_at.replace(tzinfo=None) == later
