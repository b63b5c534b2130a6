"""Who may do what with runbooks (API 1.92, Ironic 39's secure-RBAC
defaults): a project's managers keep their project's runbooks, a project
scoped creator makes private runbooks of its project only, the public
ones are readable by everybody, only the system sets owner and public."""

from tests.unit.api import utils

URL = '/v1/runbooks'
STEP = {'interface': 'bios', 'step': 'factory_reset', 'args': {},
        'order': 1}
USERS = {
    'admin': '',                                 # system admin
    'sysreader': ':reader',                      # system reader
    'p1manager': ':manager,member,reader:proj1',
    'p1member': ':member:proj1',
    'p2manager': ':manager,member,reader:proj2',
    'p2reader': ':reader:proj2',
}
_auth = utils.basic_auth


def _post(client, user, name='CUSTOM_RB', **extra):
    return client.post_json(URL, dict(extra, name=name, steps=[STEP]),
                            headers=_auth(user))


def test_a_project_manager_creates_its_projects_runbooks(basic):
    resp = _post(basic, 'p1manager')
    assert resp.status_int == 201, resp.text
    assert resp.json['owner'] == 'proj1'
    resp = _post(basic, 'p1manager', name='CUSTOM_OTHER', owner='proj2')
    assert resp.status_int == 400
    assert utils.faultstring(resp) == (
        'Cannot create a runbook as a project scoped admin with an owner '
        'other than your own project.')
    resp = _post(basic, 'p1manager', name='CUSTOM_PUB', public=True)
    assert resp.status_int == 400
    assert utils.faultstring(resp) == (
        'Cannot create a public runbook as a project scoped admin.')
    assert _post(basic, 'p1member', name='CUSTOM_M').status_int == 403
    resp = _post(basic, 'admin', name='CUSTOM_SYS', owner='proj2',
                 public=False)
    assert resp.status_int == 201
    assert resp.json['owner'] == 'proj2'


def test_reads_lists_and_public_runbooks(basic):
    assert _post(basic, 'p1manager', name='CUSTOM_P1').status_int == 201
    assert _post(basic, 'p2manager', name='CUSTOM_P2').status_int == 201
    assert _post(basic, 'admin', name='CUSTOM_PUB',
                 public=True).status_int == 201
    assert _post(basic, 'admin', name='CUSTOM_SYS').status_int == 201

    def names(user):
        resp = basic.get(URL, headers=_auth(user))
        assert resp.status_int == 200, resp.text
        return sorted(r['name'] for r in resp.json['runbooks'])

    assert names('sysreader') == ['CUSTOM_P1', 'CUSTOM_P2', 'CUSTOM_PUB',
                                  'CUSTOM_SYS']
    assert names('p2reader') == ['CUSTOM_P2', 'CUSTOM_PUB']
    get = basic.get
    assert get(URL + '/CUSTOM_P2', headers=_auth('p2reader')).status_int \
        == 200
    assert get(URL + '/CUSTOM_PUB', headers=_auth('p2reader')).status_int \
        == 200
    resp = get(URL + '/CUSTOM_P1', headers=_auth('p2reader'))
    assert resp.status_int == 403
    assert get(URL + '/CUSTOM_SYS', headers=_auth('p2reader')).status_int \
        == 403
    assert get(URL + '/CUSTOM_NONE', headers=_auth('p2reader')).status_int \
        == 404


def test_updates_and_deletes(basic):
    _post(basic, 'p1manager')
    patch = [{'op': 'add', 'path': '/extra/a', 'value': 1}]
    resp = basic.patch_json(URL + '/CUSTOM_RB', patch,
                            headers=_auth('p2manager'))
    assert resp.status_int == 403
    resp = basic.patch_json(URL + '/CUSTOM_RB', patch,
                            headers=_auth('p1manager'))
    assert resp.status_int == 200, resp.text
    # Owner and public: the system's (update:owner, update:public).
    for path, value in (('/owner', 'proj2'), ('/public', True)):
        resp = basic.patch_json(URL + '/CUSTOM_RB', [
            {'op': 'replace', 'path': path, 'value': value}],
            headers=_auth('p1manager'))
        assert resp.status_int == 403, path
    resp = basic.patch_json(URL + '/CUSTOM_RB', [
        {'op': 'replace', 'path': '/owner', 'value': 'proj2'}],
        headers=_auth('admin'))
    assert resp.status_int == 200, resp.text
    assert basic.put_json(URL + '/CUSTOM_RB/traits',
                          {'traits': ['CUSTOM_A']},
                          headers=_auth('p1manager')).status_int == 403
    assert basic.put_json(URL + '/CUSTOM_RB/traits',
                          {'traits': ['CUSTOM_A']},
                          headers=_auth('p2manager')).status_int == 204
    assert basic.delete(URL + '/CUSTOM_RB',
                        headers=_auth('p1manager')).status_int == 403
    assert basic.delete(URL + '/CUSTOM_RB',
                        headers=_auth('p2manager')).status_int == 204


def test_cleaning_with_a_runbook_needs_runbook_use(basic):
    resp = basic.post_json('/v1/nodes', {'driver': 'fake-hardware',
                                         'owner': 'proj1'},
                           headers=_auth('admin'))
    node = resp.json['uuid']
    utils.set_node(node, provision_state='manageable', bios_interface='fake')
    basic.put_json('/v1/nodes/%s/traits' % node, {'traits': ['CUSTOM_RB']},
                   headers=_auth('admin'))
    _post(basic, 'p1manager')
    basic.put_json(URL + '/CUSTOM_RB/traits', {'traits': ['CUSTOM_RB']},
                   headers=_auth('p1manager'))
    url = '/v1/nodes/%s/states/provision' % node
    body = {'target': 'clean', 'runbook': 'CUSTOM_RB'}
    # A member of the node's project may clean it, not use the runbook.
    resp = basic.put_json(url, body, headers=_auth('p1member'))
    assert resp.status_int == 403
    assert utils.faultstring(resp) == (
        'Access was denied to the following resource: '
        'baremetal:runbook:use')
    resp = basic.put_json(url, body, headers=_auth('p1manager'))
    assert resp.status_int == 202, resp.text
