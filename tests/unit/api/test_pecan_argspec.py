"""ironic_lite.api.pecan_argspec gives pecan the answers it would compute."""

import functools
import inspect

import pecan.core
import pecan.rest
import pecan.routing
import pecan.util

from ironic_lite.api import pecan_argspec
from ironic_lite import objects

objects.register_all()

from ironic_lite.api.controllers import root  # noqa: E402
from ironic_lite.api.controllers.v1 import node  # noqa: E402
from ironic_lite.api.controllers.v1 import port  # noqa: E402


def _decorated(func):
    @functools.wraps(func)
    def wrapper(self, *args, **kwargs):
        return func(self, *args, **kwargs)
    return wrapper


class _Controller(object):
    def plain(self, a, b=1):
        pass

    @_decorated
    def wrapped(self, uuid, fields=None):
        pass

    @staticmethod
    def static(x):
        pass


def _methods():
    for cls in (_Controller, root.RootController, node.NodesController,
                port.PortsController):
        instance = cls.__new__(cls)
        for name, value in inspect.getmembers(cls, inspect.isfunction):
            yield value
            yield getattr(instance, name)


def test_same_answer_as_pecan_for_every_controller_method():
    checked = 0
    for method in _methods():
        expected = pecan_argspec._PLAIN(method)
        # Twice: the computed answer, then the remembered one.
        assert pecan_argspec.getargspec(method) == expected
        assert pecan_argspec.getargspec(method) == expected
        checked += 1
    assert checked > 20


def test_callable_objects_are_not_remembered():
    class Callable(object):
        def __call__(self, a):
            pass
    obj = Callable()
    before = len(pecan_argspec._SPECS)
    assert pecan_argspec.getargspec(obj) == pecan_argspec._PLAIN(obj)
    assert len(pecan_argspec._SPECS) == before


def test_install_patches_the_modules_pecan_routes_with():
    pecan_argspec.install()
    for module in (pecan.core, pecan.rest, pecan.routing):
        assert module.getargspec is pecan_argspec.getargspec
    # pecan's own function is left as it was (the fallback).
    assert pecan.util.getargspec is pecan_argspec._PLAIN
