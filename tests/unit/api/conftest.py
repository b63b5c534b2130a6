"""Fixtures of the API unit tests: the real app on a temporary SQLite DB,
with the conductor RPC client replaced by an in-process fake."""

import pytest
import webtest

from ironic_lite.api import app as api_app
from ironic_lite.api import microversions as mv
from ironic_lite.common import policy
from ironic_lite.common import release_mappings
from ironic_lite import conf
from ironic_lite.conductor import hash_ring
from ironic_lite import objects
from tests.unit.api import fakes
from tests.unit.api import utils

CONF = conf.CONF
# The newest microversion served: a field or route added at a new
# microversion is what the tests see by default.
LATEST = mv.MAX_VERSION_STRING


def _api_database(use_db, url):
    """The API's database at ``url`` for one test (a fixture's body)."""
    CONF([], project='ironic', default_config_files=[])
    use_db(url)
    objects.register_all()
    hash_ring.RING_MANAGER.reset()
    yield url
    hash_ring.RING_MANAGER.reset()
    policy.reset()


@pytest.fixture
def database(tmp_path, use_db):
    yield from _api_database(use_db, 'sqlite:///%s' % (tmp_path / 'api.db'))


@pytest.fixture
def database_on_every_backend(db_url, use_db):
    """The API's database on SQLite, PostgreSQL and MariaDB in turn: a
    module whose behaviour differs by backend overrides ``database`` with
    it."""
    yield from _api_database(use_db, db_url)


@pytest.fixture
def database_on_postgresql(postgresql_url, use_db):
    """The API's database on PostgreSQL only (a module testing what only
    PostgreSQL has overrides ``database`` with it)."""
    yield from _api_database(use_db, postgresql_url)


@pytest.fixture
def rpcapi():
    return fakes.FakeConductorAPI()


class Client(object):
    """webtest.TestApp with the version header set by default."""

    def __init__(self, app, version=LATEST):
        self.app = webtest.TestApp(app)
        self.version = version

    def _headers(self, headers, version):
        headers = dict(headers or {})
        version = version if version is not None else self.version
        if version:
            headers.setdefault('X-OpenStack-Ironic-API-Version', version)
        return headers

    def __getattr__(self, method):
        func = getattr(self.app, method)
        json_methods = ('post_json', 'put_json', 'patch_json')

        def call(url, *args, headers=None, version=None, **kwargs):
            kwargs.setdefault('expect_errors', True)
            if method in json_methods and args:
                kwargs['params'] = args[0]
                args = ()
            return func(url, *args,
                        headers=self._headers(headers, version), **kwargs)
        return call


@pytest.fixture
def make_client(database, rpcapi):
    def _make(version=LATEST):
        app = api_app.setup_app(rpcapi_factory=lambda: rpcapi)
        return Client(app, version)
    return _make


@pytest.fixture
def basic(make_client, tmp_path, request):
    """A client of the API under http_basic, with the test module's USERS
    ({user: ":roles[:project]"}, password "<user>-pw")."""
    utils.use_http_basic(tmp_path, request.module.USERS)
    return make_client()


@pytest.fixture
def client(make_client):
    return make_client()


@pytest.fixture
def node(client):
    resp = client.post_json('/v1/nodes', {'driver': 'fake-hardware',
                                          'name': 'node-0'})
    assert resp.status_int == 201, resp.text
    return resp.json


@pytest.fixture
def config_pin(database, client):
    """Pin the API to a release for one test (cleared by ``database``).

    ``client`` then asks for the newest microversion the pinned release
    serves: a newer one is refused (406) while pinned, whatever the test
    is about.
    """
    def pin(release):
        CONF.set_override('pin_release_version', release)
        client.version = release_mappings.get_release(release)['api']
    return pin
