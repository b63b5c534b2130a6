"""The pure parts of the side-by-side benchmark tool (no services run)."""

import types

from ironic_lite import objects
from tools.benchmark import compare
from tools.benchmark import compare_ops
from tools.benchmark import dataset
from tools.benchmark import ironic_env

objects.register_all()


def test_alternation_switches_who_goes_first():
    assert compare_ops.order(0, ['ironic', 'lite']) == ['ironic', 'lite']
    assert compare_ops.order(1, ['ironic', 'lite']) == ['lite', 'ironic']


def test_speedup_of_times_and_of_rates():
    row = compare_ops._row('GET x', {'ironic': 30.0, 'lite': 10.0}, {})
    assert row['speedup'] == 3.0
    rate = compare_ops._row('load', {'ironic': 20.0, 'lite': 50.0}, {},
                            unit='req/s')
    assert rate['speedup'] == 2.5
    assert compare_ops.speedup(None, 1.0) is None


def test_table_rows():
    rows = [compare_ops._row('GET /v1/nodes', {'ironic': 30.0, 'lite': 10.0},
                             {'ironic': 7, 'lite': 7}),
            compare_ops._row('load', {'ironic': 20.0, 'lite': 50.0}, {},
                             unit='req/s')]
    table = compare_ops.format_table(rows).splitlines()
    assert table[0] == '| request | Ironic | ironic-lite | speed-up |'
    assert table[2] == '| GET /v1/nodes (7) | 30.0 | 10.0 | 3.00x |'
    assert table[3] == '| load | 20/s | 50/s | 2.50x |'


def test_differing_item_counts_are_shown():
    row = compare_ops._row('GET x', {'ironic': 1.0, 'lite': 1.0},
                           {'ironic': 3, 'lite': 4})
    assert 'items differ' in compare_ops.format_row(row)


def test_both_schemas_get_the_same_fleet():
    def rows(versions=None):
        import random
        fleet = dataset._fleet(random.Random(1), 30, 3, 0.1, 10, 'now')
        if versions:
            tables = {name: types.SimpleNamespace(columns=[
                types.SimpleNamespace(name=c) for c in columns])
                for name, columns in [
                    ('nodes', ('uuid', 'shard', 'version',
                               'firmware_interface')),
                    ('ports', ('uuid', 'address', 'node_id', 'version')),
                    ('portgroups', ('uuid', 'node_id', 'version'))]}
            fleet = dataset._adapt(fleet, tables, versions,
                                   {'firmware_interface': 'no-firmware'})
        return list(fleet)
    ours = rows()
    theirs = rows({'nodes': '1.44', 'ports': '1.16', 'portgroups': '1.9'})
    assert [(t, r['uuid']) for t, r in ours] == [
        (t, r['uuid']) for t, r in theirs]
    node = next(r for t, r in theirs if t == 'nodes')
    assert node['version'] == '1.44'
    assert node['firmware_interface'] == 'no-firmware'
    assert 'driver_info' not in node  # a column that schema lacks


def test_ironic_config_is_loopback_noauth_fake_hardware(tmp_path):
    sections = ironic_env.config_sections('sqlite://', 6385, 'split',
                                          str(tmp_path), rpc_port=8089)
    assert sections['DEFAULT']['auth_strategy'] == 'noauth'
    assert sections['DEFAULT']['rpc_transport'] == 'json-rpc'
    assert sections['DEFAULT']['enabled_hardware_types'] == 'fake-hardware'
    assert sections['api']['host_ip'] == '127.0.0.1'
    assert sections['json_rpc']['host_ip'] == '127.0.0.1'
    aio = ironic_env.config_sections('sqlite://', 6385, 'aio', str(tmp_path))
    assert aio['DEFAULT']['rpc_transport'] == 'none'
    assert 'json_rpc' not in aio


def test_layout_follows_the_database():
    assert compare.parse_args([]).layout == 'aio'
    assert compare.parse_args(['--db', 'postgresql']).layout == 'split'


def test_next_link_keeps_the_first_requests_filters():
    from tools.benchmark import measure
    path = measure.next_path(
        '/v1/nodes?shard=s1&limit=1000',
        'http://127.0.0.1:1/v1/nodes?limit=1000&marker=abc')
    assert path == '/v1/nodes?limit=1000&marker=abc&shard=s1'
    same = measure.next_path('/v1/nodes?shard=s1',
                             'http://h/v1/nodes?shard=s1&marker=abc')
    assert same == '/v1/nodes?shard=s1&marker=abc'
