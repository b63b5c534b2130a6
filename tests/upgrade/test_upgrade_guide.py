"""The rolling upgrade guide's commands, as written, in order.

``doc/source/admin/upgrade-guide.rst`` is read, not paraphrased: its
literal blocks, in document order, up to the skip-level section (another
hop), are the script.  A shell block's lines are run as they stand (a
trailing ``# repeat while exit 1`` makes the line a loop, as an operator
would write it); an ini block is the configuration the guide says to set
before restarting the services.  ``ironic-status upgrade check`` runs
before and after each step, as the guide asks.  The checks are those of
a ``set -e`` script: every command exits 0 but for the codes the guide
allows (``ironic-status``: 0 or 1 -- 2 is an unsafe state, which this
walk never enters -- and 0 at the end).

Two substitutions only, a test's own places: ``/etc/ironic/ironic.conf``
is the test's configuration file (also found, as ``~/.ironic/ironic.conf``
with ``HOME`` set to the test's directory, by the lines with no
``--config-file``), and ``/opt/ironic-lite-<old>`` is the old release's
cached virtualenv.  The commands run from the clone's root with the new
release's commands first on ``PATH``: "install 6.0 where the upgrade
commands run".

The deployment is the embedded default, one ``ironic-lite`` process (API
and conductor) on SQLite: the procedure's commands, not its load, are
tested here; ``test_rolling_upgrade`` walks the same steps with two APIs
and two conductors under load.
"""

import os
import re
import shlex
import subprocess

from tests.functional import procs
from tests import timeouts
from tests.upgrade import conftest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
GUIDE = os.path.join(REPO, 'doc', 'source', 'admin', 'upgrade-guide.rst')
COMMANDS = ('python3 ', 'ironic-dbsync ', 'ironic-status ')
STATUS = 'ironic-status --config-file /etc/ironic/ironic.conf upgrade check'
# The sections of the 5.0 to 6.0 procedure: the "auto" alternative and
# the skip-level hop are other walks.
ALTERNATIVES = ('Or: ``pin_release_version = auto``',)
END = 'Skip-level upgrade'


def literal_blocks(text):
    """[(section title, [lines])] of the guide's ``::`` blocks, in order,
    up to the END section."""
    lines = text.splitlines()
    blocks, title, i = [], None, 0
    while i < len(lines):
        if i + 1 < len(lines) and re.fullmatch(r'([=~-])\1+', lines[i + 1]) \
                and lines[i].strip():
            title = lines[i].strip()
            if title.startswith(END):
                break
        if lines[i].rstrip().endswith('::'):
            i, block = _block(lines, i + 1)
            blocks.append((title, block))
            continue
        i += 1
    return blocks


def _block(lines, i):
    while i < len(lines) and not lines[i].strip():
        i += 1
    indent = len(lines[i]) - len(lines[i].lstrip())
    block = []
    while i < len(lines) and (not lines[i].strip() or
                              len(lines[i]) - len(lines[i].lstrip())
                              >= indent):
        if lines[i].strip():
            block.append(lines[i][indent:])
        i += 1
    return i, block


def script(text):
    """The walk: ('run', line) and ('config', {option: value}) steps."""
    steps = []
    for title, block in literal_blocks(text):
        if title and title.startswith(ALTERNATIVES):
            continue
        if block[0].startswith(COMMANDS):
            steps.extend(('run', line) for line in block
                         if line.startswith(COMMANDS))
        elif block[0] == '[DEFAULT]':
            steps.append(('config', dict(
                (k.strip(), v.strip()) for k, v in
                (line.split('=', 1) for line in block[1:]))))
    return steps


def test_the_guide_is_read_as_a_script():
    with open(GUIDE) as f:
        steps = script(f.read())
    kinds = [kind for kind, _ in steps]
    # Install, schema, pin, the online data migrations (two lines).
    assert kinds == ['run', 'run', 'config', 'run', 'run'], steps
    assert steps[2][1] == {'pin_release_version': conftest.OLD_RELEASE}


class Walk(object):
    """The deployment the guide's lines act on, and their exit checks."""

    def __init__(self, tmp_path, old, new):
        self.home = str(tmp_path)
        self.old, self.new = old, new
        os.makedirs(os.path.join(self.home, '.ironic'))
        self.conf = os.path.join(self.home, '.ironic', 'ironic.conf')
        self.port = procs.free_port()
        self.options = {}
        self.service = None
        self.codes = []

    def write_config(self):
        procs.write_config(self.conf, {
            # A short hand-over at each graceful stop (as the rolling
            # upgrade test's deployments): the walk restarts four times.
            'DEFAULT': dict({'state_path': self.home, 'host': 'guide',
                             'transport_url': 'fake://',
                             'hash_ring_reset_interval': 1},
                            **self.options),
            'database': {'connection': 'sqlite:///%s/ironic.sqlite'
                                       % self.home},
            'api': {'host_ip': '127.0.0.1', 'port': self.port},
        })

    def start(self, release):
        """(Re)start the one ironic-lite process on ``release``."""
        if self.service is not None:
            assert self.service.stop() == 0, self.service.log()
        self.write_config()
        self.service = procs.Service(
            'ironic-lite', self.conf, self.home, label=release.name,
            executable=release.command('ironic-lite'))
        procs.wait_http('http://127.0.0.1:%d/v1' % self.port, self.service)

    def shell(self, line):
        """Run one line of the guide; its exit code."""
        line = line.split('#', 1)[0].strip()
        line = line.replace('/etc/ironic/ironic.conf', self.conf).replace(
            '/opt/ironic-lite-%s' % self.old.name,
            os.path.dirname(self.old.bin_dir))
        env = dict(os.environ, HOME=self.home,
                   PATH=self.new.bin_dir + os.pathsep + os.environ['PATH'])
        if self.new.bin_dir != procs.BIN:
            env.pop('PYTHONPATH', None)
        result = subprocess.run(shlex.split(line), cwd=REPO, env=env,
                                capture_output=True, text=True,
                                timeout=timeouts.HANG)
        self.codes.append((line, result.returncode))
        self.last = result
        return result.returncode

    def status(self, allowed=(0, 1)):
        """``ironic-status upgrade check``, before or after a step."""
        code = self.shell(STATUS)
        assert code in allowed, (self.codes, self.last.stdout,
                                 self.last.stderr)
        return re.search(r'Step: ([^:]+):',
                         procs.unwrap_table(self.last.stdout)).group(1)

    def run(self, line):
        """One shell line, ``set -e``-style (``# repeat while exit 1``: a
        loop, bounded as a hang)."""
        repeat = 'repeat while exit 1' in line
        for _ in range(1000 if repeat else 1):
            code = self.shell(line)
            if not (repeat and code == 1):
                break
        assert code == 0, (self.codes, self.last.stdout, self.last.stderr)


def adds_revisions(old_release):
    """Whether this tree has schema revisions the old release's commit
    lacks (``alembic/versions``)."""
    listed = subprocess.run(
        ['git', '-C', REPO, 'ls-tree', '--name-only', old_release.commit,
         'alembic/versions/'], capture_output=True, text=True, check=True)
    old = {os.path.basename(p) for p in listed.stdout.split()}
    new = os.listdir(os.path.join(REPO, 'alembic', 'versions'))
    return any(f.endswith('.py') and f not in old for f in new)


def test_the_guide_walks_from_the_old_release_to_this_one(
        tmp_path, old_release, new_release):
    with open(GUIDE) as f:
        steps = script(f.read())
    walk = Walk(tmp_path, old_release, new_release)
    walk.start(old_release)
    try:
        status, _, body = procs.http(
            'POST', 'http://127.0.0.1:%d/v1/nodes' % walk.port,
            {'driver': 'fake-hardware', 'name': 'before'})
        assert status == 201, body
        seen = [walk.status()]
        for kind, what in steps:
            if kind == 'run':
                walk.run(what)
            else:
                # The guide's configuration, then its restart; later,
                # "Remove pin_release_version and restart".
                walk.options = what
                walk.start(new_release)
                seen.append(walk.status())
                walk.options = {}
                walk.start(new_release)
            seen.append(walk.status())
        assert walk.status(allowed=(0,)) == 'done'
    finally:
        walk.service.stop()
    # Step 0 before the schema upgrade, step 2 after it (the install
    # changes nothing), "done" at the end.  A release that adds no schema
    # revision is at step 2 from the start: its schema is already current.
    first = '0' if adds_revisions(old_release) else '2'
    assert seen[:3] == [first, first, '2'], (seen, walk.codes)
    assert seen[-1] == 'done', (seen, walk.codes)
