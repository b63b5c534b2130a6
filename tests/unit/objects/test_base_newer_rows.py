"""Rows at an object version newer than this release knows are refused
on write, never rewritten at the current version (issue 9, defect 8):
"never write what you cannot read"."""

import pytest

from ironic_lite.common import exception
from ironic_lite.db import api as db_api
from ironic_lite.db import models
from ironic_lite import objects


def _set_version(model, uuid, version):
    with db_api.writer() as session:
        session.query(model).filter_by(uuid=uuid).update(
            {'version': version}, synchronize_session=False)


def _row(model, uuid):
    with db_api.reader() as session:
        return session.query(model).filter_by(uuid=uuid).one()


def test_newer_node_row_is_not_rewritten(sqlite_db):
    objects.register_all()
    node = objects.Node(None, driver='fake-hardware', extra={'a': 1})
    node.create()
    _set_version(models.Node, node.uuid, '1.99')
    read = objects.Node.get_by_uuid(None, node.uuid)
    read.extra = {'b': 2}
    with pytest.raises(exception.ObjectVersionTooNew) as err:
        read.save()
    assert err.value.code == 409
    assert '1.99' in str(err.value)
    row = _row(models.Node, node.uuid)
    assert (row.version, row.extra) == ('1.99', {'a': 1})


def test_known_versions_still_written(sqlite_db):
    objects.register_all()
    node = objects.Node(None, driver='fake-hardware')
    node.create()
    _set_version(models.Node, node.uuid, '1.0')
    read = objects.Node.get_by_uuid(None, node.uuid)
    read.extra = {'b': 2}
    read.save()
    assert _row(models.Node, node.uuid).extra == {'b': 2}
