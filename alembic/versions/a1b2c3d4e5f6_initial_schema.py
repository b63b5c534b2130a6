"""Release 1.0: the initial schema.

Chassis, conductors, nodes, portgroups and ports -- each with the object
``version`` column.

Revision ID: a1b2c3d4e5f6
Revises:
Create Date: 2026-11-22

"""

from alembic import op
import sqlalchemy as sa

from ironic_lite.db import models

# revision identifiers, used by Alembic.
revision = 'a1b2c3d4e5f6'
down_revision = None

_MYSQL = {'mysql_engine': 'InnoDB', 'mysql_charset': 'utf8mb4'}


def _timestamps():
    return [sa.Column('created_at', sa.DateTime(), nullable=True),
            sa.Column('updated_at', sa.DateTime(), nullable=True)]


def upgrade():
    op.create_table(
        'chassis',
        *_timestamps(),
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('uuid', sa.String(36)),
        sa.Column('extra', models.JSONEncodedDict()),
        sa.Column('description', sa.String(255), nullable=True),
        sa.Column('version', sa.String(15), nullable=True),
        sa.UniqueConstraint('uuid', name='uniq_chassis0uuid'),
        **_MYSQL)
    op.create_table(
        'conductors',
        *_timestamps(),
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('hostname', sa.String(255), nullable=False),
        sa.Column('drivers', models.JSONEncodedList()),
        sa.Column('online', sa.Boolean()),
        sa.Column('conductor_group', sa.String(255), nullable=False,
                  server_default=''),
        sa.Column('version', sa.String(15), nullable=True),
        sa.UniqueConstraint('hostname', name='uniq_conductors0hostname'),
        **_MYSQL)
    interface_columns = [
        sa.Column('%s_interface' % name, sa.String(255), nullable=True)
        for name in ('bios', 'boot', 'console', 'deploy', 'inspect',
                     'management', 'network', 'power', 'raid', 'rescue',
                     'storage', 'vendor')]
    op.create_table(
        'nodes',
        *_timestamps(),
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('uuid', sa.String(36)),
        sa.Column('instance_uuid', sa.String(36), nullable=True),
        sa.Column('name', sa.String(255), nullable=True),
        sa.Column('chassis_id', sa.Integer(), sa.ForeignKey('chassis.id'),
                  nullable=True),
        sa.Column('power_state', sa.String(15), nullable=True),
        sa.Column('target_power_state', sa.String(15), nullable=True),
        sa.Column('provision_state', sa.String(15), nullable=True),
        sa.Column('target_provision_state', sa.String(15), nullable=True),
        sa.Column('provision_updated_at', sa.DateTime(), nullable=True),
        sa.Column('last_error', sa.Text(), nullable=True),
        sa.Column('instance_info', models.JSONEncodedDict()),
        sa.Column('properties', models.JSONEncodedDict()),
        sa.Column('driver', sa.String(255)),
        sa.Column('driver_info', models.JSONEncodedDict()),
        sa.Column('driver_internal_info', models.JSONEncodedDict()),
        sa.Column('clean_step', models.JSONEncodedDict()),
        sa.Column('deploy_step', models.JSONEncodedDict()),
        sa.Column('raid_config', models.JSONEncodedDict()),
        sa.Column('target_raid_config', models.JSONEncodedDict()),
        sa.Column('reservation', sa.String(255), nullable=True),
        sa.Column('conductor_affinity', sa.Integer(),
                  sa.ForeignKey('conductors.id',
                                name='nodes_conductor_affinity_fk'),
                  nullable=True),
        sa.Column('conductor_group', sa.String(255), nullable=False,
                  server_default=''),
        sa.Column('maintenance', sa.Boolean()),
        sa.Column('maintenance_reason', sa.Text(), nullable=True),
        sa.Column('fault', sa.String(255), nullable=True),
        sa.Column('console_enabled', sa.Boolean()),
        sa.Column('inspection_finished_at', sa.DateTime(), nullable=True),
        sa.Column('inspection_started_at', sa.DateTime(), nullable=True),
        sa.Column('extra', models.JSONEncodedDict()),
        sa.Column('automated_clean', sa.Boolean(), nullable=True),
        sa.Column('protected', sa.Boolean(), nullable=False,
                  server_default='0'),
        sa.Column('protected_reason', sa.Text(), nullable=True),
        sa.Column('owner', sa.String(255), nullable=True),
        sa.Column('lessee', sa.String(255), nullable=True),
        sa.Column('description', sa.Text(), nullable=True),
        sa.Column('allocation_id', sa.Integer(), nullable=True),
        sa.Column('retired', sa.Boolean(), nullable=True,
                  server_default='0'),
        sa.Column('retired_reason', sa.Text(), nullable=True),
        sa.Column('network_data', models.JSONEncodedDict()),
        sa.Column('boot_mode', sa.String(16), nullable=True),
        sa.Column('secure_boot', sa.Boolean(), nullable=True),
        sa.Column('resource_class', sa.String(80), nullable=True),
        *interface_columns,
        sa.Column('version', sa.String(15), nullable=True),
        sa.UniqueConstraint('uuid', name='uniq_nodes0uuid'),
        sa.UniqueConstraint('instance_uuid',
                            name='uniq_nodes0instance_uuid'),
        sa.UniqueConstraint('name', name='uniq_nodes0name'),
        **_MYSQL)
    for name, column in (('reservation_idx', 'reservation'),
                         ('driver_idx', 'driver'),
                         ('provision_state_idx', 'provision_state'),
                         ('conductor_group_idx', 'conductor_group'),
                         ('owner_idx', 'owner'),
                         ('lessee_idx', 'lessee'),
                         ('resource_class_idx', 'resource_class'),
                         ('maintenance_idx', 'maintenance')):
        op.create_index(name, 'nodes', [column])
    op.create_table(
        'portgroups',
        *_timestamps(),
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('uuid', sa.String(36)),
        sa.Column('name', sa.String(255), nullable=True),
        sa.Column('node_id', sa.Integer(), sa.ForeignKey('nodes.id'),
                  nullable=True),
        sa.Column('address', sa.String(18)),
        sa.Column('extra', models.JSONEncodedDict()),
        sa.Column('internal_info', models.JSONEncodedDict()),
        sa.Column('standalone_ports_supported', sa.Boolean()),
        sa.Column('mode', sa.String(255)),
        sa.Column('properties', models.JSONEncodedDict()),
        sa.Column('version', sa.String(15), nullable=True),
        sa.UniqueConstraint('uuid', name='uniq_portgroups0uuid'),
        sa.UniqueConstraint('address', name='uniq_portgroups0address'),
        sa.UniqueConstraint('name', name='uniq_portgroups0name'),
        **_MYSQL)
    op.create_index('portgroups_node_id_idx', 'portgroups', ['node_id'])
    op.create_table(
        'ports',
        *_timestamps(),
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('uuid', sa.String(36)),
        sa.Column('address', sa.String(18)),
        sa.Column('node_id', sa.Integer(), sa.ForeignKey('nodes.id'),
                  nullable=True),
        sa.Column('extra', models.JSONEncodedDict()),
        sa.Column('local_link_connection', models.JSONEncodedDict()),
        sa.Column('portgroup_id', sa.Integer(),
                  sa.ForeignKey('portgroups.id'), nullable=True),
        sa.Column('pxe_enabled', sa.Boolean()),
        sa.Column('internal_info', models.JSONEncodedDict()),
        sa.Column('physical_network', sa.String(64), nullable=True),
        sa.Column('is_smartnic', sa.Boolean(), nullable=True),
        sa.Column('version', sa.String(15), nullable=True),
        sa.UniqueConstraint('address', name='uniq_ports0address'),
        sa.UniqueConstraint('uuid', name='uniq_ports0uuid'),
        **_MYSQL)
    op.create_index('ports_node_id_idx', 'ports', ['node_id'])
    op.create_index('ports_portgroup_id_idx', 'ports', ['portgroup_id'])
