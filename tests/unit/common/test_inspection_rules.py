"""What inspection rules read (API 1.96): {...} formatting, the masked
views of the inspection data, and an operation's arguments."""

import types

from ironic_lite.common import inspection_rules as ir

NODE = types.SimpleNamespace(uuid='n1', name='node-1')


def _context(**extra):
    return dict({'node': NODE, 'inventory': {'cpu': {'count': 2}},
                 'plugin_data': {'k': 'v'}}, **extra)


def test_formatting():
    ctx = _context()
    assert ir.interpolate('{node.name}/{inventory[cpu][count]}', ctx) == (
        'node-1/2')
    assert ir.interpolate({'{plugin_data[k]}': ['{node.uuid}', 3]}, ctx) \
        == {'v': ['n1', 3]}
    # What cannot be formatted stays as it is; a missing field is None
    # for is-empty only.
    assert ir.interpolate('{inventory[nope]}', ctx) == '{inventory[nope]}'
    assert ir.interpolate('{inventory[nope]}', ctx, op='is-empty') is None
    assert ir.interpolate('{node.nope}', ctx) == '{node.nope}'
    assert ir.interpolate('{', ctx) == '{'
    # In a loop, an item holding {...} is formatted too.
    ctx = _context(item='{node.name}')
    assert ir.interpolate('{item}', ctx, loop=True) == 'node-1'


def test_masked_views_read_secrets_as_stars_and_write_through():
    data = {'bmc_password': 's', 'nested': [{'password': 'p', 'a': 1}],
            'auth_token': 't'}
    view = ir.MaskedDict(data)
    assert view['bmc_password'] == '***'
    assert view['nested'][0]['password'] == '***'
    assert view['nested'][0]['a'] == 1
    assert '{x[auth_token]}'.format(x=view) == '***'
    view['nested'][0]['b'] = 2
    view.setdefault('new', {})['c'] = 3
    assert data['nested'][0] == {'password': 'p', 'a': 1, 'b': 2}
    assert data['new'] == {'c': 3}
    assert ir.MaskedDict(data, enabled=False)['bmc_password'] == 's'


def test_operation_args():
    sig = ir.ACTIONS['set-plugin-data']
    plugin_data = {}
    args = ir.operation_args(
        sig, {'op': 'set-plugin-data',
              'args': ['a.b', '{inventory[cpu][count]}']},
        NODE, {'cpu': {'count': 2}}, plugin_data)
    assert args == {'path': 'a.b', 'value': '2',
                    'plugin_data': plugin_data}
    assert args['plugin_data'] is plugin_data
    # Only the formatted arguments are formatted, unless in a loop.
    sig = ir.ACTIONS['set-attribute']
    operation = {'op': 'set-attribute',
                 'args': {'path': '{item}', 'value': '{item}'}}
    assert ir.operation_args(sig, operation, NODE, {}, {}) == {
        'path': '{item}', 'value': '{item}'}
    assert ir.operation_args(sig, operation, NODE, {}, {},
                             {'item': 'x'}) == {'path': 'x', 'value': 'x'}


def test_paths():
    assert ir.normalize_path('/properties/cpus') == ['properties', 'cpus']
    assert ir.normalize_path('properties.cpus') == ['properties', 'cpus']
    assert ir.parse_inverted_operator(' ! eq ') == ('eq', True)
