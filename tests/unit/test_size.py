"""The size signals of doc/source/contributor/house-map.rst ("Size"),
held: no module of the package over ``MODULE_LINES`` lines, no function
over ``FUNCTION_LINES``.

The package has no total budget (doc/source/contributor/house-map.rst,
"Size"): it grows with every endpoint a release adds; what keeps it easy
to read is that no file and no function grows past what one reads at a
sitting, and that each concept lives in one place.  A module or function
that outgrows these is split, not listed here.
"""

import ast
import os

import ironic_lite

PACKAGE_DIR = os.path.dirname(ironic_lite.__file__)
MODULE_LINES = 600
FUNCTION_LINES = 50


def _modules():
    for root, _dirs, files in os.walk(PACKAGE_DIR):
        for name in sorted(files):
            if name.endswith('.py'):
                path = os.path.join(root, name)
                with open(path) as f:
                    yield os.path.relpath(path, PACKAGE_DIR), f.read()


def test_no_module_over_the_limit():
    long = {path: text.count('\n') for path, text in _modules()
            if text.count('\n') > MODULE_LINES}
    assert long == {}, 'split these modules: %s' % long


def test_no_function_over_the_limit():
    long = []
    for path, text in _modules():
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = node.end_lineno - node.lineno + 1
                if lines > FUNCTION_LINES:
                    long.append('%s:%s %s (%d lines)' % (
                        path, node.lineno, node.name, lines))
    assert long == [], 'split these functions: %s' % long
