#!/usr/bin/env python3
"""Write ironic_lite/conf/ironic_options.json: every option Ironic defines.

Read from Ironic's own source -- its ironic/conf/*.py and the group table
of ironic/conf/opts.py -- in a git repository of openstack/ironic (the
``fetch`` mirror by default), without installing Ironic: the modules are
run with stand-ins for the rest of the ``ironic`` package (its i18n, its
constants), so the options are Ironic's own definitions: names, groups,
types, defaults and deprecated names.

    tools/gen-ironic-options.py [--git-dir DIR] [--rev REV] [--output F]

ironic-lite reads the file at start (``ironic_lite/conf/ironic_options``)
to name the options of Ironic it does not implement.  Regenerate it when
moving to a new Ironic release and commit the output.
"""

import argparse
import importlib.abc
import importlib.util
import json
import os
import subprocess
import sys

from oslo_config import cfg

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_GIT_DIR = '/work/.mirror/openstack+ironic/repo'
DEFAULT_OUTPUT = os.path.join(os.path.dirname(HERE), 'ironic_lite', 'conf',
                              'ironic_options.json')


class Stub(str):
    """Whatever the rest of Ironic would provide: any attribute or call
    answers, a string of its own name."""

    def __getattr__(self, attr):
        if attr.startswith('__'):
            raise AttributeError(attr)
        return Stub('%s.%s' % (self, attr))

    def __call__(self, *args, **kwargs):
        return Stub(self + '()')


# Modules outside ironic/conf that build options (keystoneauth's, for
# the groups of the services Ironic calls).
REAL_MODULES = ('ironic.common.keystone',)


class IronicSource(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """``ironic.conf.*`` from the git tree; any other ``ironic`` module a
    stand-in (``ironic.common.i18n._`` returns its text)."""

    def __init__(self, git_dir, rev):
        self.git_dir, self.rev = git_dir, rev

    def _source(self, path):
        return subprocess.run(
            ['git', '--git-dir', self.git_dir, 'show',
             '%s:%s' % (self.rev, path)], check=True,
            capture_output=True, text=True).stdout

    def find_spec(self, name, path=None, target=None):
        if name != 'ironic' and not name.startswith('ironic.'):
            return None
        is_pkg = name in ('ironic', 'ironic.conf', 'ironic.common')
        return importlib.util.spec_from_loader(name, self, is_package=is_pkg)

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        name = module.__name__
        if name in ('ironic', 'ironic.conf', 'ironic.common'):
            module.__path__ = []
            return
        if name.startswith('ironic.conf.') or name in REAL_MODULES:
            path = name.replace('.', '/') + '.py'
            module.__file__ = '/' + path
            exec(compile(self._source(path), path, 'exec'), module.__dict__)
            return
        if name == 'ironic.common.i18n':
            module._ = str
            return
        module.__getattr__ = lambda attr: Stub('%s.%s' % (name, attr))


def _jsonable(value):
    try:
        json.dumps(value)
        return value
    except TypeError:
        if isinstance(value, (list, tuple)):
            return [_jsonable(v) for v in value]
        return str(value)


def _describe(opt):
    return {
        'type': type(opt).__name__,
        'default': _jsonable(opt.default),
        'deprecated': sorted({(d.group or 'DEFAULT', d.name or opt.name)
                              for d in opt.deprecated_opts}),
    }


def ironic_options(git_dir, rev):
    sys.meta_path.insert(0, IronicSource(git_dir, rev))
    # A default checked against choices made of stand-ins would fail:
    # Ironic's own defaults are right, they are not checked here.
    cfg.Opt._check_default = lambda self: None
    modules = subprocess.run(
        ['git', '--git-dir', git_dir, 'ls-tree', '--name-only', rev,
         'ironic/conf/'], check=True, capture_output=True,
        text=True).stdout.split()
    package = importlib.import_module('ironic.conf')
    for path in modules:
        short = os.path.basename(path)[:-3]
        if short not in ('__init__', 'opts'):
            setattr(package, short,
                    importlib.import_module('ironic.conf.' + short))
    table = importlib.import_module('ironic.conf.opts').list_opts()
    groups = {}
    for group, opts in table:
        for opt in opts:
            if not isinstance(opt, cfg.Opt):
                raise SystemExit('[%s]: %r is not an option' % (group, opt))
            groups.setdefault(group, {})[opt.dest] = _describe(opt)
    return groups


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--git-dir', default=DEFAULT_GIT_DIR)
    parser.add_argument('--rev', default='HEAD')
    parser.add_argument('--output', default=DEFAULT_OUTPUT)
    args = parser.parse_args()
    commit = subprocess.run(
        ['git', '--git-dir', args.git_dir, 'rev-parse', args.rev],
        check=True, capture_output=True, text=True).stdout.strip()
    data = {'source': 'openstack/ironic %s' % commit,
            'groups': ironic_options(args.git_dir, commit)}
    with open(args.output, 'w') as out:
        json.dump(data, out, indent=1, sort_keys=True)
        out.write('\n')
    count = sum(len(opts) for opts in data['groups'].values())
    print('%d options in %d groups written to %s'
          % (count, len(data['groups']), args.output))
    return 0


if __name__ == '__main__':
    sys.exit(main())
