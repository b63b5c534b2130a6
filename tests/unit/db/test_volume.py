"""Volume connector and target rows on every backend: their unique
constraints answer Ironic's 409s with nothing written, and a node takes
its rows with it."""

import pytest

from ironic_lite.common import exception
from ironic_lite.db import node as db_node
from ironic_lite.db import volume as db_volume


def _node():
    return db_node.create_node({'driver': 'fake-hardware'})


def test_connector_type_and_id_are_unique(any_db):
    node = _node()
    first = db_volume.create_connector({'node_id': node.id, 'type': 'iqn',
                                        'connector_id': 'iqn.a'})
    with pytest.raises(exception.VolumeConnectorTypeAndIdAlreadyExists) as e:
        db_volume.create_connector({'node_id': node.id, 'type': 'iqn',
                                    'connector_id': 'iqn.a'})
    assert str(e.value) == ('A volume connector with type iqn and connector '
                            'ID iqn.a already exists.')
    other = db_volume.create_connector({'node_id': node.id, 'type': 'ip',
                                        'connector_id': 'iqn.a'})
    # An update to an existing pair names the pair it would make.
    with pytest.raises(exception.VolumeConnectorTypeAndIdAlreadyExists) as e:
        db_volume.update_connector(other.uuid, {'type': 'iqn'})
    assert 'type iqn and connector ID iqn.a' in str(e.value)
    with pytest.raises(exception.VolumeConnectorAlreadyExists):
        db_volume.create_connector({'uuid': first.uuid, 'node_id': node.id,
                                    'type': 'mac', 'connector_id': 'm'})
    rows = db_volume.get_connector_list(filters={'node_id': node.id})
    assert sorted(r.type for r in rows) == ['ip', 'iqn']


def test_target_boot_index_is_unique_per_node(any_db):
    node, other = _node(), _node()
    values = {'volume_type': 'iscsi', 'boot_index': 0, 'volume_id': 'v'}
    db_volume.create_target(dict(values, node_id=node.id))
    db_volume.create_target(dict(values, node_id=other.id))
    with pytest.raises(exception.VolumeTargetBootIndexAlreadyExists) as e:
        db_volume.create_target(dict(values, node_id=node.id))
    assert str(e.value) == ("A volume target with boot index '0' for the "
                            "same node already exists.")
    assert len(db_volume.get_target_list()) == 2


def test_a_node_goes_with_its_volume_rows(any_db):
    node, other = _node(), _node()
    for n, ident in ((node, 'a'), (other, 'b')):
        db_volume.create_connector({'node_id': n.id, 'type': 'iqn',
                                    'connector_id': ident})
        db_volume.create_target({'node_id': n.id, 'volume_type': 'iscsi',
                                 'boot_index': 0, 'volume_id': ident})
    db_node.destroy_node(node.id)
    assert [r.connector_id for r in db_volume.get_connector_list()] == ['b']
    assert [r.volume_id for r in db_volume.get_target_list()] == ['b']
    with pytest.raises(exception.VolumeTargetNotFound):
        db_volume.get_target('uuid', '11111111-2222-3333-4444-555555555555')
