"""BIOS setting rows on every backend (db/bios.py): the sync of a node's
settings."""

import pytest

from ironic_lite.common import exception
from ironic_lite.db import bios as db_bios
from ironic_lite.db import node as db_node


def _node():
    return db_node.create_node({'driver': 'fake-hardware'})


def test_sync_settings(any_db):
    node = _node()
    settings = [{'name': 'A', 'value': 'x', 'allowable_values': ['x', 'y'],
                 'lower_bound': 2 ** 40, 'read_only': True}]
    assert db_bios.sync_bios_settings(node.id, settings, '1.0') == (
        ['A'], [], [])
    row = db_bios.get_bios_setting(node.id, 'A')
    assert (row.value, row.allowable_values, row.lower_bound,
            row.read_only) == ('x', ['x', 'y'], 2 ** 40, True)
    assert db_bios.sync_bios_settings(node.id, [], '1.0') == ([], [], ['A'])
    with pytest.raises(exception.BIOSSettingNotFound):
        db_bios.get_bios_setting(node.id, 'A')
