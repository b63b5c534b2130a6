"""Inspection rules (1.96) with the unmodified ``baremetal`` CLI against a
running ironic-lite (noauth): create, list, show, set, unset, delete
(the sensitive flag: test_redfish_vmedia.py, through openstacksdk)."""

import json

from tests.functional import procs

ACTIONS = [{'op': 'add-trait', 'args': {'name': 'CUSTOM_CLI'}}]
CONDITIONS = [{'op': 'eq', 'args': {'values': ['{inventory[cpu][count]}',
                                               '2']}}]


def test_inspection_rules_with_cli(lite_noauth, cli_env):
    def bm(*args, **kwargs):
        return procs.baremetal(lite_noauth, cli_env, *args, **kwargs)

    # The client sends --priority as a string, which Ironic's schema
    # refuses too.
    err = bm('inspection', 'rule', 'create', '--priority', '7',
             '--actions', json.dumps(ACTIONS), expect_ok=False)
    assert "Schema error: '7' is not of type 'integer'" in err
    rule = bm('inspection', 'rule', 'create', '--description', 'cli rule',
              '--actions', json.dumps(ACTIONS),
              '--conditions', json.dumps(CONDITIONS))
    uuid = rule['uuid']
    assert (rule['priority'], rule['phase'], rule['actions']) == (
        0, 'main', ACTIONS)
    listed = bm('inspection', 'rule', 'list')
    assert len(listed) == 1 and uuid in listed[0].values()
    bm('inspection', 'rule', 'set', uuid, '--phase', 'main',
       expect_json=False)
    bm('inspection', 'rule', 'unset', uuid, '--description',
       expect_json=False)
    shown = bm('inspection', 'rule', 'show', uuid)
    assert (shown['phase'], shown['description']) == ('main', None)
    assert shown['conditions'] == CONDITIONS
    err = bm('inspection', 'rule', 'create', '--conditions', '[]',
             '--actions', json.dumps([{'op': 'fail', 'args': {}}]),
             expect_ok=False)
    assert 'missing required argument(s): msg' in err
    # Without --conditions the client sends null, which Ironic's schema
    # refuses too.
    err = bm('inspection', 'rule', 'create', '--actions',
             json.dumps(ACTIONS), expect_ok=False)
    assert "Schema error: None is not of type 'array'" in err
    bm('inspection', 'rule', 'delete', uuid, expect_json=False)
    assert bm('inspection', 'rule', 'list') == []
