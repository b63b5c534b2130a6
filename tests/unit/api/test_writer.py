"""A resource's writer names the conductor's RPC methods by reference,
checked when the declaring module loads (issue 36: a misspelt method
name once sent port writes around the node lock, silently)."""

import textwrap

import pytest

from ironic_lite.api.controllers.v1 import writer
from ironic_lite.conductor import rpcapi
from ironic_lite import objects

MISSPELT = textwrap.dedent('''
    from ironic_lite.api.controllers.v1 import writer
    from ironic_lite.conductor import rpcapi

    WRITER = writer.Writer(create=rpcapi.ConductorAPI.create_port,
                           update=rpcapi.ConductorAPI.updte_port,
                           destroy=rpcapi.ConductorAPI.destroy_port,
                           version='1.3', older=writer.DIRECT)
''')


def test_a_misspelt_method_fails_the_module_at_import(tmp_path,
                                                      monkeypatch):
    (tmp_path / 'misspelt_resource.py').write_text(MISSPELT)
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(AttributeError, match='updte_port'):
        __import__('misspelt_resource')


def _impostor(self, context, port_obj, node):
    """Named as ConductorAPI's method, but not it."""


_impostor.__name__ = 'update_port'


@pytest.mark.parametrize('method', [
    _impostor, 'update_port', len, rpcapi.conductor_for])
def test_anything_but_a_client_method_is_refused(method):
    with pytest.raises(TypeError, match='not a method of the conductor'):
        writer.Writer(update=method)


@pytest.mark.parametrize('kwargs', [
    {'version': '1.3'},                              # no older
    {'older': writer.DIRECT},                        # no version
    {'version': '1.3', 'older': 'sometimes'},
    {'version': '1.5', 'older': writer.REFUSE},      # no message
    # DIRECT falls back for the actions sent: it needs one.
    {'version': '1.3', 'older': writer.DIRECT},
])
def test_inconsistent_writers_are_refused(kwargs):
    with pytest.raises(ValueError):
        writer.Writer(**kwargs)


def test_declarations_hold_the_methods_they_name():
    objects.register_all()   # the declarations name the objects classes
    from ironic_lite.api.controllers.v1 import chassis
    from ironic_lite.api.controllers.v1 import port
    methods = port.RES.writer.methods
    assert methods['update'] == ('update_port', True)
    assert port.RES.writer.version == '1.3'
    assert port.RES.writer.older == writer.DIRECT
    assert chassis.RES.writer.methods == {
        'create': None, 'update': None, 'destroy': None}


def test_the_fake_client_serves_what_the_writers_send():
    """The API tests' fake conductor has every method a writer sends
    whatever the pin (a DIRECT writer's go to the database there: the
    fake speaks RPC up to 1.2)."""
    objects.register_all()
    from ironic_lite.api.controllers.v1 import resource
    from ironic_lite.api import route_table  # noqa: F401 (every controller)
    from tests.unit.api import fakes
    declared = {cls.RES for cls in _subclasses(resource.ResourceController)
                if cls.RES is not None and cls.RES.writer is not None}
    assert {res.kind for res in declared} >= {
        'port', 'portgroup', 'chassis', 'volume', 'deploy_template',
        'allocation'}
    fake = fakes.FakeConductorAPI()
    for res in declared:
        for action, method in res.writer.methods.items():
            if method is None or res.writer.older == writer.DIRECT:
                continue
            assert callable(getattr(fake, method[0], None)), (res.kind,
                                                              action)


def _subclasses(cls):
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


class _Recorder(object):
    """A client that records each call's positional and keyword
    arguments."""

    def __init__(self):
        self.calls = []

    def __getattr__(self, name):
        def call(*args, **kwargs):
            self.calls.append((name, args, kwargs))
        return call


def test_the_node_writer_sends_the_node_as_the_object_not_beside_it():
    """A node's methods take the node as their object (destroy_node's
    parameter is named node): no second node is passed; update_node gets
    its keyword arguments."""
    from ironic_lite.api.controllers.v1 import node_states
    client = _Recorder()
    for action in ('create', 'update', 'destroy'):
        assert not node_states.WRITER.takes_node(action)
    node_states.WRITER.send(client, 'destroy', 'ctx', 'the-node')
    node_states.WRITER.send(client, 'update', 'ctx', 'the-node',
                            expected={'name': None})
    assert client.calls == [
        ('destroy_node', ('ctx', 'the-node'), {}),
        ('update_node', ('ctx', 'the-node'), {'expected': {'name': None}})]


def test_a_port_writer_sends_the_port_and_its_node():
    from ironic_lite.api.controllers.v1 import port
    client = _Recorder()
    port.PortsController.RES.writer.send(client, 'update', 'ctx', 'p', 'n')
    assert client.calls == [('update_port', ('ctx', 'p', 'n'), {})]
