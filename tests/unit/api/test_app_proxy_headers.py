"""[oslo_middleware]enable_proxy_headers_parsing: the links of a body
follow a trusted proxy's X-Forwarded-* headers only when it is on."""

from ironic_lite.api import app as api_app
from tests.unit.api import conftest

HEADERS = {'X-Forwarded-Proto': 'https',
           'X-Forwarded-Host': 'baremetal.example.com'}


def _self_link(client):
    body = client.get('/v1/', headers=HEADERS).json
    return next(link['href'] for link in body['links']
                if link['rel'] == 'self')


def test_forwarded_headers_ignored_by_default(database, rpcapi):
    client = conftest.Client(api_app.setup_app(rpcapi_factory=lambda: rpcapi))
    assert _self_link(client) == 'http://localhost/v1/'


def test_forwarded_headers_followed_when_enabled(database, rpcapi,
                                                 conf_fixture):
    api_app.setup_app(rpcapi_factory=lambda: rpcapi)   # registers the option
    conf_fixture.config(enable_proxy_headers_parsing=True,
                        group='oslo_middleware')
    client = conftest.Client(api_app.setup_app(rpcapi_factory=lambda: rpcapi))
    assert _self_link(client) == 'https://baremetal.example.com/v1/'
