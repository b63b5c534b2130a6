"""``ironic_lite.api`` imports no module in a circle.

The route vocabulary (``api/routes.py``) is imported by the controllers
and imports none of them; the route table (``api/route_table.py``) sits
above every controller.  The graph is read from the source (AST): every
import, at module level or inside a function, is an edge, and so is the
package each import runs first (``ironic_lite.api.controllers.v1`` for
``from ironic_lite.api.controllers.v1 import node``)."""

import ast
import os

import ironic_lite

API = 'ironic_lite.api'
ROOT = os.path.dirname(os.path.dirname(ironic_lite.__file__))


def _modules():
    """{dotted module name: path} of every module under ``API``; a
    package is its name (``ironic_lite.api.controllers.v1``)."""
    found = {}
    top = os.path.join(ROOT, *API.split('.'))
    for dirpath, _dirs, files in os.walk(top):
        for name in files:
            if not name.endswith('.py'):
                continue
            path = os.path.join(dirpath, name)
            parts = os.path.relpath(path, ROOT)[:-3].split(os.sep)
            if parts[-1] == '__init__':
                parts.pop()
            found['.'.join(parts)] = path
    return found


def _imports(path, module, is_package, known):
    """The modules of ``known`` that the file at ``path`` imports."""
    with open(path) as f:
        tree = ast.parse(f.read())
    package = module if is_package else module.rpartition('.')[0]
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ''
            if node.level:
                parent = package.split('.')[:len(package.split('.')) -
                                            node.level + 1]
                base = '.'.join(parent + ([base] if base else []))
            for alias in node.names:
                # ``from pkg import mod`` imports the module pkg.mod;
                # ``from mod import name`` the module itself.
                full = '%s.%s' % (base, alias.name)
                names.append(full if full in known else base)
    found = set()
    for name in names:
        # Importing a.b.c runs the packages a and a.b first.
        parts = name.split('.')
        found.update('.'.join(parts[:i]) for i in range(1, len(parts) + 1))
    return {n for n in found if n in known and n != module}


def import_graph():
    known = _modules()
    return {module: _imports(path, module, path.endswith('__init__.py'),
                             known)
            for module, path in known.items()}


def find_cycle(graph):
    """One cycle of ``graph`` as a list of nodes (first == last), or
    None."""
    state = {}      # node -> 1 visiting, 2 done

    def visit(node, stack):
        state[node] = 1
        stack.append(node)
        for target in sorted(graph[node]):
            if state.get(target) == 1:
                return stack[stack.index(target):] + [target]
            if target not in state:
                cycle = visit(target, stack)
                if cycle:
                    return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            cycle = visit(node, [])
            if cycle:
                return cycle
    return None


def test_the_api_package_imports_no_module_in_a_circle():
    cycle = find_cycle(import_graph())
    assert cycle is None, 'import cycle: ' + ' -> '.join(cycle)


def test_a_cycle_is_named():
    graph = {'a': {'b'}, 'b': {'c'}, 'c': {'a'}, 'd': set()}
    assert find_cycle(graph) == ['a', 'b', 'c', 'a']
    assert find_cycle({'a': {'b'}, 'b': set()}) is None


def test_the_graph_sees_function_local_imports():
    graph = import_graph()
    # app.setup_app imports the root controller inside the function.
    assert 'ironic_lite.api.controllers.root' in graph['ironic_lite.api.app']
    assert ('ironic_lite.api.schemas.bios' in
            graph['ironic_lite.api.controllers.v1.bios'])
    # The package an import runs first.
    assert ('ironic_lite.api.controllers.v1' in
            graph['ironic_lite.api.route_table'])


def test_the_vocabulary_imports_no_controller():
    controllers = API + '.controllers'
    imported = import_graph()[API + '.routes']
    assert not [m for m in imported if m.startswith(controllers)]
