"""Error texts other people's tests compare with Ironic's, word for word:
the "Possible root cause" of a schema error, the "Schema error:" of
allocations (Ironic checks them with api/validation, the others with
args.schema) and of a node (api/body_schema.py words them all; a JSON
patch removing a path that does not exist: test_json_patch.py).

The expected texts were produced by Ironic 39's own algorithm
(ironic/common/args.py ``_validate_schema``, ironic/api/validation
``SchemaValidator``) on its own schemas."""

from tests.unit.api import utils

CAUSE = ". Possible root cause: '%s' does not match '^CUSTOM_[A-Z0-9_]+$'"
ANY_OF = "'%s' is not valid under any of the given schemas"


def test_allocation_traits(client):
    resp = client.post_json('/v1/allocations', {
        'resource_class': 'x', 'traits': ['bad-trait']}, expect_errors=True)
    utils.refused_400(resp, 'Schema error: ' + ANY_OF % 'bad-trait'
                      + CAUSE % 'bad-trait')


def test_deploy_template_name(client):
    resp = client.post_json('/v1/deploy_templates', {
        'name': 'not-a-trait',
        'steps': [{'interface': 'raid', 'step': 'delete_configuration',
                   'args': {}, 'priority': 10}]}, expect_errors=True)
    utils.refused_400(resp, 'Schema error for template: '
                      + ANY_OF % 'not-a-trait' + CAUSE % 'not-a-trait')


def test_node_traits(client):
    uuid = utils.named_node(client)
    resp = client.put_json('/v1/nodes/%s/traits' % uuid,
                           {'traits': ['bad']}, expect_errors=True)
    utils.refused_400(resp, 'Schema error for body: ' + ANY_OF % 'bad'
                      + CAUSE % 'bad')
    resp = client.put_json('/v1/nodes/%s/traits/bad' % uuid, None,
                           expect_errors=True)
    utils.refused_400(resp, 'Schema error for trait: ' + ANY_OF % 'bad'
                      + CAUSE % 'bad')


def test_schema_errors_worded_like_ironic(client):
    resp = client.post_json('/v1/nodes', {'name': 'x'})
    assert utils.faultstring(resp) == (
        "Schema error for node: 'driver' is a required property")
    resp = client.post_json('/v1/nodes', {'driver': 'fake-hardware',
                                          'extra': 'x'})
    assert utils.faultstring(resp) == (
        "Schema error for node: 'x' is not of type 'object', 'null'")
    resp = client.post_json('/v1/nodes', {'driver': 'fake-hardware',
                                          'foo': 1, 'bar': 2})
    assert utils.faultstring(resp) == (
        "Schema error for node: Additional properties are not allowed "
        "('bar', 'foo' were unexpected)")   # jsonschema sorts them
    # Booleans may be given as strings, as Ironic's schema allows.
    resp = client.post_json('/v1/nodes', {'driver': 'fake-hardware',
                                          'maintenance': 'true'})
    assert resp.status_int == 201, resp.text
    assert resp.json['maintenance'] is True
