"""upgrade_state.assess: the step, the next safe step, the unsafe states,
walked through the rolling-upgrade table from 2.0 to 3.0 (and 3.0 to 4.0,
where every service reports)."""

import pytest

from ironic_lite.common import upgrade_state as us

R = us.Record


def cond(name, release='3.0', pin=None):
    return R(us.CONDUCTOR, name, release, pin)


def api(name, release='3.0', pin=None):
    return R(us.API, name, release, pin)


def step_of(records, **kwargs):
    state = us.assess(records, '3.0', **kwargs)
    return state.step.split(':')[0], state


@pytest.mark.parametrize('records,kwargs,step,busy', [
    ([], {}, 'no service alive', False),
    ([cond('c1', None), cond('c2', None)], {'schema_current': False}, '0',
     True),
    ([cond('c1', None), cond('c2', None)], {}, '2', True),
    ([cond('c1', None), cond('c2', pin='2.0')], {}, '4', True),
    ([cond('c1', pin='2.0'), cond('c2', pin='2.0'), api('a1', '2.0')], {},
     '5', True),
    # Pinned to 2.0, whose API services do not report: 4.2 to 5.2.
    ([cond('c1', pin='2.0'), api('a1', pin='2.0')], {}, '5', True),
    # From 3.0 on every service reports: 5.2 is known.
    ([cond('c1', '4.0', pin='3.0'), api('a1', '4.0', pin='3.0')], {}, '5.2',
     True),
    ([cond('c1'), cond('c2', pin='2.0'), api('a1', pin='2.0')], {}, '6.1',
     True),
    ([cond('c1'), cond('c2'), api('a1', pin='2.0'), api('a2')], {}, '6.3',
     True),
    ([cond('c1'), api('a1')], {'pending_rows': 4}, '7', True),
    ([cond('c1'), api('a1')], {}, 'done', False),
])
def test_the_steps_of_the_table(records, kwargs, step, busy):
    found, state = step_of(records, **kwargs)
    assert (found, state.in_progress, state.problems) == (step, busy, [])


def test_next_step_names_the_services_to_act_on():
    _, state = step_of([cond('c1'), cond('c2', pin='2.0'),
                        api('a1', pin='2.0')])
    assert state.next_step.startswith('Unpin conductor(s) c2 one at a time')
    _, state = step_of([cond('c1', None), cond('c2', pin='2.0')])
    assert state.next_step == (
        'Upgrade conductor(s) c1 to release 3.0 with '
        '[DEFAULT]/pin_release_version = 2.0, one at a time.')


def test_unpinned_with_old_alive_is_unsafe():
    _, state = step_of([cond('c1', None), cond('c2'), api('a1', '2.0')])
    assert len(state.problems) == 1
    problem = state.problems[0]
    assert 'conductor c2 (release 3.0, unpinned)' in problem
    assert 'conductor c1 (release before 3.0, not reporting)' in problem
    assert 'api a1 (release 2.0, unpinned)' in problem


def test_api_unpinned_before_conductors_is_unsafe():
    _, state = step_of([cond('c1', pin='2.0'), api('a1')])
    assert state.problems and 'Unpin every conductor first' in \
        state.problems[0]


def test_a_pin_equal_to_the_own_release_is_no_pin():
    assert us.effective_pin(cond('c1', pin='3.0')) is None
    found, state = step_of([cond('c1', pin='3.0'), api('a1')])
    assert (found, state.problems) == ('done', [])


def test_legacy_api_services_are_noted_while_pinned_to_them():
    _, state = step_of([cond('c1', pin='2.0'), api('a1', pin='2.0')])
    assert state.next_step.startswith(
        'Upgrade every ironic-api still on release 2.0 to 3.0')
    assert state.notes[-1] == ('ironic-api services of release 2.0 do not '
                               'report themselves: make sure none is still '
                               'running.')
    # The other note: what the pinned APIs refuse (see the test below).
    assert len(state.notes) == 2 and 'answer 409' in state.notes[0]
    _, state = step_of([cond('c1', '4.0', pin='3.0')])
    assert state.notes == []


def test_target_is_the_newest_release_alive():
    state = us.assess([cond('c1', '4.0', pin='3.0'), cond('c2', '3.0')],
                      '3.0')
    assert state.target == '4.0'
    assert state.step.startswith('4:')


def test_unpin_blockers_skip_the_service_itself():
    records = [cond('c1', None), cond('c2', '2.0'), api('a1')]
    assert us.unpin_blockers(records, '3.0', own=(us.CONDUCTOR, 'c1')) == [
        cond('c2', '2.0')]
    assert us.unpin_blockers([api('a1'), cond('c1')], '3.0') == []


def test_pinned_apis_note_the_requests_they_refuse():
    state = us.assess([cond('c1'), api('a1', pin='2.0')], '3.0')
    note = [n for n in state.notes if 'answer 409' in n]
    assert note and 'pinned to 2.0' in note[0] and 'VIFs' in note[0]
    state = us.assess([cond('c1'), api('a1')], '3.0')
    assert not [n for n in state.notes if 'answer 409' in n]


# Every row of the STEPS table, with its texts in full (two services where
# a text lists names, to show how they are joined).
FULL_TEXTS = [
    ([], {}, 'no service alive', 'Start the services.'),
    ([cond('c1', None)], {'schema_current': False},
     '0: every service runs an older release',
     'Step 2: run "ironic-dbsync upgrade" with release 3.0 while the '
     'services keep running.'),
    ([cond('c1', None)], {},
     '2: the schema is upgraded; every service runs an older release',
     'Step 4.1: restart one conductor on release 3.0 with '
     '[DEFAULT]/pin_release_version = 2.0.'),
    ([cond('c1', None), cond('c2', '2.0'), cond('c3', pin='2.0')], {},
     '4: conductors being upgraded',
     'Upgrade conductor(s) c1, c2 to release 3.0 with '
     '[DEFAULT]/pin_release_version = 2.0, one at a time.'),
    ([cond('c1', pin='2.0'), api('a1', '2.0'), api('a2', '2.0')], {},
     '5: API services being upgraded',
     'Upgrade ironic-api a1, a2 to release 3.0 with '
     '[DEFAULT]/pin_release_version = 2.0, one at a time.'),
    ([cond('c1', pin='2.0'), cond('c2', pin='1.0')], {},
     '5: every conductor runs 3.0, pinned; API services of release 1.0, '
     '2.0 cannot be seen',
     'Upgrade every ironic-api still on release 1.0, 2.0 to 3.0 with '
     '[DEFAULT]/pin_release_version = 1.0, one at a time; once none is '
     'left, unpin conductor(s) c1, c2 one at a time.'),
    ([cond('c1', '4.0', pin='3.0'), cond('c2', '4.0', pin='3.0')], {},
     '5.2: every service runs 4.0, pinned',
     'Unpin conductor(s) c1, c2 one at a time: remove '
     '[DEFAULT]/pin_release_version and restart.'),
    ([cond('c1'), cond('c2', pin='2.0'), cond('c3', pin='2.0')], {},
     '6.1: conductors being unpinned',
     'Unpin conductor(s) c2, c3 one at a time: remove '
     '[DEFAULT]/pin_release_version and restart.'),
    ([cond('c1'), api('a1', pin='2.0'), api('a2', pin='2.0')], {},
     '6.3: API services being unpinned',
     'Unpin ironic-api a1, a2 one at a time: remove '
     '[DEFAULT]/pin_release_version and restart.'),
    ([cond('c1')], {'pending_rows': 4},
     '7: every service runs 3.0 unpinned',
     'Run "ironic-dbsync online_data_migrations" until it exits 0 (4 '
     'row(s) are not at their latest object version); the next upgrade '
     'needs it.'),
    ([cond('c1')], {},
     'done: every service runs 3.0 unpinned',
     'None: the deployment is ready for the next upgrade.'),
]


@pytest.mark.parametrize('records,kwargs,step,next_step', FULL_TEXTS)
def test_the_texts_of_each_step(records, kwargs, step, next_step):
    state = us.assess(records, '3.0', **kwargs)
    assert (state.step, state.next_step) == (step, next_step)


def test_every_row_of_the_table_has_a_case():
    matched = set()
    for records, kwargs, _, _ in FULL_TEXTS:
        view = us.View(records, '3.0', kwargs.get('schema_current', True),
                       kwargs.get('pending_rows', 0))
        matched.add(next(i for i, row in enumerate(us.STEPS)
                         if row.condition(view)))
    assert matched == set(range(len(us.STEPS)))


def test_the_texts_of_the_problems_and_notes():
    state = us.assess([cond('c1', None), cond('c2'), api('a1', '2.0')],
                      '3.0')
    assert state.problems == [
        'Unpinned while services of an older release are alive: conductor '
        'c2 (release 3.0, unpinned). Older services: conductor c1 (release '
        'before 3.0, not reporting), api a1 (release 2.0, unpinned). Set '
        '[DEFAULT]/pin_release_version = 2.0 on the unpinned ones and '
        'restart them, and unpin only once every service runs 3.0.']
    state = us.assess([cond('c1', pin='2.0'), api('a1'),
                       api('a2', pin='2.0')], '3.0')
    assert state.problems == [
        'API services unpinned before every conductor: api a1 (release '
        '3.0, unpinned), while conductor c1 (release 3.0, pinned to 2.0) '
        'are pinned. Unpin every conductor first (steps 6.1-6.2), then the '
        'API services (6.3-6.4).']
    assert state.notes == [
        'API services pinned to 2.0 answer 409 (nothing done) to the '
        'requests that need RPC %s: node trait changes, VIFs, node validate '
        'and boot device; volume connector and target writes; allocation '
        'writes; rescue, manual cleaning, NMI and the console; deploy '
        'template changes and deploys with deploy_steps; boot mode and '
        'secure boot changes and the indicators; target RAID '
        'configurations, RAID logical disk properties and vendor '
        'passthru; the ramdisk agent\'s lookup (token) and heartbeats; '
        'the ramdisk agent\'s '
        'inspection data (continue_inspection); servicing; virtual '
        'media. '
        'They work once '
        'every conductor and then the API '
        'services are unpinned (steps 6.1-6.4).'
        % us.release_mappings.RELEASE_MAPPING['master']['rpc'],
        'ironic-api services of release 2.0 do not report themselves: make '
        'sure none is still running.']
