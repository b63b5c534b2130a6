"""No module or symbol of ``ironic_lite`` is named after a release.

Code is named for what it does; which release added it is history (the
release mapping, ``common/release_mappings.py``, and the migrations,
``alembic/``, are about releases and are left out).  Read from the
source (AST): module names, classes, functions, arguments, and the names
assigned (variables, attributes, import aliases).
"""

import ast
import os
import re

import ironic_lite

PACKAGE_DIR = os.path.dirname(ironic_lite.__file__)
EXCLUDED = (os.path.join('common', 'release_mappings.py'),
            'alembic' + os.sep)
# release4, release_4, RELEASE_4_ROUTES, r4_0 ... (as a word of a
# snake_case name).
RELEASE_NAME = re.compile(r'(?:^|_)(?:release_?\d|r\d+_\d)', re.IGNORECASE)


def _sources():
    for dirpath, _dirs, files in os.walk(PACKAGE_DIR):
        for name in sorted(files):
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, PACKAGE_DIR)
            if name.endswith('.py') and not rel.startswith(EXCLUDED):
                yield rel, path


def _defined_names(tree):
    """(line, name) of every name the module defines or binds."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef,
                             ast.ClassDef)):
            yield node.lineno, node.name
        elif isinstance(node, ast.arg):
            yield node.lineno, node.arg
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            yield node.lineno, node.id
        elif (isinstance(node, ast.Attribute)
              and isinstance(node.ctx, ast.Store)):
            yield node.lineno, node.attr
        elif isinstance(node, ast.alias) and node.asname:
            yield node.lineno, node.asname
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            for name in node.names:
                yield node.lineno, name


def release_names():
    found = []
    for rel, path in _sources():
        parts = rel[:-3].split(os.sep)
        found.extend('%s: module named %s' % (rel, part)
                     for part in parts if RELEASE_NAME.search(part))
        with open(path) as f:
            tree = ast.parse(f.read())
        found.extend('%s:%d: %s' % (rel, line, name)
                     for line, name in _defined_names(tree)
                     if RELEASE_NAME.search(name))
    return sorted(set(found))


def test_no_name_is_a_release():
    found = release_names()
    assert not found, (
        'Named after a release (name it for what it does): %s'
        % ', '.join(found))


def test_the_pattern_finds_release_names():
    for name in ('_release_4_routes', 'RELEASE5', 'r4_0_fields',
                 'routes_release_5'):
        assert RELEASE_NAME.search(name), name
    for name in ('release_pin', 'pin_release_version', 'releases',
                 'minor_40', 'error_4', 'for4_0'):
        assert not RELEASE_NAME.search(name), name
