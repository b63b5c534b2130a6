"""Layers only point down: api -> objects, conductor.rpcapi; conductor ->
objects; objects -> db; db -> models; common/ is the ground floor that
every layer may import and that imports none of them.  Checked on the
imports of every module (AST), including imports inside functions."""

import ast
import os

import pytest

import ironic_lite

PACKAGE_DIR = os.path.dirname(ironic_lite.__file__)

# package (or module) -> packages it must never import
FORBIDDEN = {
    'ironic_lite.api': ('ironic_lite.db',),
    'ironic_lite.common': ('ironic_lite.api', 'ironic_lite.cmd',
                           'ironic_lite.conductor', 'ironic_lite.db',
                           'ironic_lite.drivers', 'ironic_lite.objects',
                           'ironic_lite.service_reporter'),
    'ironic_lite.conductor': ('ironic_lite.db',),
    'ironic_lite.db': ('ironic_lite.objects', 'ironic_lite.api',
                       'ironic_lite.conductor'),
    'ironic_lite.objects': ('ironic_lite.api', 'ironic_lite.conductor'),
    'ironic_lite.service_reporter': ('ironic_lite.api',
                                     'ironic_lite.conductor',
                                     'ironic_lite.db'),
}


def modules_of(package):
    root = os.path.join(os.path.dirname(PACKAGE_DIR),
                        *package.split('.'))
    if os.path.isfile(root + '.py'):
        yield root + '.py'
        return
    for dirpath, _dirs, files in os.walk(root):
        for name in sorted(files):
            if name.endswith('.py'):
                yield os.path.join(dirpath, name)


def imported_names(source, module):
    """Fully qualified names a module imports (relative ones resolved).

    ``module`` is the dotted path of the file, a package as ``pkg.__init__``.
    """
    names = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ''
            if node.level:
                parent = module.split('.')[:-node.level]
                base = '.'.join(parent + ([base] if base else []))
            names.append(base)
            names.extend('%s.%s' % (base, a.name) for a in node.names)
    return names


def _module_name(path):
    rel = os.path.relpath(path, os.path.dirname(PACKAGE_DIR))
    return rel[:-3].replace(os.sep, '.')  # keeps __init__: see imported_names


def violations(package, forbidden):
    found = []
    for path in modules_of(package):
        with open(path) as f:
            names = imported_names(f.read(), _module_name(path))
        for name in names:
            if any(name == bad or name.startswith(bad + '.')
                   for bad in forbidden):
                found.append('%s imports %s' % (_module_name(path), name))
    return sorted(set(found))


@pytest.mark.parametrize('package', sorted(FORBIDDEN))
def test_layer_imports_point_down(package):
    assert list(modules_of(package)), 'no modules found in %s' % package
    assert violations(package, FORBIDDEN[package]) == []


def test_scanner_sees_from_imports_and_relative_ones():
    source = ('from ironic_lite.db import api\n'
              'def f():\n    from ..db import node\n'
              'import ironic_lite.db.models as m\n')
    names = imported_names(source, 'ironic_lite.api.node')
    assert 'ironic_lite.db.api' in names
    assert 'ironic_lite.db.node' in names
    assert 'ironic_lite.db.models' in names


def test_the_api_reaches_the_conductor_through_its_rpc_client_only():
    # house-map.rst, "The layers": api -> objects, conductor.rpcapi.
    # The hash ring, the manager and the flows are the conductor's own.
    found = []
    for path in modules_of('ironic_lite.api'):
        with open(path) as f:
            names = imported_names(f.read(), _module_name(path))
        found.extend(
            '%s imports %s' % (_module_name(path), name) for name in names
            if name.startswith('ironic_lite.conductor.')
            and not (name == 'ironic_lite.conductor.rpcapi'
                     or name.startswith('ironic_lite.conductor.rpcapi.')))
    assert found == []
