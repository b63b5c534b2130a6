"""The RPC API version is defined once and its history is append-only."""

import ast
import os
import re

from oslo_utils import versionutils

import ironic_lite
from ironic_lite.conductor import rpcapi

PACKAGE = os.path.dirname(ironic_lite.__file__)
RPCAPI = os.path.join(PACKAGE, 'conductor', 'rpcapi.py')
MANAGER = os.path.join(PACKAGE, 'conductor', 'manager.py')
HISTORY_LINE = re.compile(r'^\s*\|\s+(\d+\.\d+)\s+-', re.MULTILINE)


def _sources():
    for root, _dirs, files in os.walk(PACKAGE):
        for name in files:
            if name.endswith('.py'):
                path = os.path.join(root, name)
                with open(path) as f:
                    yield path, f.read()


def _history():
    return HISTORY_LINE.findall(rpcapi.ConductorAPI.__doc__)


def test_rpc_api_version_assigned_only_in_rpcapi():
    pattern = re.compile(r'RPC_API_VERSION\s*=\s*[\'"]')
    where = [path for path, text in _sources() if pattern.search(text)]
    assert where == [RPCAPI]


def test_history_ends_with_rpc_api_version():
    assert _history()[-1] == rpcapi.RPC_API_VERSION


def test_history_ascends_without_repeats():
    versions = _history()
    tuples = [versionutils.convert_version_to_tuple(v) for v in versions]
    assert tuples == sorted(set(tuples))


def _target_version_nodes(path):
    with open(path) as f:
        tree = ast.parse(f.read())
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call)
                and getattr(node.func, 'attr', None) == 'Target'):
            for kw in node.keywords:
                if kw.arg == 'version':
                    yield kw.value


def test_manager_target_uses_rpc_api_version():
    assert os.path.exists(MANAGER), 'manager.py moved: update MANAGER'
    from ironic_lite.conductor import manager
    assert manager.ConductorManager.target.version == rpcapi.RPC_API_VERSION
    values = list(_target_version_nodes(MANAGER))
    assert values, 'no messaging.Target(version=...) in manager.py'
    for value in values:
        assert not isinstance(value, ast.Constant), (
            'the manager Target must import rpcapi.RPC_API_VERSION, not '
            'repeat the literal')
