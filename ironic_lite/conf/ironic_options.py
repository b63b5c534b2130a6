"""Ironic's options, and those of them ironic-lite does not implement.

``ironic_options.json`` lists every option Ironic defines (its name,
group, type, default and deprecated names), generated from Ironic's own
``ironic/conf/*.py`` by ``tools/gen-ironic-options.py`` -- Ironic is not
imported here.  An ``ironic.conf`` written for Ironic may set options
ironic-lite has no use for: each one set in the configuration files is
named once at start (a warning line, ``warn_unimplemented``) and by
``ironic-status upgrade check``.  An option known to neither is left to
oslo.config, as Ironic leaves it.
"""

import functools
import json
import os

from oslo_config import cfg
from oslo_log import log as logging

LOG = logging.getLogger(__name__)
DATA_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                         'ironic_options.json')


@functools.lru_cache(maxsize=1)
def ironic_names():
    """{(group, name): (group, name) of Ironic's option}: every option of
    Ironic, under its name and under each of its deprecated names."""
    with open(DATA_FILE) as data:
        groups = json.load(data)['groups']
    names = {}
    for group, options in groups.items():
        for name, info in options.items():
            names[(group, name)] = (group, name)
            for old_group, old_name in info['deprecated']:
                names.setdefault((old_group, old_name), (group, name))
    return names


def _config_files(conf):
    files = list(conf.config_file or ())
    for directory in conf.config_dir and [conf.config_dir] or ():
        if os.path.isdir(directory):
            files.extend(os.path.join(directory, f)
                         for f in sorted(os.listdir(directory))
                         if f.endswith('.conf'))
    return files


def configured(conf):
    """The (group, name) pairs the configuration files set."""
    found = set()
    for path in _config_files(conf):
        sections = {}
        try:
            cfg.ConfigParser(path, sections).parse()
        except (OSError, cfg.ParseError):
            continue  # oslo.config itself reports an unreadable file
        for group, values in sections.items():
            found.update((group, name) for name in values)
    return found


def _implemented(conf, group, name):
    try:
        if group == 'DEFAULT':
            return name in conf
        return group in conf and name in conf[group]
    except cfg.NoSuchOptError:
        return False


def unimplemented(conf):
    """Sorted "[group]name" of Ironic's options that the configuration
    files set and ironic-lite does not implement."""
    names = ironic_names()
    found = set()
    for group, name in configured(conf):
        if (group, name) in names and not _implemented(conf, group, name):
            found.add('[%s]%s' % (group, name))
    return sorted(found)


def warn_unimplemented(conf):
    """One warning line per Ironic option set that ironic-lite ignores."""
    for option in unimplemented(conf):
        LOG.warning('%s is an option of Ironic that ironic-lite does not '
                    'implement: it is ignored.', option)
