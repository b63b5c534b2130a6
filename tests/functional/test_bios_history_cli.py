"""BIOS settings (1.40/1.74) and node history (1.78) through the
unmodified ``baremetal`` CLI (python-ironicclient) against the embedded
service (noauth): ``node bios setting list/show`` after ``manage`` and
after a cleaning that applies settings, and ``node history list/get``
after a failed and a successful cleaning.
"""

import json

import pytest

from tests.functional import procs

BAD_STEP = [{'interface': 'bios', 'step': 'apply_configuration',
             'args': {'settings': 'bad'}}]
GOOD_STEP = [{'interface': 'bios', 'step': 'apply_configuration',
              'args': {'settings': [{'name': 'ProcTurboMode',
                                     'value': 'Disabled'}]}}]


def _wait_state(service, uuid, state):
    def reached():
        status, _, body = procs.api(service, 'GET', '/v1/nodes/' + uuid)
        assert status == 200, body
        if body['provision_state'] == state and body['reservation'] is None:
            return body
        return None
    return procs.wait_for(reached, what='node %s in %s' % (uuid, state))


def _column(rows, label):
    """The values of one column of a ``-f json`` listing, whatever the
    case of its label."""
    return [next(v for k, v in row.items() if k.lower() == label)
            for row in rows]


@pytest.mark.long(80)
def test_bios_settings_and_history_with_cli(lite_noauth, cli_env):
    service = lite_noauth

    def bm(*args, **kwargs):
        return procs.baremetal(service, cli_env, *args, **kwargs)

    uuid = bm('node', 'create', '--driver', 'fake-hardware', '--name',
              'bios-node', '--bios-interface', 'fake')['uuid']
    bm('node', 'manage', 'bios-node', expect_json=False)
    _wait_state(service, uuid, 'manageable')

    # manage caches the fake BIOS's settings (with registry data).
    names = _column(bm('node', 'bios', 'setting', 'list', 'bios-node'),
                    'name')
    assert 'ProcTurboMode' in names and 'BootMode' in names
    shown = bm('node', 'bios', 'setting', 'show', 'bios-node',
               'ProcTurboMode')
    assert shown['value'] == 'Enabled'
    assert shown['allowable_values'] == ['Enabled', 'Disabled']
    detailed = bm('node', 'bios', 'setting', 'list', 'bios-node', '--long')
    assert len(detailed) == len(names)

    # A failed cleaning, then a good one.
    bm('node', 'clean', 'bios-node', '--clean-steps', json.dumps(BAD_STEP),
       expect_json=False)
    _wait_state(service, uuid, 'clean failed')
    bm('node', 'maintenance', 'unset', 'bios-node', expect_json=False)
    bm('node', 'manage', 'bios-node', expect_json=False)
    _wait_state(service, uuid, 'manageable')
    bm('node', 'clean', 'bios-node', '--clean-steps', json.dumps(GOOD_STEP),
       expect_json=False)
    _wait_state(service, uuid, 'manageable')
    assert bm('node', 'bios', 'setting', 'show', 'bios-node',
              'ProcTurboMode')['value'] == 'Disabled'

    events = bm('node', 'history', 'list', 'bios-node', '--long')
    severities = _column(events, 'severity')
    assert severities.count('ERROR') == 1
    assert severities[-1] == 'INFO'
    error = events[severities.index('ERROR')]
    assert _column([error], 'event_type') == ['cleaning']
    assert 'BIOS settings must be a list' in _column([error], 'event')[0]
    one = bm('node', 'history', 'get', 'bios-node',
             _column([error], 'uuid')[0])
    assert one['severity'] == 'ERROR' and one['event_type'] == 'cleaning'
