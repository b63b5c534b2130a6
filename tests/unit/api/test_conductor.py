"""/v1/conductors: the conductor list."""

from ironic_lite import objects


def test_conductors(client, database):
    objects.Conductor.register(None, 'cond-a', ['fake-hardware'], 'g1')
    objects.Conductor.register(None, 'cond-b', ['fake-hardware'], '')
    objects.Conductor.get_by_hostname(None, 'cond-b').unregister()
    items = client.get('/v1/conductors').json['conductors']
    assert [(c['hostname'], c['conductor_group'], c['alive'])
            for c in items] == [('cond-a', 'g1', True), ('cond-b', '', False)]
    assert set(items[0]) == {'hostname', 'conductor_group', 'alive', 'links'}
    one = client.get('/v1/conductors/cond-a').json
    assert one['drivers'] == ['fake-hardware']
    assert one['links'][0]['href'] == 'http://localhost/v1/conductors/cond-a'
    page = client.get('/v1/conductors?limit=1').json
    assert 'marker=cond-a' in page['next']
    assert client.get('/v1/conductors/nope').status_int == 404
    assert client.get('/v1/conductors', version='1.48').status_int == 404


def test_conductor_release_and_pin_only_when_asked(client, database):
    from ironic_lite.common import upgrade_state
    from ironic_lite import conf
    from ironic_lite import version
    new, pin = version.RELEASE, upgrade_state.previous_release(
        version.RELEASE)
    objects.Conductor.register(None, 'cond-new', ['fake-hardware'], '')
    objects.Conductor.register(None, 'cond-old', ['fake-hardware'], '')
    conf.CONF.set_override('pin_release_version', pin)
    try:
        objects.Service.report(None, 'conductor', 'cond-new', 'cond-new')
    finally:
        conf.CONF.clear_override('pin_release_version')
    # Ironic's shapes are unchanged.
    detail = client.get('/v1/conductors?detail=True').json['conductors']
    assert all('release' not in c and 'pin' not in c for c in detail)
    assert 'release' not in client.get('/v1/conductors/cond-new').json
    # Asked for: from the services table; null for a release before 3.0.
    items = client.get('/v1/conductors?fields=hostname,release,pin').json
    for item in items['conductors']:
        item.pop('links')  # a list always links its items, as Ironic's
    assert items['conductors'] == [
        {'hostname': 'cond-new', 'release': new, 'pin': pin},
        {'hostname': 'cond-old', 'release': None, 'pin': None}]
    one = client.get('/v1/conductors/cond-new?fields=release').json
    assert (one['release'], 'pin' in one) == (new, False)
    assert client.get('/v1/conductors?sort_key=release').status_int == 400
    assert client.get('/v1/conductors?fields=release',
                      version='1.48').status_int == 404


def test_conductor_pages_follow_a_host_name_marker(client, database):
    """A conductor's marker is its host name, not a UUID (the conductors
    controller's MARKER_IS_UUID); the other resources still refuse one."""
    for host in ('cond-a', 'cond-b'):
        objects.Conductor.register(None, host, ['fake-hardware'], '')
    resp = client.get('/v1/conductors?limit=1&marker=cond-a')
    assert resp.status_int == 200
    assert [c['hostname'] for c in resp.json['conductors']] == ['cond-b']
    assert client.get('/v1/chassis?marker=cond-a').status_int == 400
